/**
 * Table columns and field selectors for core/v1 kinds other than pods (kube's printers.go and the
 * per-kind `ToSelectableFields` functions).
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { TableColumn } from '../../../api/types.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, arr, col, formatLabels, get, joinLimited, nameColumn, num, rec, str, templateColumns, translateTimestampSince } from '../columns.ts';
import { fieldOf } from '../../../api/resources/define.ts';

export const namespaceColumns: TableColumn[] = [
  nameColumn(),
  col('Status', 'string', DOCS.namespacePhase, (o) => str(get(o, 'status.phase'))),
  ageColumn(),
];

export const configMapColumns: TableColumn[] = [
  nameColumn(),
  col('Data', 'string', DOCS.configMapData, (o) => Object.keys(rec(o['data'])).length + Object.keys(rec(o['binaryData'])).length),
  ageColumn(),
];

export const secretColumns: TableColumn[] = [
  nameColumn(),
  col('Type', 'string', DOCS.secretType, (o) => str(o['type'])),
  col('Data', 'string', DOCS.secretData, (o) => Object.keys(rec(o['data'])).length),
  ageColumn(),
];

export const serviceAccountColumns: TableColumn[] = [
  nameColumn(),
  col('Secrets', 'string', DOCS.serviceAccountSecrets, (o) => arr(o['secrets']).length),
  ageColumn(),
];

function serviceExternalIP(o: KObject): string {
  const type = str(get(o, 'spec.type')) || 'ClusterIP';
  const externalIPs = arr(get(o, 'spec.externalIPs')).map(str);
  const lbIPs = () => arr(get(o, 'status.loadBalancer.ingress')).map(rec).map((i) => str(i['ip']) || str(i['hostname'])).filter(Boolean);
  switch (type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...lbIPs(), ...externalIPs];
      if (all.length) {
        const s = all.join(',');
        return s.length > 16 ? `${s.slice(0, 13)}...` : s;
      }
      return '<pending>';
    }
    case 'ExternalName':
      return str(get(o, 'spec.externalName'));
    default:
      return '<unknown>';
  }
}

function servicePorts(o: KObject): string {
  const ports = arr(get(o, 'spec.ports')).map(rec);
  if (!ports.length) return '<none>';
  return ports.map((p) => {
    const proto = str(p['protocol']) || 'TCP';
    const np = num(p['nodePort']);
    return np ? `${num(p['port'])}:${np}/${proto}` : `${num(p['port'])}/${proto}`;
  }).join(',');
}

export const serviceColumns: TableColumn[] = [
  nameColumn(),
  col('Type', 'string', DOCS.serviceType, (o) => str(get(o, 'spec.type'))),
  col('Cluster-IP', 'string', DOCS.serviceClusterIP, (o) => {
    const ip = str(get(o, 'spec.clusterIP'));
    return ip === '' ? '<none>' : ip;
  }),
  col('External-IP', 'string', DOCS.serviceExternalIPs, serviceExternalIP),
  col('Port(s)', 'string', DOCS.servicePorts, servicePorts),
  ageColumn(),
  col('Selector', 'string', DOCS.serviceSelector, (o) => formatLabels(get(o, 'spec.selector')), { priority: 1 }),
];

function formatEndpoints(o: KObject): string {
  if (!arr(o['subsets']).length) return '<none>';
  const out: string[] = [];
  let count = 0;
  for (const s of arr(o['subsets']).map(rec)) {
    const ports = arr(s['ports']).map(rec);
    for (const a of arr(s['addresses']).map(rec)) {
      const ip = str(a['ip']);
      if (!ports.length) { out.push(ip); count++; continue; }
      for (const p of ports) { out.push(`${ip}:${num(p['port'])}`); count++; }
    }
  }
  return joinLimited(out, 3);
}

export const endpointsColumns: TableColumn[] = [
  nameColumn(),
  col('Endpoints', 'string', DOCS.endpointsSubsets, formatEndpoints),
  ageColumn(),
];

function nodeStatus(o: KObject): string {
  const conds = arr(get(o, 'status.conditions')).map(rec);
  const parts: string[] = [];
  const ready = conds.find((c) => c['type'] === 'Ready');
  if (!ready) parts.push('Unknown');
  else parts.push(ready['status'] === 'True' ? 'Ready' : 'NotReady');
  if (get(o, 'spec.unschedulable') === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function nodeRoles(o: KObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  const r = [...roles].filter(Boolean).sort();
  return r.length ? r.join(',') : '<none>';
}

function nodeAddress(o: KObject, type: string): string {
  const a = arr(get(o, 'status.addresses')).map(rec).find((x) => x['type'] === type);
  return a ? str(a['address']) : '<none>';
}

const orUnknown = (v: unknown) => str(v) || '<unknown>';

export const nodeColumns: TableColumn[] = [
  nameColumn(),
  col('Status', 'string', DOCS.nodeStatus, nodeStatus),
  col('Roles', 'string', DOCS.nodeRoles, nodeRoles),
  ageColumn(),
  col('Version', 'string', DOCS.kubeletVersion, (o) => str(get(o, 'status.nodeInfo.kubeletVersion'))),
  col('Internal-IP', 'string', DOCS.nodeInternalIP, (o) => nodeAddress(o, 'InternalIP'), { priority: 1 }),
  col('External-IP', 'string', DOCS.nodeExternalIP, (o) => nodeAddress(o, 'ExternalIP'), { priority: 1 }),
  col('OS-Image', 'string', DOCS.osImage, (o) => orUnknown(get(o, 'status.nodeInfo.osImage')), { priority: 1 }),
  col('Kernel-Version', 'string', DOCS.kernelVersion, (o) => orUnknown(get(o, 'status.nodeInfo.kernelVersion')), { priority: 1 }),
  col('Container-Runtime', 'string', DOCS.containerRuntimeVersion, (o) => orUnknown(get(o, 'status.nodeInfo.containerRuntimeVersion')), { priority: 1 }),
];

/**
 * Event cells read core/v1 names and fall back to events.k8s.io/v1 ones, so the same columns serve both
 * groups (kube prints both through the internal Event type).
 */
const ev = (o: KObject, core: string, events: string): unknown => (o[core] !== undefined ? o[core] : o[events]);

function eventLastSeen(o: KObject): string {
  const series = rec(o['series']);
  if (series['lastObservedTime']) return translateTimestampSince(series['lastObservedTime']);
  const last = ev(o, 'lastTimestamp', 'deprecatedLastTimestamp');
  if (last) return translateTimestampSince(last);
  if (o['eventTime']) return translateTimestampSince(o['eventTime']);
  return translateTimestampSince(o.metadata.creationTimestamp);
}

function eventFirstSeen(o: KObject): string {
  const first = ev(o, 'firstTimestamp', 'deprecatedFirstTimestamp');
  if (first) return translateTimestampSince(first);
  if (o['eventTime']) return translateTimestampSince(o['eventTime']);
  return translateTimestampSince(o.metadata.creationTimestamp);
}

function eventSource(o: KObject): string {
  const src = rec(ev(o, 'source', 'deprecatedSource'));
  const component = str(src['component']) || str(ev(o, 'reportingComponent', 'reportingController'));
  const host = str(src['host']) || str(o['reportingInstance']);
  if (!component && !host) return '';
  return host ? `${component}, ${host}` : component;
}

const involved = (o: KObject) => rec(ev(o, 'involvedObject', 'regarding'));

export const eventColumns: TableColumn[] = [
  col('Last Seen', 'string', DOCS.eventLastTimestamp, eventLastSeen),
  col('Type', 'string', DOCS.eventType, (o) => str(o['type'])),
  col('Reason', 'string', DOCS.eventReason, (o) => str(o['reason'])),
  col('Object', 'string', DOCS.eventInvolvedObject, (o) => `${str(involved(o)['kind']).toLowerCase()}/${str(involved(o)['name'])}`),
  col('Subobject', 'string', DOCS.objectRefFieldPath, (o) => str(involved(o)['fieldPath']), { priority: 1 }),
  col('Source', 'string', DOCS.eventSource, eventSource, { priority: 1 }),
  col('Message', 'string', DOCS.eventMessage, (o) => str(ev(o, 'message', 'note')).trim()),
  col('First Seen', 'string', DOCS.eventFirstTimestamp, eventFirstSeen, { priority: 1 }),
  col('Count', 'string', DOCS.eventCount, (o) => {
    const series = rec(o['series']);
    return series['count'] !== undefined ? String(num(series['count'])) : String(num(ev(o, 'count', 'deprecatedCount')) || 1);
  }, { priority: 1 }),
  nameColumn(1),
];

function quantityList(m: unknown): string {
  const r = rec(m);
  const storage = r['storage'];
  return storage === undefined ? '' : str(storage);
}

/** kube's access mode short forms (RWO, ROX, RWX, RWOP), comma separated. */
function accessModes(v: unknown): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
  const modes = arr(v).map(str);
  const order = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];
  return order.filter((m) => modes.includes(m)).map((m) => short[m]).join(',');
}

export const persistentVolumeColumns: TableColumn[] = [
  nameColumn(),
  col('Capacity', 'string', DOCS.pvCapacity, (o) => quantityList(get(o, 'spec.capacity'))),
  col('Access Modes', 'string', DOCS.pvAccessModes, (o) => accessModes(get(o, 'spec.accessModes'))),
  col('Reclaim Policy', 'string', DOCS.pvReclaimPolicy, (o) => str(get(o, 'spec.persistentVolumeReclaimPolicy'))),
  col('Status', 'string', DOCS.pvPhase, (o) => (o.metadata.deletionTimestamp ? 'Terminating' : str(get(o, 'status.phase')))),
  col('Claim', 'string', DOCS.pvClaimRef, (o) => {
    const ref = rec(get(o, 'spec.claimRef'));
    return ref['name'] ? `${str(ref['namespace'])}/${str(ref['name'])}` : '';
  }),
  col('StorageClass', 'string', DOCS.pvStorageClass, (o) => str(get(o, 'spec.storageClassName'))),
  col('VolumeAttributesClass', 'string', DOCS.pvVolumeAttributesClass, (o) => str(get(o, 'spec.volumeAttributesClassName')) || '<unset>'),
  col('Reason', 'string', DOCS.pvReason, (o) => str(get(o, 'status.reason'))),
  ageColumn(),
  col('VolumeMode', 'string', DOCS.pvVolumeMode, (o) => str(get(o, 'spec.volumeMode')) || '<unset>', { priority: 1 }),
];

export const persistentVolumeClaimColumns: TableColumn[] = [
  nameColumn(),
  col('Status', 'string', DOCS.pvcPhase, (o) => (o.metadata.deletionTimestamp ? 'Terminating' : str(get(o, 'status.phase')))),
  col('Volume', 'string', DOCS.pvcVolumeName, (o) => str(get(o, 'spec.volumeName'))),
  col('Capacity', 'string', DOCS.pvcCapacity, (o) => (str(get(o, 'spec.volumeName')) ? quantityList(get(o, 'status.capacity')) : '')),
  col('Access Modes', 'string', DOCS.pvcAccessModes, (o) => (str(get(o, 'spec.volumeName')) ? accessModes(get(o, 'status.accessModes')) : '')),
  col('StorageClass', 'string', DOCS.pvcStorageClass, (o) => str(get(o, 'spec.storageClassName'))),
  col('VolumeAttributesClass', 'string', DOCS.pvcVolumeAttributesClass, (o) => str(get(o, 'status.currentVolumeAttributesClassName')) || '<unset>'),
  ageColumn(),
  col('VolumeMode', 'string', DOCS.pvcVolumeMode, (o) => str(get(o, 'spec.volumeMode')) || '<unset>', { priority: 1 }),
];

export const replicationControllerColumns: TableColumn[] = [
  nameColumn(),
  col('Desired', 'integer', DOCS.replicasDesired, (o) => num(get(o, 'spec.replicas'))),
  col('Current', 'integer', DOCS.replicasCurrent, (o) => num(get(o, 'status.replicas'))),
  col('Ready', 'integer', DOCS.replicasReady, (o) => num(get(o, 'status.readyReplicas'))),
  ageColumn(),
  ...templateColumns(undefined),
  col('Selector', 'string', DOCS.rcSelector, (o) => formatLabels(get(o, 'spec.selector')), { priority: 1 }),
];

export const podTemplateColumns: TableColumn[] = [
  nameColumn(),
  col('Containers', 'string', DOCS.containers, (o) => arr(get(o, 'template.spec.containers')).map((c) => str(rec(c)['name'])).join(',')),
  col('Images', 'string', DOCS.images, (o) => arr(get(o, 'template.spec.containers')).map((c) => str(rec(c)['image'])).join(',')),
  col('Pod Labels', 'string', DOCS.podTemplateLabels, (o) => formatLabels(get(o, 'template.metadata.labels'))),
];

function quotaPairs(o: KObject, wantLimits: boolean): string {
  const hard = rec(get(o, 'status.hard'));
  const used = rec(get(o, 'status.used'));
  const keys = Object.keys(hard).sort().filter((k) => k.startsWith('limits.') === wantLimits);
  return keys.map((k) => `${k}: ${str(used[k]) || '0'}/${str(hard[k])}`).join(', ');
}

export const resourceQuotaColumns: TableColumn[] = [
  nameColumn(),
  col('Request', 'string', DOCS.quotaRequests, (o) => quotaPairs(o, false)),
  col('Limit', 'string', DOCS.quotaLimits, (o) => quotaPairs(o, true)),
  ageColumn(),
];

/** Field selectors (kube's per-kind field label conversions). */
export const eventSelectableFields: Record<string, (o: KObject) => string> = {
  'involvedObject.kind': fieldOf('involvedObject.kind'),
  'involvedObject.namespace': fieldOf('involvedObject.namespace'),
  'involvedObject.name': fieldOf('involvedObject.name'),
  'involvedObject.uid': fieldOf('involvedObject.uid'),
  'involvedObject.apiVersion': fieldOf('involvedObject.apiVersion'),
  'involvedObject.resourceVersion': fieldOf('involvedObject.resourceVersion'),
  'involvedObject.fieldPath': fieldOf('involvedObject.fieldPath'),
  reason: fieldOf('reason'),
  reportingComponent: fieldOf('reportingComponent'),
  source: fieldOf('source.component'),
  type: fieldOf('type'),
};
export const secretSelectableFields = { type: fieldOf('type') };
export const namespaceSelectableFields = { 'status.phase': fieldOf('status.phase') };
export const nodeSelectableFields = { 'spec.unschedulable': (o: KObject) => String(get(o, 'spec.unschedulable') === true) };
export const replicasSelectableFields = { 'status.replicas': (o: KObject) => String(num(get(o, 'status.replicas'))) };

/** ComponentStatus rows read the Healthy condition: Healthy/Unhealthy (Unknown without one), its message and error. */
function healthyCondition(o: KObject): Record<string, unknown> | undefined {
  return arr(o['conditions']).map(rec).find((c) => c['type'] === 'Healthy');
}

export const componentStatusColumns: TableColumn[] = [
  nameColumn(),
  col('Status', 'string', 'Whether the component answered its health check.', (o) => {
    const c = healthyCondition(o);
    return !c ? 'Unknown' : c['status'] === 'True' ? 'Healthy' : 'Unhealthy';
  }),
  col('Message', 'string', 'What a healthy component said.', (o) => str(healthyCondition(o)?.['message'])),
  col('Error', 'string', 'Why the component is unhealthy.', (o) => str(healthyCondition(o)?.['error'])),
];
