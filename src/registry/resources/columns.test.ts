import { builtinCatalog } from './groups/index.ts';
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../../api/catalog.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef, TableColumn } from '../../api/types.ts';
import { defaultColumns, formatLabelSelector, humanDuration, translateTimestampSince } from './columns.ts';
import { podSummary } from './core/pods.ts';
import { endpointSliceColumns } from './other/columns.ts';
import { kubeReference, readKubeJson } from '../../../test/support/kube-reference.ts';

const REF = kubeReference('responses');
interface RefTable { columnDefinitions: Array<{ name: string; type: string; format: string; description: string; priority: number }>; rows: Array<{ cells: unknown[]; object: { metadata: { name: string } } }> | null }

function defFor(file: string, catalog: Catalog): ResourceDef {
  // api_v1_namespaces_ref_pods.json → core v1 pods; apis_apps_v1_namespaces_ref_deployments.json → apps v1 deployments
  const parts = file.replace(/\.json$/, '').split('_');
  const resource = parts.at(-1)!;
  const [group, version] = parts[0] === 'api' ? ['', parts[1]!] : [parts[1]!, parts[2]!];
  const d = catalog.lookup(group, version, resource);
  assert.ok(d, file);
  return d;
}

/**
 * Column shapes clients key on: name, type, format and priority. Descriptions are left out on purpose: ours are
 * written in our own words (docs.ts) rather than copied from kube's API documentation, so they differ from
 * kube-apiserver's; the tests below only require each one to be present and ours.
 */
const shapes = (cols: ReadonlyArray<{ name: string; type: string; format?: string; priority: number }>) =>
  cols.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', priority: c.priority }));

void test('column definitions equal kube-apiserver\'s for every reference table (descriptions aside)', () => {
  const catalog = builtinCatalog();
  for (const f of readdirSync(join(REF, 'table'))) {
    const want = JSON.parse(readFileSync(join(REF, 'table', f), 'utf8')) as RefTable;
    const cols = defFor(f, catalog).tableColumns ?? defaultColumns();
    assert.deepEqual(shapes(cols), shapes(want.columnDefinitions), f);
    for (const c of cols) assert.ok(c.description.trim().length > 0, `${f} ${c.name}: description present`);
  }
});

/** Reference objects (as created on a real cluster) and their rows in the reference tables. */
const PAIRS: Array<[string, string]> = [
  ['api_v1_namespaces_ref_pods_pod1.json', 'api_v1_namespaces_ref_pods.json'],
  ['apis_apps_v1_namespaces_ref_deployments_web.json', 'apis_apps_v1_namespaces_ref_deployments.json'],
  ['apis_batch_v1_namespaces_ref_jobs_j1.json', 'apis_batch_v1_namespaces_ref_jobs.json'],
  ['api_v1_namespaces_ref_services_svc1.json', 'api_v1_namespaces_ref_services.json'],
  ['api_v1_namespaces_ref_configmaps_cm1.json', 'api_v1_namespaces_ref_configmaps.json'],
  ['api_v1_namespaces_ref_serviceaccounts_robot.json', 'api_v1_namespaces_ref_serviceaccounts.json'],
  ['api_v1_namespaces_ref.json', 'api_v1_namespaces.json'],
];

void test('cells computed from real objects equal kube\'s (time-dependent cells aside)', () => {
  const catalog = builtinCatalog();
  for (const [objFile, tableFile] of PAIRS) {
    const obj = JSON.parse(readFileSync(join(REF, 'objects', objFile), 'utf8')) as KObject;
    const table = JSON.parse(readFileSync(join(REF, 'table', tableFile), 'utf8')) as RefTable;
    const row = table.rows!.find((r) => r.object.metadata.name === obj.metadata.name);
    assert.ok(row, `${tableFile} has ${obj.metadata.name}`);
    const cols = defFor(tableFile, catalog).tableColumns!;
    cols.forEach((c, i) => {
      if (c.name === 'Age' || c.name === 'Duration') return;
      // kube's cluster IP and job selector uid are per-run values; the objects were recorded separately.
      assert.deepEqual(c.cell(obj), row.cells[i], `${tableFile} ${c.name}`);
    });
  }
});

void test('human durations follow apimachinery', () => {
  const s = 1000;
  const cases: Array<[number, string]> = [[-5 * s, '<invalid>'], [-500, '0s'], [65 * s, '65s'], [119 * s, '119s'], [150 * s, '2m30s'],
    [600 * s, '10m'], [179 * 60 * s, '179m'], [3 * 3600 * s + 5 * 60 * s, '3h5m'], [8 * 3600 * s, '8h'], [47 * 3600 * s, '47h'],
    [50 * 3600 * s, '2d2h'], [9 * 86400 * s, '9d'], [800 * 86400 * s, '2y70d'], [3000 * 86400 * s, '8y']];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, String(ms));
  assert.equal(translateTimestampSince(undefined), '<unknown>');
  assert.equal(translateTimestampSince('2026-01-01T00:00:00Z', Date.parse('2026-01-01T00:01:05Z')), '65s');
});

void test('pod status summary: init containers, waiting reasons, terminating, restarts', () => {
  const base = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }, { name: 'b' }] } };
  assert.deepEqual(podSummary({ ...base, status: { phase: 'Pending' } }), { ready: '0/2', reason: 'Pending', restarts: '0' });
  const running = {
    ...base, status: { phase: 'Running', containerStatuses: [
      { name: 'a', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { finishedAt: '2026-01-01T00:00:00Z' } } },
      { name: 'b', ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } } },
    ] },
  };
  const r = podSummary(running, Date.parse('2026-01-01T00:01:00Z'));
  assert.deepEqual(r, { ready: '1/2', reason: 'CrashLoopBackOff', restarts: '2 (60s ago)' });
  const init = { ...base, spec: { ...base.spec, initContainers: [{ name: 'i' }] }, status: { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { waiting: { reason: 'PodInitializing' } } }] } };
  assert.equal(podSummary(init).reason, 'Init:0/1');
  const term = { ...base, metadata: { name: 'p', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Running' } };
  assert.equal(podSummary(term).reason, 'Terminating');
  const sidecar = { ...base, spec: { ...base.spec, initContainers: [{ name: 's', restartPolicy: 'Always' }] }, status: { phase: 'Running', initContainerStatuses: [{ name: 's', started: true, ready: true, state: { running: {} } }] } };
  assert.equal(podSummary(sidecar).ready, '1/3');
});

void test('label selectors print as kube does', () => {
  assert.equal(formatLabelSelector(undefined), '<none>');
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }, { key: 'e', operator: 'Exists' }, { key: 'n', operator: 'DoesNotExist' }] }),
    'a=1,b=2,k in (x,y),e,!n');
});

void test('every column description is ours: present, one short sentence, never kube\'s text', () => {
  // Kube's field and column descriptions, as digests: the fixtures carry no prose (see their README).
  const kubeTexts = new Set(readKubeJson<{ digests: string[] }>('description-digests.json').digests);
  assert.ok(kubeTexts.size > 1000, `only ${kubeTexts.size} kube descriptions`);
  const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);
  const checked: Array<[string, readonly TableColumn[]]> = builtinCatalog().all()
    .map((d) => [`${d.group}/${d.resource}`, d.tableColumns ?? []]);
  checked.push(['(default)', defaultColumns()]);
  for (const [res, cols] of checked) {
    for (const c of cols) {
      const what = `${res} ${c.name}`;
      assert.match(c.description, /^[A-Z][^\n]*\.$/, `${what}: one sentence`);
      assert.ok(c.description.length <= 120, `${what}: short`);
      assert.ok(!kubeTexts.has(digest(c.description)), `${what}: not kube's documentation text`);
    }
  }
});

void test('no cell throws on odd objects (wrong types, missing parts)', () => {
  const odd: KObject[] = [
    { metadata: {} },
    { metadata: { name: 'x', creationTimestamp: 'not a date', deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: 'oops', status: 7 },
    { metadata: { name: 'x', labels: { 'node-role.kubernetes.io/control-plane': '' } }, spec: { containers: 'x', template: [], ports: [null, 1, 'a'], rules: {}, metrics: [{ type: 'Resource' }] },
      status: { conditions: [null, 'x', { type: 'Ready' }], containerStatuses: [null, { state: null, lastState: 'x' }], loadBalancer: { ingress: [null] } } },
    { metadata: { name: 'x' }, subsets: [{ addresses: [{}], ports: [{}] }], involvedObject: 3, series: {}, data: [], subjects: [null, { kind: 'User' }], webhooks: {} },
  ];
  for (const d of builtinCatalog().all()) {
    for (const c of d.tableColumns ?? []) {
      for (const o of odd) assert.doesNotThrow(() => c.cell(o), `${d.resource} ${c.name}`);
    }
  }
});

void test('endpointSliceColumns have the catalog EndpointSlice columns\' shapes and cells', () => {
  const current = builtinCatalog().lookup('discovery.k8s.io', 'v1', 'endpointslices')!.tableColumns!;
  assert.deepEqual(shapes(endpointSliceColumns), shapes(current));
  const objs: KObject[] = [
    { metadata: { name: 'a' }, addressType: 'IPv4', ports: [{ port: 80 }, { name: 'http' }, {}, { port: 9 }], endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }] },
    { metadata: { name: 'b' }, addressType: 'FQDN', endpoints: [{ addresses: ['x.example'] }] },
    { metadata: { name: 'c' } },
  ];
  for (const o of objs) {
    endpointSliceColumns.forEach((c, i) => {
      if (c.name !== 'Age') assert.deepEqual(c.cell(o), current[i]!.cell(o), `${o.metadata.name} ${c.name}`);
    });
  }
  assert.equal(endpointSliceColumns[2]!.cell(objs[0]!), '80,http,* + 1 more...');
});
