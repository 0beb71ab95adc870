/** Table columns for the smaller groups (rbac, networking, policy, autoscaling, storage, scheduling, …). */
import type { KObject } from '../../../machinery/objects.ts';
import type { TableColumn } from '../../../api/types.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, arr, col, defaultColumns, formatLabelSelector, get, nameColumn, num, rec, str, humanDuration, joinLimited } from '../columns.ts';

function subjects(o: KObject, kind: string): string {
  return arr(o['subjects']).map(rec).filter((s) => s['kind'] === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(s['namespace'])}:${str(s['name'])}` : str(s['name']))).join(', ');
}

function bindingColumns(roleRefDoc: string): TableColumn[] {
  return [
    nameColumn(),
    col('Role', 'string', roleRefDoc, (o) => `${str(get(o, 'roleRef.kind'))}/${str(get(o, 'roleRef.name'))}`),
    ageColumn(),
    col('Users', 'string', DOCS.bindingUsers, (o) => subjects(o, 'User'), { priority: 1 }),
    col('Groups', 'string', DOCS.bindingGroups, (o) => subjects(o, 'Group'), { priority: 1 }),
    col('ServiceAccounts', 'string', DOCS.bindingServiceAccounts, (o) => subjects(o, 'ServiceAccount'), { priority: 1 }),
  ];
}

export const roleColumns: TableColumn[] = defaultColumns();
export const roleBindingColumns = bindingColumns(DOCS.roleBindingRoleRef);
export const clusterRoleBindingColumns = bindingColumns(DOCS.clusterRoleBindingRoleRef);

function ingressHosts(o: KObject): string {
  const hosts = arr(get(o, 'spec.rules')).map(rec).map((r) => str(r['host'])).filter(Boolean);
  if (!hosts.length) return '*';
  return joinLimited(hosts, 4);
}

function ingressAddress(o: KObject): string {
  const ing = arr(get(o, 'status.loadBalancer.ingress')).map(rec).map((i) => str(i['ip']) || str(i['hostname'])).filter(Boolean);
  return ing.join(',');
}

export const ingressColumns: TableColumn[] = [
  nameColumn(),
  col('Class', 'string', DOCS.ingressClass, (o) =>
    str(get(o, 'spec.ingressClassName')) || str(o.metadata.annotations?.['kubernetes.io/ingress.class']) || '<none>'),
  col('Hosts', 'string', DOCS.ingressHosts, ingressHosts),
  col('Address', 'string', DOCS.ingressAddress, ingressAddress),
  col('Ports', 'string', DOCS.ingressPorts, (o) => (arr(get(o, 'spec.tls')).length ? '80, 443' : '80')),
  ageColumn(),
];

export const ingressClassColumns: TableColumn[] = [
  nameColumn(),
  col('Controller', 'string', DOCS.ingressClassController, (o) => str(get(o, 'spec.controller'))),
  col('Parameters', 'string', DOCS.ingressClassParameters, (o) => {
    const p = rec(get(o, 'spec.parameters'));
    if (!p['name']) return '<none>';
    const group = str(p['apiGroup']) || 'k8s.io';
    return `${str(p['kind'])}.${group}/${str(p['name'])}`;
  }),
  ageColumn(),
];

export const networkPolicyColumns: TableColumn[] = [
  nameColumn(),
  col('Pod-Selector', 'string', DOCS.netpolPodSelector, (o) => {
    const s = formatLabelSelector(get(o, 'spec.podSelector'));
    return s === '<none>' ? '<none>' : s;
  }),
  ageColumn(),
];

/** First three entries then `+ N more...`, or `<unset>` when there are none (kube's EndpointSlice printer). */
function limitedOrUnset(items: string[]): string {
  return items.length ? joinLimited(items, 3) : '<unset>';
}

/**
 * EndpointSlice columns. src/registry/resources/groups/discovery.ts still declares its own copy with kube's field docs;
 * it should use this one (same shapes and cells, our descriptions).
 */
export const endpointSliceColumns: TableColumn[] = [
  nameColumn(),
  col('AddressType', 'string', DOCS.epsAddressType, (o) => str(o['addressType'])),
  col('Ports', 'string', DOCS.epsPorts, (o) => limitedOrUnset(arr(o['ports']).map(rec)
    .map((p) => (typeof p['port'] === 'number' ? String(p['port']) : typeof p['name'] === 'string' ? p['name'] : '*')))),
  col('Endpoints', 'string', DOCS.epsEndpoints, (o) => limitedOrUnset(arr(o['endpoints']).map(rec).flatMap((e) => arr(e['addresses']).map(str)))),
  ageColumn(),
];

function intOrPercent(v: unknown): string {
  return v === undefined || v === null ? 'N/A' : String(v);
}

export const podDisruptionBudgetColumns: TableColumn[] = [
  nameColumn(),
  col('Min Available', 'string', DOCS.pdbMinAvailable, (o) => intOrPercent(get(o, 'spec.minAvailable'))),
  col('Max Unavailable', 'string', DOCS.pdbMaxUnavailable, (o) => intOrPercent(get(o, 'spec.maxUnavailable'))),
  col('Allowed Disruptions', 'integer', DOCS.pdbAllowedDisruptions, (o) => num(get(o, 'status.disruptionsAllowed'))),
  ageColumn(),
];

function hpaTargets(o: KObject): string {
  const metrics = arr(get(o, 'spec.metrics')).map(rec);
  if (!metrics.length) return '<none>';
  const current = arr(get(o, 'status.currentMetrics')).map(rec);
  const parts = metrics.map((m, i) => {
    const type = str(m['type']);
    if (type === 'Resource' || type === 'ContainerResource') {
      const key = type === 'Resource' ? 'resource' : 'containerResource';
      const target = rec(rec(m[key])['target']);
      const cur = rec(rec(current[i]?.[key])['current']);
      const name = str(rec(m[key])['name']);
      if (target['averageUtilization'] !== undefined) {
        const c = cur['averageUtilization'] !== undefined ? `${num(cur['averageUtilization'])}%` : '<unknown>';
        return `${name}: ${c}/${num(target['averageUtilization'])}%`;
      }
      const c = cur['averageValue'] !== undefined ? str(cur['averageValue']) : '<unknown>';
      return `${name}: ${c}/${str(target['averageValue'])}`;
    }
    return '<unknown>';
  });
  return joinLimited(parts, 2).replace(/,/g, ', ');
}

export const horizontalPodAutoscalerColumns: TableColumn[] = [
  nameColumn(),
  col('Reference', 'string', DOCS.hpaScaleTargetRef, (o) => `${str(get(o, 'spec.scaleTargetRef.kind'))}/${str(get(o, 'spec.scaleTargetRef.name'))}`),
  col('Targets', 'string', DOCS.hpaMetrics, hpaTargets),
  col('MinPods', 'string', DOCS.hpaMinReplicas, (o) => (typeof get(o, 'spec.minReplicas') === 'number' ? String(get(o, 'spec.minReplicas')) : '<unset>')),
  col('MaxPods', 'string', DOCS.hpaMaxReplicas, (o) => num(get(o, 'spec.maxReplicas'))),
  col('Replicas', 'string', DOCS.hpaCurrentReplicas, (o) => num(get(o, 'status.currentReplicas'))),
  ageColumn(),
];

export const leaseColumns: TableColumn[] = [
  nameColumn(),
  col('Holder', 'string', DOCS.leaseHolder, (o) => str(get(o, 'spec.holderIdentity')) || '<none>'),
  ageColumn(),
];

export const storageClassColumns: TableColumn[] = [
  nameColumn(),
  col('Provisioner', 'string', DOCS.scProvisioner, (o) => str(o['provisioner'])),
  col('ReclaimPolicy', 'string', DOCS.scReclaimPolicy, (o) => str(o['reclaimPolicy']) || 'Delete'),
  col('VolumeBindingMode', 'string', DOCS.scVolumeBindingMode, (o) => str(o['volumeBindingMode']) || 'Immediate'),
  col('AllowVolumeExpansion', 'string', DOCS.scAllowVolumeExpansion, (o) => String(o['allowVolumeExpansion'] === true)),
  ageColumn(),
];

export const priorityClassColumns: TableColumn[] = [
  nameColumn(),
  col('Value', 'integer', DOCS.pcValue, (o) => num(o['value'])),
  col('Global-Default', 'boolean', DOCS.pcGlobalDefault, (o) => o['globalDefault'] === true),
  ageColumn(),
  col('PreemptionPolicy', 'string', DOCS.pcPreemptionPolicy, (o) => str(o['preemptionPolicy'])),
];

export const runtimeClassColumns: TableColumn[] = [
  nameColumn(),
  col('Handler', 'string', DOCS.runtimeHandler, (o) => str(o['handler'])),
  ageColumn(),
];

function csrCondition(o: KObject): string {
  const conds = arr(get(o, 'status.conditions')).map(rec);
  const seen: string[] = [];
  for (const c of conds) {
    const t = str(c['type']);
    if (['Approved', 'Denied', 'Failed'].includes(t) && !seen.includes(t)) seen.push(t);
  }
  const out = [...seen];
  if (get(o, 'status.certificate')) out.push('Issued');
  return out.length ? out.join(',') : 'Pending';
}

export const certificateSigningRequestColumns: TableColumn[] = [
  nameColumn(),
  ageColumn(),
  col('SignerName', 'string', DOCS.csrSignerName, (o) => str(get(o, 'spec.signerName'))),
  col('Requestor', 'string', DOCS.csrRequestor, (o) => str(get(o, 'spec.username'))),
  col('RequestedDuration', 'string', DOCS.csrRequestedDuration, (o) => {
    const s = get(o, 'spec.expirationSeconds');
    return typeof s === 'number' ? humanDuration(s * 1000) : '<none>';
  }),
  col('Condition', 'string', DOCS.csrCondition, csrCondition),
];

export { defaultColumns };
