import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry, exponentialBuckets } from './registry.ts';

const v133 = { major: 1, minor: 33 };

void test('HELP carries the stability level, and the deprecation note once deprecated', async () => {
  const r = new MetricsRegistry({ currentVersion: v133 });
  r.counter({ name: 'a_total', help: 'As.', stabilityLevel: 'STABLE' }).inc();
  r.counter({ name: 'b_total', help: 'Bs.' }).inc();
  r.counter({ name: 'c_total', help: 'Cs.', stabilityLevel: 'BETA', deprecatedVersion: '1.33.0' }).inc();
  r.counter({ name: 'd_total', help: 'Ds.', deprecatedVersion: '1.34.0' }).inc();
  const text = await r.render();
  assert.match(text, /^# HELP a_total \[STABLE\] As\.$/m);
  assert.match(text, /^# HELP b_total \[ALPHA\] Bs\.$/m);
  assert.match(text, /^# HELP c_total \[BETA\] \(Deprecated since 1\.33\.0\) Cs\.$/m);
  // Deprecated in a future version: not yet marked.
  assert.match(text, /^# HELP d_total \[ALPHA\] Ds\.$/m);
});

void test('a family deprecated before the running minor is hidden unless --show-hidden-metrics-for-version is set', async () => {
  const hidden = new MetricsRegistry({ currentVersion: v133 });
  const h = hidden.counter({ name: 'old_total', help: 'Old.', deprecatedVersion: '1.32.0' });
  h.inc(); // still usable by its caller
  assert.doesNotMatch(await hidden.render(), /old_total/);
  assert.deepEqual(hidden.hidden, ['old_total']);

  const shown = new MetricsRegistry({ currentVersion: v133, showHiddenForVersion: '1.32' });
  shown.counter({ name: 'old_total', help: 'Old.', deprecatedVersion: '1.32.0' }).inc();
  const text = await shown.render();
  assert.match(text, /^# HELP old_total \[ALPHA\] \(Deprecated since 1\.32\.0\) Old\.$/m);
  assert.match(text, /^old_total 1$/m);
});

void test('families sorted by name, series by labels, le last, empty vectors left out', async () => {
  const r = new MetricsRegistry({ currentVersion: v133 });
  const h = r.histogram({ name: 'z_seconds', help: 'Z.', labelNames: ['verb'], buckets: [0.1, 1] });
  h.observe({ verb: 'PUT' }, 0.5);
  h.observe({ verb: 'GET' }, 0.05);
  r.counter({ name: 'a_total', help: 'A.', labelNames: ['x'] });
  r.gauge({ name: 'm_gauge', help: 'M.' }).set(2);
  const text = await r.render();
  assert.equal(text, [
    '# HELP m_gauge [ALPHA] M.',
    '# TYPE m_gauge gauge',
    'm_gauge 2',
    '# HELP z_seconds [ALPHA] Z.',
    '# TYPE z_seconds histogram',
    'z_seconds_bucket{verb="GET",le="0.1"} 1',
    'z_seconds_bucket{verb="GET",le="1"} 1',
    'z_seconds_bucket{verb="GET",le="+Inf"} 1',
    'z_seconds_sum{verb="GET"} 0.05',
    'z_seconds_count{verb="GET"} 1',
    'z_seconds_bucket{verb="PUT",le="0.1"} 0',
    'z_seconds_bucket{verb="PUT",le="1"} 1',
    'z_seconds_bucket{verb="PUT",le="+Inf"} 1',
    'z_seconds_sum{verb="PUT"} 0.5',
    'z_seconds_count{verb="PUT"} 1',
    '',
  ].join('\n'));
});

void test('exponentialBuckets as Prometheus computes them', () => {
  assert.deepEqual(exponentialBuckets(1000, 10, 3), [1000, 10000, 100000]);
  assert.deepEqual(exponentialBuckets(1024, 2, 8).at(-1), 131072);
});
