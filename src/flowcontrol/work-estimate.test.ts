import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestInfo } from '../request/context.ts';
import { estimateWork, ObjectCountTracker, WatchTracker, type EstimatorDeps } from './work-estimate.ts';

const info = (verb: string, resource: string, o: { ns?: string; name?: string; sub?: string } = {}): RequestInfo => ({
  isResourceRequest: true, path: '/api/v1/x', verb, apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: o.ns ?? '', resource,
  subresource: o.sub ?? '', name: o.name ?? '', parts: [],
});
const q = (s = '') => new URLSearchParams(s);
const deps = (stored: number | undefined, watches = 0, watchList = false): EstimatorDeps => ({ objectCount: () => stored, watchCount: () => watches, watchList });
const seats = (e: { initialSeats: number }) => e.initialSeats;

void test('LIST: one seat per 100 objects touched, within [1, level max seats]', () => {
  assert.equal(seats(estimateWork(info('list', 'pods'), q(), 10, deps(5000))), 10, 'from the cache: every stored object, capped');
  assert.equal(seats(estimateWork(info('list', 'pods'), q(), 8, deps(5000))), 8, 'the level caps lower');
  assert.equal(seats(estimateWork(info('list', 'pods'), q(), 10, deps(250))), 3);
  assert.equal(seats(estimateWork(info('list', 'pods'), q(), 10, deps(0))), 1);
  assert.equal(seats(estimateWork(info('list', 'pods'), q(), 10, deps(undefined))), 1, 'unknown count: minimum');
  // Paged from storage (exact revision): twice the limit; with a selector: stored + limit.
  assert.equal(seats(estimateWork(info('list', 'pods'), q('limit=100&resourceVersion=5'), 10, deps(5000))), 2);
  assert.equal(seats(estimateWork(info('list', 'pods'), q('limit=100&continue=abc&labelSelector=a%3Db'), 100, deps(5000))), 10, 'never above 10');
  assert.equal(seats(estimateWork(info('list', 'pods'), q('limit=100&resourceVersionMatch=Exact&resourceVersion=5&labelSelector=a'), 60, deps(5000))), 10);
  assert.equal(seats(estimateWork(info('get', 'pods', { name: 'p' }), q(), 10, deps(5000))), 1);
  assert.equal(seats(estimateWork(info('list', 'pods', { name: 'p' }), q(), 10, deps(5000))), 1, 'a named list (field selector on name) is one object');
});

void test('WATCH: one seat unless WatchList sends initial events', () => {
  assert.equal(seats(estimateWork(info('watch', 'pods'), q('sendInitialEvents=true'), 10, deps(5000))), 1, 'WatchList off (v1.33 default)');
  assert.equal(seats(estimateWork(info('watch', 'pods'), q('sendInitialEvents=true&resourceVersionMatch=NotOlderThan'), 10, deps(5000, 0, true))), 10);
  assert.equal(seats(estimateWork(info('watch', 'pods'), q(), 10, deps(5000, 0, true))), 1);
});

void test('writes: one seat, then one per 10 interested watches for 5 ms each', () => {
  assert.deepEqual(estimateWork(info('create', 'pods', { ns: 'a' }), q(), 10, deps(0, 9)), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
  assert.deepEqual(estimateWork(info('update', 'pods', { ns: 'a' }), q(), 10, deps(0, 25)), { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 });
  // 500 watches: 50 seats of work, spread over the 10 allowed: 25 ms each.
  assert.deepEqual(estimateWork(info('delete', 'pods', { ns: 'a' }), q(), 10, deps(0, 500)), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 25 });
  assert.deepEqual(estimateWork(info('create', 'serviceaccounts', { ns: 'a', sub: 'token' }), q(), 10, deps(0, 500)).finalSeats, 0, 'token requests notify nobody');
});

void test('watch tracker: cluster-wide watches interest every namespace, namespaced ones their own', () => {
  const t = new WatchTracker();
  const forgetAll = t.register(info('watch', 'pods'));
  const forgetA = t.register(info('watch', 'pods', { ns: 'a' }));
  t.register(info('watch', 'pods', { ns: 'b' }));
  assert.equal(t.interested(info('create', 'pods', { ns: 'a' })), 2);
  assert.equal(t.interested(info('create', 'pods', { ns: 'c' })), 1);
  assert.equal(t.interested(info('create', 'configmaps', { ns: 'a' })), 0);
  forgetA();
  forgetA();
  forgetAll();
  assert.equal(t.interested(info('create', 'pods', { ns: 'a' })), 0);
  assert.equal(t.interested(info('create', 'pods', { ns: 'b' })), 1);
});

void test('object counts are learnt in the background and refreshed when stale', async () => {
  let now = 0;
  let calls = 0;
  const t = new ObjectCountTracker(async () => {
    calls++;
    return 100 * calls;
  }, 1000, () => now);
  assert.equal(t.get(info('list', 'pods')), undefined, 'unknown at first');
  await new Promise((r) => setImmediate(r));
  assert.equal(t.get(info('list', 'pods')), 100);
  assert.equal(calls, 1);
  now = 2000;
  assert.equal(t.get(info('list', 'pods')), 100, 'the stale count serves while a refresh runs');
  await new Promise((r) => setImmediate(r));
  assert.equal(t.get(info('list', 'pods')), 200);
});

void test('primed counts are known for the first request, so a first big LIST is not estimated at one seat', async () => {
  const counted: string[] = [];
  const t = new ObjectCountTracker(async (i) => {
    counted.push(i.resource);
    return i.resource === 'configmaps' ? 20_000 : undefined;
  }, 60_000, () => 0);
  await t.prime([info('list', 'configmaps'), info('list', 'pods')]);
  assert.deepEqual(counted.sort(), ['configmaps', 'pods']);
  assert.equal(t.get(info('list', 'configmaps')), 20_000);
  assert.equal(t.get(info('list', 'pods')), undefined, 'a resource the counter cannot count stays unknown');
  const deps: EstimatorDeps = { objectCount: (i) => t.get(i), watchCount: () => 0 };
  assert.equal(estimateWork(info('list', 'configmaps'), new URLSearchParams(), 10, deps).initialSeats, 10);
  assert.equal(counted.length, 2, 'fresh counts are not asked for again');
});
