import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompactedError, FutureRevisionError, StorageError, StorageUnavailableError, ValueTooLargeError } from '../interface.ts';
import { mapEtcdError } from './errors.ts';
import { progressRequestsSafe } from './watch.ts';

const grpc = (code: number, details: string): Error => Object.assign(new Error(`${code} ${details}`), { code });

void it('maps etcd messages and gRPC codes to the typed storage errors', () => {
  const c = mapEtcdError(grpc(11, 'OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted'), { revision: 3, compactedRevision: 9 });
  assert.ok(c instanceof CompactedError);
  assert.deepEqual([c.requestedRevision, c.compactedRevision], [3, 9]);
  const f = mapEtcdError(grpc(11, 'OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision'), { revision: 99, currentRevision: 5 });
  assert.ok(f instanceof FutureRevisionError);
  assert.deepEqual([f.requestedRevision, f.currentRevision], [99, 5]);
  assert.ok(mapEtcdError(grpc(3, 'INVALID_ARGUMENT: etcdserver: request is too large'), { valueSize: 2e6 }) instanceof ValueTooLargeError);
  assert.ok(mapEtcdError(grpc(14, 'UNAVAILABLE: No connection established')) instanceof StorageUnavailableError);
  assert.ok(mapEtcdError(grpc(4, 'DEADLINE_EXCEEDED: Deadline exceeded')) instanceof StorageUnavailableError);
  assert.ok(mapEtcdError(grpc(2, 'UNKNOWN: etcdserver: leader changed')) instanceof StorageUnavailableError);
  const other = mapEtcdError(grpc(7, 'PERMISSION_DENIED: etcdserver: permission denied'));
  assert.equal(other.constructor, StorageError);
  assert.match(other.message, /permission denied/);
  const typed = new CompactedError(1, 2);
  assert.equal(mapEtcdError(typed), typed);
});

void it('progress requests are used only on etcd versions that answer them safely', () => {
  for (const v of ['3.4.31', '3.4.40', '3.5.13', '3.5.21', '3.6.0', 'v3.6.4']) assert.equal(progressRequestsSafe(v), true, v);
  for (const v of ['3.4.23', '3.4.30', '3.5.12', '3.3.27', '', 'garbage']) assert.equal(progressRequestsSafe(v), false, v);
});
