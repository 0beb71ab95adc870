/**
 * Moving data between stores: kube's etcd key layout read as-is, `keelson migrate` from the embedded store to
 * etcd and back with every object served again with the same fields, `keelson snapshot` taken while a server
 * writes and restored, and the commands' refusals. The etcd parts skip (printing why) without an etcd binary.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { main } from '../../src/cli/main.ts';
import { encodeProtobuf } from '../../src/api/protobuf/codec.ts';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { startTestServer } from '../support/server.ts';
import { configMap, namespace } from './helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'keelson-migrate-'));
const etcd: EtcdProcess | undefined = await startEtcd();
const skip = etcd ? undefined : 'no etcd binary found (install Debian etcd-server or set KEELSON_ETCD_BIN)';
if (skip) console.log(`# SKIP etcd parts: ${skip}`);
after(async () => {
  await etcd?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), untilSignal: () => new Promise(() => {}) });
  return { code, out, err };
}

/** What a re-listed object must keep: everything but the resourceVersion the new store assigns. */
function comparable(o: any): any {
  const { resourceVersion: _rv, ...metadata } = o.metadata;
  return { ...o, metadata };
}

const NS = '/api/v1/namespaces/mig/configmaps';

async function fill(dataDir: string): Promise<any[]> {
  const srv = await startTestServer({ storage: 'sqlite', dataDir, controllers: false });
  try {
    assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace('mig') })).status, 201);
    for (let i = 0; i < 6; i++) assert.equal((await srv.request('POST', NS, { body: configMap(`c${i}`, { i: String(i), utf: 'ä€' }, { labels: { n: String(i) } }) })).status, 201);
    // An update, so resourceVersion order differs from creation order.
    const c0 = (await srv.request('GET', `${NS}/c0`)).json();
    assert.equal((await srv.request('PUT', `${NS}/c0`, { body: { ...c0, data: { i: 'changed' } } })).status, 200);
    return (await srv.request('GET', NS)).json().items;
  } finally {
    await srv.stop();
  }
}

const byRv = (items: any[]): string[] => [...items].sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion)).map((o) => o.metadata.name);

test('data written by kube-apiserver in its etcd layout (protobuf value) is served as-is', { skip }, async () => {
  const raw = new Etcd3({ hosts: etcd!.endpoint });
  const prefix = '/kubelayout';
  try {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-kube', namespace: 'default', uid: 'd0f3b1d6-0000-4000-8000-000000000001', creationTimestamp: '2026-01-02T03:04:05Z' }, data: { k: 'v' } };
    await raw.put(`${prefix}/configmaps/default/from-kube`).value(encodeProtobuf(cm));
    const srv = await startTestServer({ storage: 'etcd', etcdServers: [etcd!.endpoint], etcdPrefix: prefix, controllers: false });
    try {
      const got = (await srv.request('GET', '/api/v1/namespaces/default/configmaps/from-kube')).json();
      assert.deepEqual(got.data, { k: 'v' });
      assert.equal(got.metadata.uid, cm.metadata.uid);
      assert.match(got.metadata.resourceVersion, /^\d+$/);
      // And what Keelson writes lands at kube's key, not under a doubled prefix.
      assert.equal((await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('from-keelson', { a: 'b' }) })).status, 201);
      assert.equal(JSON.parse((await raw.get(`${prefix}/configmaps/default/from-keelson`).string())!).data.a, 'b');
      assert.equal(await raw.get(`${prefix}/registry/configmaps/default/from-keelson`).string(), null);
    } finally {
      await srv.stop();
    }
    // The old doubled layout is refused at start, naming the command that moves it.
    await raw.put('/old/registry/configmaps/default/x').value('{}');
    await assert.rejects(
      startTestServer({ storage: 'etcd', etcdServers: [etcd!.endpoint], etcdPrefix: '/old', controllers: false }),
      /old\/registry\/.*keelson migrate --from-etcd-servers .* --from-etcd-prefix \/old\/registry/,
    );
  } finally {
    raw.close();
  }
});

test('migrate: embedded store → etcd → embedded store, every object served with the same fields and order', { skip }, async () => {
  const src = join(root, 'src');
  const before = await fill(src);
  const m1 = await run('migrate', '--from-data-dir', src, '--to-etcd-servers', etcd!.endpoint, '--to-etcd-prefix', '/mig');
  assert.equal(m1.code, 0, m1.err);
  assert.match(m1.out, /configmaps: 6\n/);
  assert.match(m1.out, /Copied \d+ keys .* as of source revision \d+/);
  const onEtcd = await startTestServer({ storage: 'etcd', etcdServers: [etcd!.endpoint], etcdPrefix: '/mig', controllers: false });
  let mid: any[];
  try {
    mid = (await onEtcd.request('GET', NS)).json().items;
  } finally {
    await onEtcd.stop();
  }
  assert.deepEqual(mid.map(comparable), before.map(comparable));
  assert.deepEqual(byRv(mid), byRv(before));

  // A non-empty target is refused, and nothing is written.
  const again = await run('migrate', '--from-data-dir', src, '--to-etcd-servers', etcd!.endpoint, '--to-etcd-prefix', '/mig');
  assert.equal(again.code, 1);
  assert.match(again.err, /^Error: the target is not empty: .*--force/);
  assert.equal((await run('migrate', '--from-data-dir', src, '--to-etcd-servers', etcd!.endpoint, '--to-etcd-prefix', '/mig', '--force')).code, 0);

  const back = join(root, 'back');
  const m2 = await run('migrate', '--from-etcd-servers', etcd!.endpoint, '--from-etcd-prefix', '/mig', '--to-data-dir', back);
  assert.equal(m2.code, 0, m2.err);
  const onSqlite = await startTestServer({ storage: 'sqlite', dataDir: back, controllers: false });
  try {
    const after = (await onSqlite.request('GET', NS)).json().items;
    assert.deepEqual(after.map(comparable), before.map(comparable));
    assert.deepEqual(byRv(after), byRv(before));
  } finally {
    await onSqlite.stop();
  }
});

test('migrate moves the old doubled etcd layout into kube\'s layout in place', { skip }, async () => {
  const raw = new Etcd3({ hosts: etcd!.endpoint });
  try {
    await raw.put('/inplace/registry/namespaces/legacy').value(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'legacy', uid: 'u1', creationTimestamp: '2026-01-02T03:04:05Z' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }));
    const m = await run('migrate', '--from-etcd-servers', etcd!.endpoint, '--from-etcd-prefix', '/inplace/registry', '--to-etcd-servers', etcd!.endpoint, '--to-etcd-prefix', '/inplace');
    assert.equal(m.code, 0, m.err);
    assert.match(m.out, /namespaces: 1\n/);
    assert.equal(JSON.parse((await raw.get('/inplace/namespaces/legacy').string())!).metadata.uid, 'u1');
  } finally {
    raw.close();
  }
});

test('snapshot: saved while a server writes, restored, every write acknowledged before the save is served', async () => {
  const dir = join(root, 'snapsrc');
  const srv = await startTestServer({ storage: 'sqlite', dataDir: dir, controllers: false });
  const file = join(root, 'data.snap');
  const acked: string[] = [];
  let stop = false;
  try {
    assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace('mig') })).status, 201);
    // Two bounded writers keep writing through the save.
    const writers = [0, 1].map(async (w) => {
      for (let i = 0; i < 200 && !stop; i++) {
        const r = await srv.request('POST', NS, { body: configMap(`w${w}-${i}`, { i: String(i) }) });
        if (r.status === 201) acked.push(`w${w}-${i}`);
      }
    });
    while (acked.length < 10) await new Promise((r) => setTimeout(r, 20));
    // migrate reads a data dir only when no server uses it (the store lock).
    const busy = await run('migrate', '--from-data-dir', dir, '--to-data-dir', join(root, 'busy-target'));
    assert.equal(busy.code, 1);
    assert.match(busy.err, /^Error: another Keelson is using the data directory/);
    const ackedBefore = [...acked];
    const saved = await run('snapshot', 'save', file, '--data-dir', dir);
    stop = true;
    await Promise.all(writers);
    assert.equal(saved.code, 0, saved.err);
    assert.match(saved.out, /^Saved .*data\.snap: \d+ keys at revision \d+, \d+ files/);
    const restoredDir = join(root, 'snaprestored');
    const restored = await run('snapshot', 'restore', file, '--data-dir', restoredDir);
    assert.equal(restored.code, 0, restored.err);
    const again = await startTestServer({ storage: 'sqlite', dataDir: restoredDir, controllers: false });
    try {
      const names = new Set((await again.request('GET', NS)).json().items.map((o: any) => o.metadata.name));
      for (const n of ackedBefore) assert.ok(names.has(n), `${n} was acknowledged before the save`);
      // The PKI came along: the restored server serves with the same CA.
      assert.equal(again.caPem, srv.caPem);
    } finally {
      await again.stop();
    }
    // Restoring over it again is refused: the directory is not empty.
    const refused = await run('snapshot', 'restore', file, '--data-dir', restoredDir);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /^Error: .* is not empty .*--force/);
  } finally {
    stop = true;
    await srv.stop();
  }
});

test('bad flags and unreadable inputs: exit 1 with a clear message', async () => {
  const cases: [string[], RegExp][] = [
    [['migrate', '--to-data-dir', join(root, 'x')], /exactly one of --from-data-dir and --from-etcd-servers is required/],
    [['migrate', '--from-data-dir', join(root, 'none'), '--to-data-dir', join(root, 'x')], /no Keelson store in .*none/],
    [['migrate', '--from-data-dir', 'a', '--from-etcd-servers', 'http://127.0.0.1:1', '--to-data-dir', 'b'], /exactly one of --from-data-dir/],
    [['migrate', '--from-data-dir', 'a', '--to-etcd-servers', 'localhost:2379'], /is not an etcd client URL/],
    [['migrate', '--from-data-dir', 'a', '--to-data-dir', 'b', '--bogus'], /Unknown option '--bogus'/],
    [['migrate', '--from-data-dir', 'a', '--from-etcd-prefix', '/p', '--to-data-dir', 'b'], /--from-etcd-prefix applies to --from-etcd-servers only/],
    [['snapshot'], /needs "save" or "restore"/],
    [['snapshot', 'restore', join(root, 'f')], /needs --data-dir/],
    [['snapshot', 'save', join(root, 'f'), '--data-dir', join(root, 'none')], /no Keelson store in/],
  ];
  const junk = join(root, 'junk.snap');
  writeFileSync(junk, 'garbage'.repeat(200));
  cases.push([['snapshot', 'restore', junk, '--data-dir', join(root, 'rj')], /junk\.snap is not a Keelson snapshot/]);
  for (const [argv, want] of cases) {
    const r = await run(...argv);
    assert.equal(r.code, 1, argv.join(' '));
    assert.match(r.err, want, argv.join(' '));
    assert.match(r.err, /^Error: /);
  }
  const help = await run('migrate', '--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /--from-etcd-servers/);
  assert.match((await run('snapshot', '-h')).out, /snapshot restore FILE --data-dir DIR/);
});
