import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { openSqliteStore } from './sqlite-store.ts';
import { restoreSnapshot, saveSnapshot, SnapshotError } from './snapshot.ts';

const root = mkdtempSync(join(tmpdir(), 'keelson-snapshot-'));
after(() => rmSync(root, { recursive: true, force: true }));
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

void it('saves while the store is open and writing, and restores every write acknowledged before the save, with the data dir files', async () => {
  const dir = join(root, 'live');
  const store = await openSqliteStore({ path: join(dir, 'keelson.db'), keyPrefix: '/registry/' });
  mkdirSync(join(dir, 'pki'));
  writeFileSync(join(dir, 'pki', 'ca.key'), 'KEY', { mode: 0o600 });
  writeFileSync(join(dir, 'admin.kubeconfig'), 'kubeconfig');
  const file = join(root, 'live.snap');
  let acked = 0;
  try {
    for (; acked < 20; acked++) assert.ok((await store.create(`/registry/configmaps/ns/k${acked}`, enc(String(acked)))).succeeded);
    // A writer keeps going while the snapshot is taken.
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop && i < 2000; i++) await store.create(`/registry/secrets/ns/s${i}`, enc('x'));
    })();
    const s = saveSnapshot(dir, file);
    stop = true;
    await writer;
    assert.ok(s.keys >= 20 && s.revision >= 20, JSON.stringify(s));
    assert.deepEqual(s.files, ['admin.kubeconfig', 'pki/ca.key']);
  } finally {
    await store.close();
  }
  const restored = join(root, 'restored');
  const r = await restoreSnapshot(file, restored);
  assert.deepEqual(r.files, ['admin.kubeconfig', 'pki/ca.key']);
  assert.equal(readFileSync(join(restored, 'pki', 'ca.key'), 'utf8'), 'KEY');
  assert.equal(statSync(join(restored, 'pki', 'ca.key')).mode & 0o777, 0o600);
  const back = await openSqliteStore({ path: join(restored, 'keelson.db'), keyPrefix: '/registry/' });
  try {
    for (let i = 0; i < acked; i++) assert.equal(dec((await back.get(`/registry/configmaps/ns/k${i}`))!.value), String(i));
    assert.equal(await back.currentRevision(), r.revision);
    assert.deepEqual(await back.checkIntegrity!(), []);
    // The restored store takes writes after its revision.
    const w = await back.create('/registry/configmaps/ns/new', enc('n'));
    assert.ok(w.succeeded && w.kv.modRevision > r.revision);
  } finally {
    await back.close();
  }
});

void it('refusals: missing store, existing file, non-empty or locked target, damaged or foreign files', async () => {
  assert.throws(() => saveSnapshot(join(root, 'nothing'), join(root, 'x.snap')), (e: Error) => e instanceof SnapshotError && /no Keelson store/.test(e.message));
  const dir = join(root, 'src2');
  const store = await openSqliteStore({ path: join(dir, 'keelson.db'), keyPrefix: '/registry/' });
  await store.create('/registry/configmaps/ns/a', enc('a'));
  const file = join(root, 'src2.snap');
  saveSnapshot(dir, file);
  await store.close();
  assert.throws(() => saveSnapshot(dir, file), /already exists \(pass --force/);
  saveSnapshot(dir, file, { force: true });

  const full = join(root, 'full');
  mkdirSync(full);
  writeFileSync(join(full, 'something'), 'x');
  await assert.rejects(restoreSnapshot(file, full), /is not empty \(something\); pass --force/);
  assert.equal(readFileSync(join(full, 'something'), 'utf8'), 'x', 'nothing touched on refusal');
  // A running server on the target holds its lock: even --force is refused.
  const busy = join(root, 'busy');
  const running = await openSqliteStore({ path: join(busy, 'keelson.db'), keyPrefix: '/registry/' });
  try {
    await assert.rejects(restoreSnapshot(file, busy, { force: true }), /another Keelson is using the data directory/);
  } finally {
    await running.close();
  }
  const r = await restoreSnapshot(file, busy, { force: true });
  assert.equal(r.keys, 1);

  const junk = join(root, 'junk.snap');
  writeFileSync(junk, 'not a database at all, just text that is long enough to look like a header'.repeat(20));
  await assert.rejects(restoreSnapshot(junk, join(root, 'r1')), (e: Error) => e instanceof SnapshotError && /junk\.snap is not a Keelson snapshot/.test(e.message));
  const truncated = join(root, 'trunc.snap');
  writeFileSync(truncated, readFileSync(file).subarray(0, 3000));
  await assert.rejects(restoreSnapshot(truncated, join(root, 'r2')), (e: Error) => e instanceof SnapshotError && /trunc\.snap (is damaged|is not a Keelson snapshot)/.test(e.message));
  // A plain store database is not a snapshot.
  await assert.rejects(restoreSnapshot(join(dir, 'keelson.db'), join(root, 'r3')), /not a Keelson snapshot \(no table keelson_snapshot\)/);
  await assert.rejects(restoreSnapshot(join(root, 'absent.snap'), join(root, 'r4')), /absent\.snap does not exist/);
});
