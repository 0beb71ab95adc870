/** Smoke test of the etcd benchmark's plumbing (tiny windows; the figures themselves are not asserted). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findEtcdBinary } from '../../../test/support/etcd.ts';
import { runEtcdBench } from './bench-etcd.ts';

void it('runEtcdBench reports ours against the raw etcd3 baseline for serial and 64-concurrent creates', async (t) => {
  if (!findEtcdBinary()) return t.skip('no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)');
  const rows = await runEtcdBench({ phaseMs: 100 });
  assert.ok(rows);
  const ours = rows.filter((r) => r.ratio !== undefined);
  assert.deepEqual(
    ours.map((r) => r.name),
    ['etcd serial creates (keelson etcd backend)', 'etcd 64-concurrent creates (keelson etcd backend)'],
  );
  for (const r of ours) {
    assert.ok(r.value > 0 && r.baseline! > 0, `${r.name}: ${r.value} vs ${r.baseline}`);
    // value and baseline are rounded for display; the ratio comes from the unrounded rates.
    assert.ok(Math.abs(r.ratio! - r.value / r.baseline!) < 0.02, `${r.name}: ratio ${r.ratio}`);
  }
});
