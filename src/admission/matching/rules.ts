/**
 * Which requests an admissionregistration rule covers (kube's predicates/rules): operations, API groups, API
 * versions and resources with their wildcards, and the rule's scope. Shared by the webhooks and the admission
 * policies; the request side is the resource as the rule should see it (the request's own, or an equivalent one
 * under matchPolicy Equivalent).
 */
import type { GroupVersionKind } from '../../machinery/objects.ts';
import type { AdmissionAttributes, AdmissionOperation, GroupVersionResource } from '../../registry/admission.ts';

/** admissionregistration.k8s.io/v1 RuleWithOperations as stored (fields may be missing). */
export interface RuleWithOperations {
  readonly operations?: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly apiVersions?: readonly string[];
  readonly resources?: readonly string[];
  /** `Cluster`, `Namespaced` or `*` (the default when missing). */
  readonly scope?: string;
}

/** What a rule is checked against. */
export interface RuleRequest {
  readonly operation: AdmissionOperation;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  /** kube's attr.GetNamespace(): see {@link requestNamespace}. */
  readonly namespace: string;
}

const contains = (items: readonly string[] | undefined, value: string): boolean =>
  (items ?? []).some((i) => i === '*' || i === value);

const isNamespaceResource = (r: GroupVersionResource): boolean => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

function scopeMatches(scope: string | undefined, req: RuleRequest): boolean {
  if (scope === undefined || scope === '*') return true;
  // A Namespace is cluster-scoped although its requests carry its own name as their namespace.
  if (scope === 'Namespaced') return !isNamespaceResource(req.resource) && req.namespace !== '';
  if (scope === 'Cluster') return isNamespaceResource(req.resource) || req.namespace === '';
  return false;
}

function resourceMatches(resources: readonly string[] | undefined, req: RuleRequest): boolean {
  for (const entry of resources ?? []) {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    if ((res === '*' || res === req.resource.resource) && (sub === '*' || sub === req.subresource)) return true;
  }
  return false;
}

/** kube's rules.Matcher.Matches. */
export function ruleMatches(rule: RuleWithOperations, req: RuleRequest): boolean {
  return scopeMatches(rule.scope, req)
    && (rule.operations ?? []).some((op) => op === '*' || op === req.operation)
    && contains(rule.apiGroups, req.resource.group)
    && contains(rule.apiVersions, req.resource.version)
    && resourceMatches(rule.resources, req);
}

/**
 * The namespace of a request as kube's admission attributes carry it: the object's namespace, and for requests
 * on an existing Namespace (update, delete, its sub-resources) the Namespace's own name, since kube-apiserver
 * reads it from the URL (`/api/v1/namespaces/<name>`). A Namespace create has none.
 */
export function requestNamespace(attrs: Pick<AdmissionAttributes, 'namespace' | 'name' | 'operation' | 'resource'>): string {
  if (attrs.namespace) return attrs.namespace;
  if (attrs.resource.group === '' && attrs.resource.resource === 'namespaces' && attrs.operation !== 'CREATE') return attrs.name;
  return '';
}

/** The request of `attrs` for rule matching, optionally as another (equivalent) resource. */
export function ruleRequest(attrs: AdmissionAttributes, resource: GroupVersionResource = attrs.resource): RuleRequest {
  return { operation: attrs.operation, resource, subresource: attrs.subresource, namespace: requestNamespace(attrs) };
}

const CONFIGURATION_KINDS = new Set([
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding',
]);

/**
 * Writes of the admission configuration kinds themselves never reach webhooks or policies (kube's
 * IsExemptAdmissionConfigurationResource), so a broken webhook can always be removed.
 */
export function isExemptAdmissionConfiguration(kind: GroupVersionKind): boolean {
  return kind.group === 'admissionregistration.k8s.io' && CONFIGURATION_KINDS.has(kind.kind);
}
