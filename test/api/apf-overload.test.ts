/**
 * Overload, bounded (6 s of load): 16 users re-list 300 ConfigMaps in a loop while one user, fenced into a
 * Reject level of its own, keeps 50 creates in flight, on a sqlite server (writes wait for fsync, so they
 * overlap) with 60 seats (--max-requests-inflight=40, --max-mutating-requests-inflight=20). system:masters and
 * the probes are always answered, the flooder is refused with 429 + Retry-After, every lister keeps getting
 * lists, memory stays bounded and nothing crashes. How fast exempt traffic is answered is a figure of
 * bench/apf.ts (speed targets live in benchmarks), printed here for information.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, runOverload } from '../support/apf-overload.ts';

void test('under overload exempt traffic is answered, the flooder is refused and the listers keep their share', { timeout: 180_000 }, async () => {
  const r = await runOverload({ storage: 'sqlite', objects: 300, listers: 16, floodConcurrency: 50, fenceFlooder: true, durationMs: 6000, maxRequestsInflight: 40, maxMutatingRequestsInflight: 20 });
  const p99 = percentile(r.exemptMs, 99);
  const summary = JSON.stringify({ p99, n: r.exemptMs.length, exempt: r.exemptStatuses, probes: r.probeStatuses, listers: r.listerStatuses, lists: r.listsPerLister, flood: r.floodStatuses, rssMiB: Math.round(r.maxRssBytes / 2 ** 20) });
  assert.ok(r.exemptMs.length >= 2, `too few exempt samples: ${summary}`);
  assert.ok((r.exemptStatuses['200'] ?? 0) > 0 && (r.probeStatuses['200'] ?? 0) > 0, summary);
  assert.deepEqual(Object.keys(r.exemptStatuses), ['200'], summary);
  assert.deepEqual(Object.keys(r.probeStatuses), ['200'], summary);
  assert.ok((r.floodStatuses['429'] ?? 0) > 0, `the flooder was never refused: ${summary}`);
  assert.equal(r.floodRetryAfter, r.floodStatuses['429'], 'every 429 carries Retry-After');
  assert.ok((r.floodStatuses['201'] ?? 0) > 0, `the flooder still gets its share: ${summary}`);
  for (const n of r.listsPerLister) assert.ok(n > 0, `a lister was starved: ${summary}`);
  assert.equal(r.floodStatuses['error'] ?? 0, 0, `connections failed: ${summary}`);
  // Bounded memory: the queues hold at most queues × queueLengthLimit requests, not the whole flood.
  assert.ok(r.maxRssBytes - r.startRssBytes < 1024 * 2 ** 20, `RSS grew by ${((r.maxRssBytes - r.startRssBytes) / 2 ** 20).toFixed(0)} MiB`);
  console.log(`# overload: ${summary}`);
});
