/** Table columns for the smaller groups (rbac, networking, policy, autoscaling, storage, scheduling, …). */
import type { KObject, TableColumn } from '../../../api/types.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, arr, col, defaultColumns, formatLabelSelector, get, nameColumn, num, rec, str, humanDuration, joinLimited } from '../columns.ts';

function subjects(o: KObject, kind: string): string {
  return arr(o['subjects']).map(rec).filter((s) => s['kind'] === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${str(s['namespace'])}:${str(s['name'])}` : str(s['name']))).join(', ');
}

function bindingColumns(roleRefDoc: string, what: string): TableColumn[] {
  return [
    nameColumn(),
    col('Role', 'string', roleRefDoc, (o) => `${str(get(o, 'roleRef.kind'))}/${str(get(o, 'roleRef.name'))}`),
    ageColumn(),
    col('Users', 'string', `Users in the ${what}`, (o) => subjects(o, 'User'), { priority: 1 }),
    col('Groups', 'string', `Groups in the ${what}`, (o) => subjects(o, 'Group'), { priority: 1 }),
    col('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, (o) => subjects(o, 'ServiceAccount'), { priority: 1 }),
  ];
}

export const roleColumns: TableColumn[] = defaultColumns();
export const roleBindingColumns = bindingColumns(DOCS.roleBindingRoleRef, 'roleBinding');
export const clusterRoleBindingColumns = bindingColumns(DOCS.clusterRoleBindingRoleRef, 'clusterRoleBinding');

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
  col('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration', (o) =>
    str(get(o, 'spec.ingressClassName')) || str(o.metadata.annotations?.['kubernetes.io/ingress.class']) || '<none>'),
  col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule', ingressHosts),
  col('Address', 'string', 'Address is a list containing ingress points for the load-balancer', ingressAddress),
  col('Ports', 'string', 'Ports of TLS configurations that open', (o) => (arr(get(o, 'spec.tls')).length ? '80, 443' : '80')),
  ageColumn(),
];

export const ingressClassColumns: TableColumn[] = [
  nameColumn(),
  col('Controller', 'string', 'Controller that is responsible for handling this class', (o) => str(get(o, 'spec.controller'))),
  col('Parameters', 'string', 'A reference to a resource with additional parameters', (o) => {
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

function intOrPercent(v: unknown): string {
  return v === undefined || v === null ? 'N/A' : String(v);
}

export const podDisruptionBudgetColumns: TableColumn[] = [
  nameColumn(),
  col('Min Available', 'string', 'The minimum number of pods that must be available.', (o) => intOrPercent(get(o, 'spec.minAvailable'))),
  col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.', (o) => intOrPercent(get(o, 'spec.maxUnavailable'))),
  col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.', (o) => num(get(o, 'status.disruptionsAllowed'))),
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
  // kube describes this column with ObjectMeta's (missing) `handler` doc: an empty description.
  col('Handler', 'string', '', (o) => str(o['handler'])),
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
  col('Requestor', 'string', 'Base64-encoded PKCS#10 CSR data', (o) => str(get(o, 'spec.username'))),
  col('RequestedDuration', 'string', 'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known Kubernetes signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the Kubernetes controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.', (o) => {
    const s = get(o, 'spec.expirationSeconds');
    return typeof s === 'number' ? humanDuration(s * 1000) : '<none>';
  }),
  col('Condition', 'string', 'Conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".', csrCondition),
];

export { defaultColumns };
