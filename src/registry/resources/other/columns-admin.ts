/**
 * Table columns for the cluster-administration kinds (admission, flow control, storage drivers, service
 * CIDRs, API services), after kube's printers.go and kube-aggregator's APIService printer.
 */
import type { KObject, TableColumn } from '../../../api/types.ts';
import { ageColumn, arr, col, get, nameColumn, num, rec, str } from '../columns.ts';

const webhookColumns = (): TableColumn[] => [
  nameColumn(),
  col('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration', (o) => arr(o['webhooks']).length),
  ageColumn(),
];
export const mutatingWebhookColumns = webhookColumns();
export const validatingWebhookColumns = webhookColumns();

function paramKind(o: KObject): string {
  const pk = rec(get(o, 'spec.paramKind'));
  if (!pk['kind']) return '<unset>';
  return `${str(pk['apiVersion'])}/${str(pk['kind'])}`;
}

export const validatingAdmissionPolicyColumns: TableColumn[] = [
  nameColumn(),
  col('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration', (o) => arr(get(o, 'spec.validations')).length),
  col('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy', paramKind),
  ageColumn(),
];

function paramRef(o: KObject): string {
  const pr = rec(get(o, 'spec.paramRef'));
  if (!pr['name'] && !pr['selector']) return '<unset>';
  const ns = str(pr['namespace']);
  if (pr['name']) return ns ? `${ns}/${str(pr['name'])}` : `*/${str(pr['name'])}`;
  return ns ? `${ns}/*` : '*/*';
}

export const validatingAdmissionPolicyBindingColumns: TableColumn[] = [
  nameColumn(),
  col('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to', (o) => str(get(o, 'spec.policyName'))),
  col('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param', paramRef),
  ageColumn(),
];

export const flowSchemaColumns: TableColumn[] = [
  nameColumn(),
  col('PriorityLevel', 'string', '`name` is the name of the priority level configuration being referenced Required.', (o) => str(get(o, 'spec.priorityLevelConfiguration.name'))),
  col('MatchingPrecedence', 'string', '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.', (o) => String(num(get(o, 'spec.matchingPrecedence')))),
  col('DistinguisherMethod', 'string', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.', (o) => {
    const t = get(o, 'spec.distinguisherMethod.type');
    return t === undefined ? '<none>' : str(t);
  }),
  ageColumn(),
  col('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration', (o) => {
    const c = arr(get(o, 'status.conditions')).map(rec).find((x) => x['type'] === 'Dangling');
    return c ? str(c['status']) : '?';
  }),
];

const limitedOr = (path: string) => (o: KObject): string => {
  if (get(o, 'spec.type') !== 'Limited') return '<none>';
  const v = get(o, path);
  return v === undefined ? '<none>' : String(v);
};

export const priorityLevelColumns: TableColumn[] = [
  nameColumn(),
  col('Type', 'string', '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.', (o) => str(get(o, 'spec.type'))),
  col('NominalConcurrencyShares', 'string', '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)', limitedOr('spec.limited.nominalConcurrencyShares')),
  col('Queues', 'string', '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.', limitedOr('spec.limited.limitResponse.queuing.queues')),
  col('HandSize', 'string', '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request\'s flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.', limitedOr('spec.limited.limitResponse.queuing.handSize')),
  col('QueueLengthLimit', 'string', '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.', limitedOr('spec.limited.limitResponse.queuing.queueLengthLimit')),
  ageColumn(),
];

export const csiNodeColumns: TableColumn[] = [
  nameColumn(),
  col('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node', (o) => arr(get(o, 'spec.drivers')).length),
  ageColumn(),
];

export const volumeAttachmentColumns: TableColumn[] = [
  nameColumn(),
  col('Attacher', 'string', 'attacher indicates the name of the volume driver that MUST handle this request. This is the name returned by GetPluginName().', (o) => str(get(o, 'spec.attacher')), { format: 'name' }),
  col('PV', 'string', 'persistentVolumeName represents the name of the persistent volume to attach.', (o) => str(get(o, 'spec.source.persistentVolumeName'))),
  col('Node', 'string', 'nodeName represents the node that the volume should be attached to.', (o) => str(get(o, 'spec.nodeName'))),
  col('Attached', 'boolean', 'attached indicates the volume is successfully attached. This field must only be set by the entity completing the attach operation, i.e. the external-attacher.', (o) => get(o, 'status.attached') === true),
  ageColumn(),
];

export const csiStorageCapacityColumns: TableColumn[] = [
  nameColumn(),
  col('StorageClassName', 'string', 'storageClassName represents the name of the StorageClass that the reported capacity applies to. It must meet the same requirements as the name of a StorageClass object (non-empty, DNS subdomain). If that object no longer exists, the CSIStorageCapacity object is obsolete and should be removed by its creator. This field is immutable.', (o) => str(o['storageClassName'])),
  col('Capacity', 'string', 'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.\n\nThe semantic is currently (CSI spec 1.2) defined as: The available capacity, in bytes, of the storage that can be used to provision volumes. If not set, that information is currently unavailable.', (o) => (o['capacity'] === undefined ? '<unset>' : str(o['capacity']))),
];

export const serviceCIDRColumns: TableColumn[] = [
  nameColumn(),
  col('CIDRs', 'string', 'CIDRs defines the IP blocks in CIDR notation (e.g. "192.168.0.0/24" or "2001:db8::/64") from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. This field is immutable.', (o) => {
    const c = arr(get(o, 'spec.cidrs')).map(str);
    return c.length ? c.join(',') : '<none>';
  }),
  ageColumn(),
];

export const ipAddressColumns: TableColumn[] = [
  nameColumn(),
  col('ParentRef', 'string', 'ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.', (o) => {
    const r = rec(get(o, 'spec.parentRef'));
    if (!r['name']) return '<none>';
    const group = str(r['group']);
    const res = group ? `${str(r['resource'])}.${group}` : str(r['resource']);
    return `${res}/${str(r['namespace']) ? `${str(r['namespace'])}/` : ''}${str(r['name'])}`;
  }),
];

export const apiServiceColumns: TableColumn[] = [
  nameColumn(),
  col('Service', 'string', 'The reference to the service that hosts this API endpoint.', (o) => {
    const svc = rec(get(o, 'spec.service'));
    return svc['name'] ? `${str(svc['namespace'])}/${str(svc['name'])}` : 'Local';
  }),
  col('Available', 'string', 'Whether this service is available.', (o) => {
    const c = arr(get(o, 'status.conditions')).map(rec).find((x) => x['type'] === 'Available');
    if (!c) return 'Unknown';
    if (c['status'] === 'True') return 'True';
    return str(c['reason']) ? `${str(c['status'])} (${str(c['reason'])})` : str(c['status']);
  }),
  ageColumn(),
];

