import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestInfo } from '../request/context.ts';
import type { KObject } from '../machinery/objects.ts';
import { FlowController, queuingConfig } from './controller.ts';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from './bootstrap.ts';
import { allocate, nominalLimits } from './allocation.ts';

const withUid = (o: KObject): KObject => ({ ...o, metadata: { ...o.metadata, uid: `uid-${o.kind}-${o.metadata.name}` } });
const PLS = [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].map(withUid);
const FSS = [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map(withUid);

const info = (verb: string, resource: string, ns = ''): RequestInfo => ({
  isResourceRequest: true, path: '/api/v1/x', verb, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: ns, resource, subresource: '', name: '', parts: [],
});

void test('the default 600 seats divide among the v1.33 levels as kube divides them', () => {
  const fc = new FlowController({ serverConcurrencyLimit: 600 });
  fc.digest(PLS, FSS);
  const byName = Object.fromEntries(fc.snapshot().priorityLevels.map((p) => [p.name, p]));
  const nominal = Object.fromEntries(Object.entries(byName).map(([n, p]) => [n, p.nominalLimit]));
  // ceil(600 × shares / 245)
  assert.deepEqual(nominal, { 'catch-all': 13, exempt: 0, system: 74, 'node-high': 98, 'leader-election': 25, 'workload-high': 98, 'workload-low': 245, 'global-default': 49 });
  assert.equal(byName['workload-low']!.lowerLimit, 245 - 221, 'lends 90%');
  assert.equal(byName['global-default']!.upperLimit, 49 + 600, 'borrows without limit when borrowingLimitPercent is unset');
  // max seats: min(ceil(15% nominal), nominal/handSize): global-default 8, workload-low 10 (capped later at 10)
  assert.equal(byName['global-default']!.maxSeats, 8);
  assert.equal(byName['leader-election']!.maxSeats, 4);
  assert.equal(byName['catch-all']!.maxSeats, 0, 'no queues: the estimator uses its own cap');
  // Every limited level gets at least what it cannot lend; the sum stays within the server's seats (+ rounding).
  let sum = 0;
  for (const p of Object.values(byName)) {
    if (p.name === 'exempt') continue;
    assert.ok(p.currentLimit >= p.lowerLimit && p.currentLimit <= p.upperLimit, `${p.name} ${p.currentLimit}`);
    sum += p.currentLimit;
  }
  assert.ok(sum >= 595 && sum <= 610, `sum ${sum}`);
  fc.stop();
});

void test('classification picks the schema, its level and their UIDs; missing mandatory objects are imagined', () => {
  const fc = new FlowController({ serverConcurrencyLimit: 600 });
  fc.digest(PLS, FSS);
  const d = fc.decide({ info: info('list', 'pods', 'a'), user: { username: 'alice', groups: ['system:authenticated'] } }, new URLSearchParams(), performance.now() + 1000);
  assert.deepEqual([d.flowSchema, d.flowSchemaUid, d.priorityLevel, d.priorityLevelUid, d.exempt], ['global-default', 'uid-FlowSchema-global-default', 'global-default', 'uid-PriorityLevelConfiguration-global-default', false]);
  const a = d.admission;
  assert.ok(!(a instanceof Promise) && a.execute);
  a.finish();
  const m = fc.decide({ info: info('delete', 'pods', 'a'), user: { username: 'root', groups: ['system:masters', 'system:authenticated'] } }, new URLSearchParams(), 0);
  assert.equal(m.exempt, true);
  assert.ok(!(m.admission instanceof Promise) && m.admission.execute, 'exempt is admitted even past its deadline');

  // Nothing configured: exempt and catch-all still exist (without UIDs).
  const bare = new FlowController({ serverConcurrencyLimit: 600 });
  const b = bare.decide({ info: info('get', 'pods', 'a'), user: { username: 'alice', groups: ['system:authenticated'] } }, new URLSearchParams(), performance.now() + 1000);
  assert.deepEqual([b.flowSchema, b.priorityLevel, b.priorityLevelUid], ['catch-all', 'catch-all', '']);
  assert.equal(bare.snapshot().priorityLevels.find((p) => p.name === 'catch-all')!.nominalLimit, 600, 'catch-all alone holds every seat');
  fc.stop();
  bare.stop();
});

void test('a schema whose level is missing is skipped; the next matching one classifies', () => {
  const fc = new FlowController({ serverConcurrencyLimit: 600 });
  const orphan = withUid({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'orphan' },
    spec: { priorityLevelConfiguration: { name: 'gone' }, matchingPrecedence: 3, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }] },
  });
  fc.digest(PLS, [...FSS, orphan]);
  const d = fc.decide({ info: info('get', 'pods', 'a'), user: { username: 'alice', groups: ['system:authenticated'] } }, new URLSearchParams(), performance.now() + 1000);
  assert.equal(d.flowSchema, 'global-default');
  fc.stop();
});

void test('levels kube cannot use are ignored: broken unions, exempt under another name, hands too big', () => {
  const pl = (name: string, spec: object): KObject => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
  assert.equal(queuingConfig(pl('x', { type: 'Exempt', exempt: {} })), undefined);
  assert.equal(queuingConfig(pl('x', { type: 'Limited' })), undefined);
  assert.equal(queuingConfig(pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue' } } })), undefined);
  assert.equal(queuingConfig(pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5, queueLengthLimit: 1 } } } })), undefined);
  assert.deepEqual(queuingConfig(pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } })), { queues: 0, handSize: 0, queueLengthLimit: 0 });
  assert.deepEqual(queuingConfig(pl('exempt', { type: 'Exempt', exempt: {} })), { queues: -1, handSize: 0, queueLengthLimit: 0 });
});

void test('nominal limits and the fair allocation of borrowed seats', () => {
  assert.deepEqual(nominalLimits(600, 20, 245, 50, undefined), { nominalCL: 49, minCL: 24, maxCL: 649 });
  assert.deepEqual(nominalLimits(600, 20, 245, 50, 10), { nominalCL: 49, minCL: 24, maxCL: 54 });
  // 100 seats; demand 80 vs 20 with room to borrow: proportional to demand.
  const a = allocate(100, [{ lowerBound: 10, upperBound: 100, target: 80 }, { lowerBound: 10, upperBound: 100, target: 20 }]);
  assert.ok(Math.abs(a[0]! - 80) < 1e-6 && Math.abs(a[1]! - 20) < 1e-6, a.join(','));
  // Bounds win over proportion.
  const b = allocate(100, [{ lowerBound: 10, upperBound: 30, target: 80 }, { lowerBound: 10, upperBound: 100, target: 20 }]);
  assert.ok(Math.abs(b[0]! - 30) < 1e-6 && Math.abs(b[1]! - 70) < 1e-6, b.join(','));
  assert.deepEqual(allocate(5, [{ lowerBound: 10, upperBound: 30, target: 80 }]), [10]);
});
