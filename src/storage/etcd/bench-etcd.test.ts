/** Smoke test of the etcd benchmark's plumbing (tiny windows; the figures themselves are not asserted). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { findEtcdBinary } from '../../../test/support/etcd.ts';
import { runEtcdBench } from './testing/bench-etcd.ts';

void it('runEtcdBench reports ours against the raw etcd3 baseline: creates, range, watch latency', async (t) => {
  if (!findEtcdBinary()) return t.skip('no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)');
  const rows = await runEtcdBench({ phaseMs: 100, rangeKeys: 300, watchWrites: 5 });
  assert.ok(rows);
  const compared = rows.filter((r) => r.ratio !== undefined);
  assert.deepEqual(compared.map((r) => r.name), [
    'etcd: creates/s, 1 serial writer',
    'etcd: creates/s, 64 concurrent writers',
    'etcd: range of 300 keys (1 KiB values), median',
    'etcd: write → watch event latency, median',
  ]);
  for (const r of compared) assert.ok(r.value > 0 && r.baseline! > 0 && r.ratio! > 0, `${r.name}: ${r.value} vs ${r.baseline}`);
  const serial = compared[0]!;
  // value and baseline are rounded for display; the ratio comes from the unrounded rates.
  assert.ok(Math.abs(serial.ratio! - serial.value / serial.baseline!) < 0.05, `ratio ${serial.ratio}`);
});
