import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryStore } from '../memory/memory-store.ts';
import type { WatchEvent } from '../interface.ts';
import { AesGcmTransformer } from './aes.ts';
import { isStale, TransformingStore, UntransformableValue } from './transforming-store.ts';
import { identityTransformer, PrefixTransformers, type Transformer } from './transformer.ts';

const te = new TextEncoder();
const td = new TextDecoder();
const gcm = (k: number) => ({ prefix: te.encode('k8s:enc:aesgcm:v1:k:'), transformer: new AesGcmTransformer(Buffer.alloc(16, k)) });

/** An async transformer whose reads finish in reverse order of arrival (a slow KMS plugin). */
function slowly(inner: Transformer): Transformer {
  let delay = 30;
  return {
    toStorage: (d, ad) => inner.toStorage(d, ad),
    fromStorage: (d, ad) => new Promise((resolve, reject) => {
      delay = Math.max(0, delay - 10);
      setTimeout(() => { try { resolve(inner.fromStorage(d, ad)); } catch (e) { reject(e instanceof Error ? e : new Error(String(e))); } }, delay);
    }),
  };
}

void test('values are encrypted in the backend, with the storage key bound; reads, txns and ranges decrypt', async () => {
  const backend = new MemoryStore({});
  const t = new PrefixTransformers([gcm(1)], 'no matching prefix found');
  const store = new TransformingStore(backend, (k) => (k.startsWith('/registry/secrets/') ? t : undefined));
  const c = await store.create('/registry/secrets/ns/a', te.encode('{"v":1}'));
  assert.ok(c.succeeded);
  assert.equal(td.decode(c.kv.value), '{"v":1}');
  const raw = await backend.get('/registry/secrets/ns/a');
  assert.ok(td.decode(raw!.value).startsWith('k8s:enc:aesgcm:v1:k:'));
  assert.equal(td.decode((await store.get('/registry/secrets/ns/a'))!.value), '{"v":1}');
  await store.create('/registry/configmaps/ns/b', te.encode('{"plain":true}'));
  assert.equal(td.decode((await backend.get('/registry/configmaps/ns/b'))!.value), '{"plain":true}');
  const failed = await store.create('/registry/secrets/ns/a', te.encode('{"v":2}'));
  assert.ok(!failed.succeeded && td.decode(failed.current!.value) === '{"v":1}');
  const r = await store.range('/registry/');
  assert.deepEqual(r.items.map((i) => td.decode(i.value)), ['{"plain":true}', '{"v":1}']);
  // The same ciphertext under another key does not decrypt (authenticated data = the storage key).
  await backend.create('/registry/secrets/ns/copy', raw!.value);
  const copy = await store.get('/registry/secrets/ns/copy');
  assert.ok(copy!.value instanceof UntransformableValue);
  assert.equal((copy!.value as UntransformableValue).reason, 'cipher: message authentication failed');
  // Encrypted bytes under a resource without a rule: kube's identity check.
  await backend.create('/registry/configmaps/ns/enc', raw!.value);
  assert.equal(((await store.get('/registry/configmaps/ns/enc'))!.value as UntransformableValue).reason, 'identity transformer tried to read encrypted data');
});

void test('data read with a provider that no longer writes is marked stale', async () => {
  const backend = new MemoryStore({});
  const old = new TransformingStore(backend, () => new PrefixTransformers([gcm(1)], 'x'));
  await old.create('/registry/secrets/ns/a', te.encode('{}'));
  const rotated = new TransformingStore(backend, () => new PrefixTransformers([{ prefix: new Uint8Array(0), transformer: identityTransformer }, gcm(1)], 'x'));
  assert.equal(isStale((await rotated.get('/registry/secrets/ns/a'))!.value), true);
  assert.equal(isStale((await old.get('/registry/secrets/ns/a'))!.value), false);
});

void test('watch events are decrypted and delivered in order even when reads finish out of order', async () => {
  const backend = new MemoryStore({});
  const t = new PrefixTransformers([{ prefix: gcm(1).prefix, transformer: slowly(gcm(1).transformer) }], 'x');
  const store = new TransformingStore(backend, () => t);
  const got: WatchEvent[] = [];
  let done!: () => void;
  const all = new Promise<void>((r) => { done = r; });
  const h = store.watch('/registry/secrets/', { fromRevision: await store.currentRevision() }, {
    onEvents: (evs) => { got.push(...evs); if (got.length >= 4) done(); },
    onError: (e) => assert.fail(e),
  });
  const a = await store.create('/registry/secrets/ns/a', te.encode('1'));
  await store.create('/registry/secrets/ns/b', te.encode('2'));
  assert.ok(a.succeeded);
  await store.update('/registry/secrets/ns/a', te.encode('3'), { expectedModRevision: a.revision });
  await store.delete('/registry/secrets/ns/b');
  await all;
  h.dispose();
  assert.deepEqual(got.map((e) => [e.type, e.kv.key, td.decode(e.type === 'delete' ? e.prevKv.value : e.kv.value)]), [
    ['put', '/registry/secrets/ns/a', '1'], ['put', '/registry/secrets/ns/b', '2'], ['put', '/registry/secrets/ns/a', '3'], ['delete', '/registry/secrets/ns/b', '2'],
  ]);
  assert.deepEqual(got.map((e) => e.kv.modRevision), [...got.map((e) => e.kv.modRevision)].sort((x, y) => x - y));
});
