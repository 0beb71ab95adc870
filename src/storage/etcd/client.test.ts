import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GRPCUnavailableError, GRPCInvalidArgumentError } from 'etcd3';
import { HOST_DOWN_MS, isConnectionFailure, MemberBreakers } from './client.ts';

const refused = (): Error => new GRPCUnavailableError('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379');
const noLeader = (): Error => new GRPCUnavailableError('etcdserver: no leader');

void test('only unreachable members count as connection failures, not etcd answering during an election', () => {
  assert.equal(isConnectionFailure(refused()), true);
  assert.equal(isConnectionFailure(noLeader()), false);
  assert.equal(isConnectionFailure(new GRPCUnavailableError('etcdserver: leader changed')), false);
  assert.equal(isConnectionFailure(new GRPCInvalidArgumentError('etcdserver: mvcc: required revision has been compacted')), false);
  assert.equal(isConnectionFailure(new Error('plain')), false);
});

void test('a member that failed to connect is skipped for HOST_DOWN_MS while another member is up', () => {
  let now = 1_000_000;
  const b = new MemberBreakers(['a', 'b', 'c'], () => now);
  b.failed('a', refused());
  assert.equal(b.skipped('a'), true);
  assert.equal(b.skipped('b'), false);
  b.failed('b', noLeader());
  assert.equal(b.skipped('b'), false, 'an election answer does not mark a member down');
  now += HOST_DOWN_MS;
  assert.equal(b.skipped('a'), false, 'tried again after the window');
});

void test('when every member failed recently, none is skipped: calls go out instead of failing on bookkeeping', () => {
  let now = 5_000;
  const b = new MemberBreakers(['a', 'b', 'c'], () => now);
  b.failed('a', refused());
  b.failed('b', refused());
  assert.equal(b.skipped('a'), true);
  b.failed('c', refused());
  assert.deepEqual(['a', 'b', 'c'].map((h) => b.skipped(h)), [false, false, false]);
  now += 1;
  assert.equal(b.skipped('a'), false);
});

void test('the policy refuses a skipped member without calling it, records failures, passes results through', async () => {
  const b = new MemberBreakers(['a', 'b']);
  const pa = b.policy('a') as unknown as { execute<T>(fn: () => Promise<T>): Promise<T> };
  assert.equal(await pa.execute(async () => 42), 42);
  await assert.rejects(pa.execute(() => Promise.reject(refused())), /ECONNREFUSED/);
  let called = false;
  await assert.rejects(pa.execute(async () => { called = true; return 1; }), { name: 'EtcdHostSkippedError' });
  assert.equal(called, false);
});
