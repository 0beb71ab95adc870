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

void test('cell families print exactly what the prom-client families print for the same observations', async () => {
  const a = new MetricsRegistry({ currentVersion: v133 });
  const b = new MetricsRegistry({ currentVersion: v133 });
  const labelNames = ['code', 'verb'] as const;
  const buckets = [0.005, 0.025, 0.1, 1];
  const pc = a.counter({ name: 'r_total', help: 'R.', stabilityLevel: 'STABLE', labelNames });
  const ph = a.histogram({ name: 'r_seconds', help: 'S.', labelNames, buckets });
  const cc = b.counterVec({ name: 'r_total', help: 'R.', stabilityLevel: 'STABLE', labelNames });
  const ch = b.histogramVec({ name: 'r_seconds', help: 'S.', labelNames, buckets });
  const seen: [string, string, number][] = [['200', 'GET', 0.003], ['200', 'GET', 0.2], ['404', 'GET', 0.025], ['201', 'CREATE', 7], ['200', 'LIST', 0.1], ['200', 'GET', 0.0251]];
  for (const [code, verb, v] of seen) {
    pc.inc({ code, verb });
    ph.observe({ code, verb }, v);
    cc.cell({ code, verb }).inc();
    ch.observe({ code, verb }, v);
  }
  pc.inc({ code: 'a"b\\c\nd', verb: 'X' }, 2.5);
  cc.inc({ code: 'a"b\\c\nd', verb: 'X' }, 2.5);
  const want = await a.render();
  assert.match(want, /r_seconds_bucket\{code="200",verb="GET",le="0.025"\} 1/);
  assert.equal(await b.render(), want);
});

void test('a cell family rejects what prom-client rejects and can be hidden', async () => {
  const r = new MetricsRegistry({ currentVersion: v133 });
  const c = r.counterVec({ name: 'x_total', help: 'X.', labelNames: ['a'] });
  assert.throws(() => c.inc({ a: 'v' }, -1), RangeError);
  assert.throws(() => c.inc({} as { a: string }), TypeError);
  assert.throws(() => r.histogramVec({ name: 'h', help: 'H.', labelNames: ['a'], buckets: [1] }).observe({ a: 'v' }, NaN), RangeError);
  const old = r.histogramVec({ name: 'old_seconds', help: 'Old.', labelNames: ['a'], buckets: [1], deprecatedVersion: '1.30.0' });
  old.observe({ a: 'v' }, 0.5);
  assert.doesNotMatch(await r.render(), /old_seconds/);
  assert.deepEqual(r.hidden, ['old_seconds']);
});
