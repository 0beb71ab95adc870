/**
 * The static rules every node gets for resources the node authorizer does not subdivide (kube's
 * bootstrappolicy.NodeRules for v1.33), and an RBAC-style matcher for them (kube's rbac.RulesAllow: verbs,
 * API groups, `resource/subresource`; these rules name no resourceNames or non-resource URLs).
 */
import type { Attributes, ResourceRule } from '../../request/authorizer.ts';

const READ = ['get', 'list', 'watch'];
const READ_UPDATE = [...READ, 'create', 'update', 'patch', 'delete', 'deletecollection'];

const rule = (verbs: string[], group: string, resources: string[]): ResourceRule => ({ verbs, apiGroups: [group], resources });

export interface NodeRuleGates {
  readonly dynamicResourceAllocation: boolean;
  readonly clusterTrustBundle: boolean;
}

export function nodeRules(g: NodeRuleGates): ResourceRule[] {
  const rules = [
    rule(['create'], 'authentication.k8s.io', ['tokenreviews']),
    rule(['create'], 'authorization.k8s.io', ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(READ, '', ['services']),
    rule(['create', 'get', 'list', 'watch'], '', ['nodes']),
    rule(['update', 'patch'], '', ['nodes/status']),
    rule(['update', 'patch'], '', ['nodes']),
    rule(['create', 'update', 'patch'], '', ['events']),
    rule(READ, '', ['pods']),
    rule(['create', 'delete'], '', ['pods']),
    rule(['update', 'patch'], '', ['pods/status']),
    rule(['create'], '', ['pods/eviction']),
    rule(['get', 'list', 'watch'], '', ['secrets', 'configmaps']),
    rule(['get'], '', ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], '', ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], 'certificates.k8s.io', ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], 'coordination.k8s.io', ['leases']),
    rule(['get'], 'storage.k8s.io', ['volumeattachments']),
    rule(['create'], '', ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], '', ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], 'storage.k8s.io', ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], 'storage.k8s.io', ['csinodes']),
    rule(['get', 'list', 'watch'], 'node.k8s.io', ['runtimeclasses']),
  ];
  if (g.dynamicResourceAllocation) {
    rules.push(rule(['get'], 'resource.k8s.io', ['resourceclaims']), rule(READ_UPDATE, 'resource.k8s.io', ['resourceslices']));
  }
  if (g.clusterTrustBundle) rules.push(rule(['get', 'list', 'watch'], 'certificates.k8s.io', ['clustertrustbundles']));
  return rules;
}

const has = (list: readonly string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));

/** kube's RuleAllows for resource rules (the node rules carry no resourceNames). */
export function rulesAllow(a: Attributes, rules: readonly ResourceRule[]): boolean {
  if (!a.isResourceRequest) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return rules.some((r) => has(r.verbs, a.verb) && has(r.apiGroups, a.apiGroup)
    && (has(r.resources, combined) || (!!a.subresource && !!r.resources?.includes(`*/${a.subresource}`)))
    && (!r.resourceNames?.length || r.resourceNames.includes(a.name)));
}
