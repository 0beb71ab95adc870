/**
 * Naming conventions of kube-apiserver's generated OpenAPI: definition names (Go package paths), operation
 * ids (`listAppsV1NamespacedDeployment`) and tags (`apps_v1`).
 */

/** `io.k8s.api.apps.v1.Deployment`, `io.k8s.api.core.v1.Pod`, with kube's special packages. */
export function definitionName(group: string, version: string, kind: string): string {
  if (group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}.${kind}`;
  if (group === 'apiregistration.k8s.io') return `io.k8s.kube-aggregator.pkg.apis.apiregistration.${version}.${kind}`;
  if (group === '') return `io.k8s.api.core.${version}.${kind}`;
  // Go package names that differ from the group's first label.
  if (group === 'internal.apiserver.k8s.io') return `io.k8s.api.apiserverinternal.${version}.${kind}`;
  if (!group.includes('.')) return `io.k8s.api.${group}.${version}.${kind}`;
  // Groups outside k8s.io (CRDs) are named by their reversed domain.
  if (!group.endsWith('.k8s.io')) return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
  return `io.k8s.api.${group.split('.')[0]}.${version}.${kind}`;
}

const cap = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** The group part of operation ids: `Core`, `Apps`, `RbacAuthorization`, `FlowcontrolApiserver`. */
export function groupIdPart(group: string): string {
  if (group === '') return 'Core';
  const trimmed = group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : group;
  return trimmed.split('.').map((p) => p.split('-').map(cap).join('')).join('');
}

/** `AppsV1`, `CoreV1`, `AutoscalingV2`. */
export function gvIdPart(group: string, version: string): string {
  return `${groupIdPart(group)}${cap(version)}`;
}

/** `apps_v1`, `core_v1`, `rbacAuthorization_v1`. */
export function tagOf(group: string, version: string): string {
  const g = groupIdPart(group);
  return `${g[0]!.toLowerCase()}${g.slice(1)}_${version}`;
}

/** The URL root of a group version: `/api/v1` or `/apis/apps/v1`. */
export function gvRoot(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** The `/openapi/v3/<path>` key of a group version: `api/v1`, `apis/apps/v1`. */
export function v3PathKey(group: string, version: string): string {
  return gvRoot(group, version).slice(1);
}
