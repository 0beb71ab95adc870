/**
 * Table columns for the cluster-administration kinds (admission, flow control, storage drivers, service
 * CIDRs, API services), after kube's printers.go and kube-aggregator's APIService printer.
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { TableColumn } from '../../../api/types.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, arr, col, get, nameColumn, num, rec, str } from '../columns.ts';

const webhookColumns = (): TableColumn[] => [
  nameColumn(),
  col('Webhooks', 'integer', DOCS.webhookCount, (o) => arr(o['webhooks']).length),
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
  col('Validations', 'integer', DOCS.vapValidations, (o) => arr(get(o, 'spec.validations')).length),
  col('ParamKind', 'string', DOCS.vapParamKind, paramKind),
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
  col('PolicyName', 'string', DOCS.vapbPolicyName, (o) => str(get(o, 'spec.policyName'))),
  col('ParamRef', 'string', DOCS.vapbParamRef, paramRef),
  ageColumn(),
];

export const flowSchemaColumns: TableColumn[] = [
  nameColumn(),
  col('PriorityLevel', 'string', DOCS.fsPriorityLevel, (o) => str(get(o, 'spec.priorityLevelConfiguration.name'))),
  col('MatchingPrecedence', 'string', DOCS.fsMatchingPrecedence, (o) => String(num(get(o, 'spec.matchingPrecedence')))),
  col('DistinguisherMethod', 'string', DOCS.fsDistinguisherMethod, (o) => {
    const t = get(o, 'spec.distinguisherMethod.type');
    return t === undefined ? '<none>' : str(t);
  }),
  ageColumn(),
  col('MissingPL', 'string', DOCS.fsMissingPL, (o) => {
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
  col('Type', 'string', DOCS.plType, (o) => str(get(o, 'spec.type'))),
  col('NominalConcurrencyShares', 'string', DOCS.plNominalConcurrencyShares, limitedOr('spec.limited.nominalConcurrencyShares')),
  col('Queues', 'string', DOCS.plQueues, limitedOr('spec.limited.limitResponse.queuing.queues')),
  col('HandSize', 'string', DOCS.plHandSize, limitedOr('spec.limited.limitResponse.queuing.handSize')),
  col('QueueLengthLimit', 'string', DOCS.plQueueLengthLimit, limitedOr('spec.limited.limitResponse.queuing.queueLengthLimit')),
  ageColumn(),
];

export const csiNodeColumns: TableColumn[] = [
  nameColumn(),
  col('Drivers', 'integer', DOCS.csiNodeDrivers, (o) => arr(get(o, 'spec.drivers')).length),
  ageColumn(),
];

export const volumeAttachmentColumns: TableColumn[] = [
  nameColumn(),
  col('Attacher', 'string', DOCS.vaAttacher, (o) => str(get(o, 'spec.attacher')), { format: 'name' }),
  col('PV', 'string', DOCS.vaPV, (o) => str(get(o, 'spec.source.persistentVolumeName'))),
  col('Node', 'string', DOCS.vaNode, (o) => str(get(o, 'spec.nodeName'))),
  col('Attached', 'boolean', DOCS.vaAttached, (o) => get(o, 'status.attached') === true),
  ageColumn(),
];

export const csiStorageCapacityColumns: TableColumn[] = [
  nameColumn(),
  col('StorageClassName', 'string', DOCS.cscStorageClassName, (o) => str(o['storageClassName'])),
  col('Capacity', 'string', DOCS.cscCapacity, (o) => (o['capacity'] === undefined ? '<unset>' : str(o['capacity']))),
];

export const serviceCIDRColumns: TableColumn[] = [
  nameColumn(),
  col('CIDRs', 'string', DOCS.serviceCIDRs, (o) => {
    const c = arr(get(o, 'spec.cidrs')).map(str);
    return c.length ? c.join(',') : '<none>';
  }),
  ageColumn(),
];

export const ipAddressColumns: TableColumn[] = [
  nameColumn(),
  col('ParentRef', 'string', DOCS.ipAddressParentRef, (o) => {
    const r = rec(get(o, 'spec.parentRef'));
    if (!r['name']) return '<none>';
    const group = str(r['group']);
    const res = group ? `${str(r['resource'])}.${group}` : str(r['resource']);
    return `${res}/${str(r['namespace']) ? `${str(r['namespace'])}/` : ''}${str(r['name'])}`;
  }),
];

export const apiServiceColumns: TableColumn[] = [
  nameColumn(),
  col('Service', 'string', DOCS.apiServiceService, (o) => {
    const svc = rec(get(o, 'spec.service'));
    return svc['name'] ? `${str(svc['namespace'])}/${str(svc['name'])}` : 'Local';
  }),
  col('Available', 'string', DOCS.apiServiceAvailable, (o) => {
    const c = arr(get(o, 'status.conditions')).map(rec).find((x) => x['type'] === 'Available');
    if (!c) return 'Unknown';
    if (c['status'] === 'True') return 'True';
    return str(c['reason']) ? `${str(c['status'])} (${str(c['reason'])})` : str(c['status']);
  }),
  ageColumn(),
];

