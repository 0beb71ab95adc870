/**
 * etcd compaction during long watches (issue 15, item 4), two Keelson processes on a 3-member etcd cluster
 * with `--watch-cache=false`, so watches are served by the shared etcd watch (`storage/cacher/shared-watch.ts`).
 * A watch held on replica 1 across the compaction keeps delivering every write made on replica 0. A client
 * resuming from a compacted revision older than replica 1's shared-stream buffer (which starts when replica 1
 * starts; newer revisions are replayed from it even after compaction, as kube's watch cache does) gets etcd's
 * answer, 410 Expired; it re-lists, watches from the list's resourceVersion, and has seen every write once.
 * Skips (printing why) when no etcd binary is installed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHaCluster, type HaCluster } from '../support/ha-cluster.ts';
import { haRequest, haWatch } from '../support/ha-client.ts';

let cluster: HaCluster | undefined;
let skip: string | false = false;

before(async () => {
  cluster = await startHaCluster({ replicas: 2, extraArgs: ['--authorization-mode=AlwaysAllow', '--watch-cache=false'] });
  if (!cluster) {
    skip = 'no etcd binary (install etcd-server or set KEELSON_ETCD_BIN)';
    process.stderr.write(`skipping HA compaction test: ${skip}\n`);
  }
});
after(async () => {
  await cluster?.stop();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const base = '/api/v1/namespaces/default/configmaps';

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

void test('compaction: a long watch continues without a gap; resuming from a compacted rv gets 410, re-lists, misses nothing', async (t) => {
  if (skip) return t.skip(skip);
  const c = cluster!;
  const written: string[] = [];
  const write = async (name: string): Promise<string> => {
    const r = await haRequest(c.replicaCreds(0), 'POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
    assert.equal(r.status, 201, r.text);
    written.push(name);
    return JSON.parse(r.text).metadata.resourceVersion as string;
  };
  const ours = (names: string[]): string[] => names.filter((n) => /^[abcd]-/.test(n));

  const rv0 = JSON.parse((await haRequest(c.replicaCreds(1), 'GET', base)).text).metadata.resourceVersion as string;
  const long = haWatch(c.replicaCreds(1), `${base}?watch=1&resourceVersion=${rv0}`);
  assert.equal(await long.status, 200);
  for (let i = 0; i < 5; i++) await write(`a-${i}`);
  // The resume point of a client that disconnects here.
  const oldRv = JSON.parse((await haRequest(c.replicaCreds(1), 'GET', `${base}/a-4`)).text).metadata.resourceVersion as string;
  let last = '';
  for (let i = 0; i < 5; i++) last = await write(`b-${i}`);

  // Compact etcd up to the last write (through any member's gRPC gateway).
  const comp = await fetch(`${c.etcd.endpoints[0]}/v3/kv/compaction`, { method: 'POST', body: JSON.stringify({ revision: last, physical: true }) });
  assert.equal(comp.status, 200, await comp.text());

  for (let i = 0; i < 3; i++) await write(`c-${i}`);
  await until('the long watch to see every write', () => ours(long.events.map((e) => e.object.metadata.name)).length >= written.length, 15_000);
  assert.deepEqual(ours(long.events.map((e) => e.object.metadata.name)), written, 'the long watch delivers every write in order across the compaction');
  long.close();

  // A client resuming from before the compaction. Replica 1 replays `oldRv` from its buffer, compacted or not:
  const replay = haWatch(c.replicaCreds(1), `${base}?watch=1&resourceVersion=${oldRv}`);
  assert.equal(await replay.status, 200);
  await until('the replay', () => replay.events.length > 0, 10_000);
  replay.close();
  assert.equal(replay.events[0]!.object.metadata.name, 'b-0');
  // revision 2 (replica 0's first bootstrap write) predates replica 1's buffer, so etcd answers for it.
  const stale = haWatch(c.replicaCreds(1), `${base}?watch=1&resourceVersion=2`);
  const status = await stale.status;
  if (status === 200) {
    await until('the 410 event', () => stale.events.length > 0, 10_000);
    const e = stale.events[0]!;
    assert.equal(e.type, 'ERROR');
    assert.equal((e.object as { code?: number }).code, 410);
    assert.equal((e.object as { reason?: string }).reason, 'Expired');
  } else {
    assert.equal(status, 410);
  }
  stale.close();

  // Re-list, then watch from the list's resourceVersion: list + events = every write, once.
  const list = JSON.parse((await haRequest(c.creds, 'GET', base)).text) as { metadata: { resourceVersion: string }; items: { metadata: { name: string } }[] };
  const listed = ours(list.items.map((o) => o.metadata.name));
  const resumed = haWatch(c.creds, `${base}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  assert.equal(await resumed.status, 200);
  for (let i = 0; i < 3; i++) await write(`d-${i}`);
  await until('the resumed watch', () => ours(resumed.events.map((e) => e.object.metadata.name)).length >= 3, 15_000);
  resumed.close();
  const seen = [...listed, ...ours(resumed.events.map((e) => e.object.metadata.name))];
  assert.deepEqual([...seen].sort(), [...written].sort(), 'no gap and no duplicate after the re-list');
});
