import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { MemoryStore } from '../memory/memory-store.ts';
import { openSqliteStore } from '../sqlite/sqlite-store.ts';
import type { Store } from '../interface.ts';
import { copyStore, MigrationError, readAll, resourceOf } from './copy.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A source whose key order differs from its write order, with an update, a delete and binary values. */
async function filledSource(): Promise<Store> {
  const s = new MemoryStore({ keyPrefix: '/registry/' });
  const b = await s.create('/registry/configmaps/default/b', enc('{"b":1}'));
  assert.ok(b.succeeded);
  await s.create('/registry/configmaps/default/a', enc('{"a":1}'));
  const c = await s.create('/registry/namespaces/zz', enc('ns'));
  assert.ok(c.succeeded);
  await s.create('/registry/stable.example.com/crontabs/default/c1', new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0xff, 0x00]));
  await s.create('/registry/events/default/e1', enc('event'), { ttlSeconds: 3600 });
  assert.ok((await s.update('/registry/configmaps/default/b', enc('{"b":2}'), { expectedModRevision: b.kv.modRevision })).succeeded);
  await s.delete('/registry/namespaces/zz', { expectedModRevision: c.kv.modRevision });
  return s;
}

void it('copies every key and byte, in the source modRevision order', async () => {
  const source = await filledSource();
  const target = new MemoryStore({ keyPrefix: '/registry/' });
  const s = await copyStore(source, target);
  assert.equal(s.keys, 4);
  assert.equal(s.replaced, 0);
  assert.deepEqual([...s.perResource].sort(), [['configmaps', 2], ['events', 1], ['stable.example.com/crontabs', 1]]);
  const src = (await readAll(source, '/registry/')).items;
  const dst = (await readAll(target, '/registry/')).items;
  assert.deepEqual(dst.map((kv) => [kv.key, [...kv.value]]), src.map((kv) => [kv.key, [...kv.value]]));
  const order = (items: typeof src): string[] => [...items].sort((x, y) => x.modRevision - y.modRevision).map((kv) => kv.key);
  assert.deepEqual(order(dst), order(src));
  assert.deepEqual(order(src), ['/registry/configmaps/default/a', '/registry/stable.example.com/crontabs/default/c1', '/registry/events/default/e1', '/registry/configmaps/default/b']);
  await source.close();
  await target.close();
});

void it('leaves the replicas\' runtime state (master leases, trust records) behind, in the source and the target', async () => {
  const source = new MemoryStore({ keyPrefix: '/registry/' });
  await source.create('/registry/configmaps/default/a', enc('{}'));
  await source.create('/registry/masterleases/192.0.2.1', enc('{}'), { ttlSeconds: 15 });
  await source.create('/registry/apiserver-replicas/u1', enc('{}'), { ttlSeconds: 15 });
  const target = new MemoryStore({ keyPrefix: '/registry/' });
  // A target that a replica touched once is still empty of objects.
  await target.create('/registry/masterleases/192.0.2.2', enc('{}'), { ttlSeconds: 15 });
  const s = await copyStore(source, target);
  assert.equal(s.keys, 1);
  assert.deepEqual((await readAll(target, '/registry/')).items.map((kv) => kv.key).sort(), ['/registry/configmaps/default/a', '/registry/masterleases/192.0.2.2']);
  await source.close();
  await target.close();
});

void it('refuses a non-empty target unless forced; force replaces its contents', async () => {
  const source = await filledSource();
  const target = new MemoryStore({ keyPrefix: '/registry/' });
  await target.create('/registry/secrets/default/old', enc('old'));
  await assert.rejects(copyStore(source, target), (e: Error) => e instanceof MigrationError && /not empty: it holds 1 keys .*secrets\/default\/old.*--force/.test(e.message));
  assert.equal((await target.range('/registry/')).count, 1, 'nothing written on refusal');
  const s = await copyStore(source, target, { force: true });
  assert.equal(s.replaced, 1);
  assert.deepEqual((await readAll(target, '/registry/')).items.map((kv) => kv.key), (await readAll(source, '/registry/')).items.map((kv) => kv.key));
  await source.close();
  await target.close();
});

void it('pipelined writes into the sqlite store keep the source order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-copy-'));
  const source = new MemoryStore({ keyPrefix: '/registry/' });
  // Written in reverse key order, so key order and revision order disagree.
  for (let i = 299; i >= 0; i--) await source.create(`/registry/configmaps/ns/k${String(i).padStart(3, '0')}`, enc(String(i)));
  const target = await openSqliteStore({ path: join(dir, 'keelson.db'), keyPrefix: '/registry/' });
  try {
    await copyStore(source, target, { inFlight: 64 });
    const dst = (await readAll(target, '/registry/')).items.sort((x, y) => x.modRevision - y.modRevision);
    assert.equal(dst.length, 300);
    assert.deepEqual(dst.map((kv) => new TextDecoder().decode(kv.value)), Array.from({ length: 300 }, (_, i) => String(299 - i)));
  } finally {
    await target.close();
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

void it('names resources as the summary prints them', () => {
  assert.equal(resourceOf('/registry/pods/ns/p'), 'pods');
  assert.equal(resourceOf('/registry/namespaces/x'), 'namespaces');
  assert.equal(resourceOf('/registry/apiextensions.k8s.io/customresourcedefinitions/x.y.z'), 'apiextensions.k8s.io/customresourcedefinitions');
});
