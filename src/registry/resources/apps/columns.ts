/** Table columns for apps/v1 kinds (kube's printers.go). */
import type { KObject } from '../../../machinery/objects.ts';
import type { TableColumn } from '../../../api/types.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, col, formatLabels, get, nameColumn, num, templateColumns } from '../columns.ts';

export const deploymentColumns: TableColumn[] = [
  nameColumn(),
  col('Ready', 'string', DOCS.readyPods, (o) => `${num(get(o, 'status.readyReplicas'))}/${num(get(o, 'spec.replicas'))}`),
  col('Up-to-date', 'string', DOCS.deployUpdated, (o) => num(get(o, 'status.updatedReplicas'))),
  col('Available', 'string', DOCS.deployAvailable, (o) => num(get(o, 'status.availableReplicas'))),
  ageColumn(),
  ...templateColumns(DOCS.deploySelector),
];

export const replicaSetColumns: TableColumn[] = [
  nameColumn(),
  col('Desired', 'integer', DOCS.replicasDesired, (o) => num(get(o, 'spec.replicas'))),
  col('Current', 'integer', DOCS.replicasCurrent, (o) => num(get(o, 'status.replicas'))),
  col('Ready', 'integer', DOCS.replicasReady, (o) => num(get(o, 'status.readyReplicas'))),
  ageColumn(),
  ...templateColumns(DOCS.rsSelector),
];

export const statefulSetColumns: TableColumn[] = [
  nameColumn(),
  col('Ready', 'string', DOCS.readyPods, (o) => `${num(get(o, 'status.readyReplicas'))}/${num(get(o, 'spec.replicas'))}`),
  ageColumn(),
  ...templateColumns(undefined),
];

export const daemonSetColumns: TableColumn[] = [
  nameColumn(),
  col('Desired', 'integer', DOCS.dsDesired, (o) => num(get(o, 'status.desiredNumberScheduled'))),
  col('Current', 'integer', DOCS.dsCurrent, (o) => num(get(o, 'status.currentNumberScheduled'))),
  col('Ready', 'integer', DOCS.dsReady, (o) => num(get(o, 'status.numberReady'))),
  col('Up-to-date', 'integer', DOCS.dsUpdated, (o) => num(get(o, 'status.updatedNumberScheduled'))),
  col('Available', 'integer', DOCS.dsAvailable, (o) => num(get(o, 'status.numberAvailable'))),
  col('Node Selector', 'string', DOCS.nodeSelector, (o) => formatLabels(get(o, 'spec.template.spec.nodeSelector'))),
  ageColumn(),
  ...templateColumns(DOCS.dsSelector),
];

function controllerOf(o: KObject): string {
  const ref = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const gv = ref.apiVersion;
  const group = gv.includes('/') ? gv.slice(0, gv.indexOf('/')) : '';
  return `${ref.kind.toLowerCase()}${group ? `.${group}` : ''}/${ref.name}`;
}

export const controllerRevisionColumns: TableColumn[] = [
  nameColumn(),
  col('Controller', 'string', DOCS.revisionController, controllerOf),
  col('Revision', 'string', DOCS.controllerRevision, (o) => num(o['revision'])),
  ageColumn(),
];
