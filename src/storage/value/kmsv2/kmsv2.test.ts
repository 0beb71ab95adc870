import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { startFakeKmsPlugin } from '../../../../test/support/kms-plugin.ts';
import { hkdfExpandKey } from '../aes.ts';
import { AES_GCM_KEY, cacheKey, grpcKmsService, HKDF_SHA256_XNONCE_AES_GCM_SEED, KmsV2Transformer, type KmsService } from './envelope.ts';
import { decodeEncryptedObject, encodeEncryptedObject } from './proto.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-kms-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const te = new TextEncoder();
const ad = te.encode('/registry/secrets/ns/s');

/** A plugin in-process: the DEK source "ciphertext" is the plaintext reversed. */
function localService(keyID = 'k1'): KmsService & { calls: { encrypt: number; decrypt: number }; keyID: string } {
  const svc = {
    keyID, calls: { encrypt: 0, decrypt: 0 },
    status: async () => ({ version: 'v2', healthz: 'ok', keyID: svc.keyID }),
    encrypt: async (_uid: string, p: Uint8Array) => { svc.calls.encrypt++; return { ciphertext: Uint8Array.from(p).reverse(), keyID: svc.keyID, annotations: new Map<string, Uint8Array>() }; },
    decrypt: async (_uid: string, r: { ciphertext: Uint8Array }) => { svc.calls.decrypt++; return Uint8Array.from(r.ciphertext).reverse(); },
    close: () => {},
  };
  return svc;
}

void test('EncryptedObject protobuf: field numbers and wire types as kube writes them, round trip', () => {
  const o = { encryptedData: Uint8Array.of(1, 2, 3), keyID: 'k', encryptedDEKSource: Uint8Array.of(9), annotations: new Map([['a.example.com', Uint8Array.of(7)]]), encryptedDEKSourceType: 1 };
  const b = encodeEncryptedObject(o);
  assert.deepEqual([...b], [0x0a, 3, 1, 2, 3, 0x12, 1, 0x6b, 0x1a, 1, 9, 0x22, 18, 0x0a, 13, ...te.encode('a.example.com'), 0x12, 1, 7, 0x28, 1]);
  assert.deepEqual(decodeEncryptedObject(b), o);
});

void test('known answer: a value kube wrote with a plain DEK (AES_GCM_KEY) and one with a seed both read', async () => {
  const svc = localService();
  const t = new KmsV2Transformer({ name: 'p', service: svc });
  await t.start();
  const plain = te.encode('{"kind":"Secret"}');
  // AES_GCM_KEY: encryptedData = nonce + GCM(dek, AD = storage key)
  const dek = randomBytes(32);
  const nonce = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', dek, nonce);
  c.setAAD(ad);
  const sealed = Buffer.concat([nonce, c.update(plain), c.final(), c.getAuthTag()]);
  const v1 = encodeEncryptedObject({ encryptedData: sealed, keyID: 'k0', encryptedDEKSource: Uint8Array.from(dek).reverse(), annotations: new Map(), encryptedDEKSourceType: AES_GCM_KEY });
  const r1 = await t.fromStorage(v1, ad);
  assert.deepEqual(Buffer.from(r1.data), Buffer.from(plain));
  assert.equal(r1.stale, true, 'another key ID and the old DEK mode: stale');
  // Seed: encryptedData = info + nonce + GCM(HKDF-Expand(seed, info))
  const seed = randomBytes(32);
  const info = randomBytes(32);
  const c2 = createCipheriv('aes-256-gcm', hkdfExpandKey(seed, info), nonce);
  c2.setAAD(ad);
  const v2 = encodeEncryptedObject({ encryptedData: Buffer.concat([info, nonce, c2.update(plain), c2.final(), c2.getAuthTag()]), keyID: 'k1', encryptedDEKSource: Uint8Array.from(seed).reverse(), annotations: new Map(), encryptedDEKSourceType: HKDF_SHA256_XNONCE_AES_GCM_SEED });
  const r2 = await t.fromStorage(v2, ad);
  assert.deepEqual(Buffer.from(r2.data), Buffer.from(plain));
  assert.equal(r2.stale, false);
  const decrypts = svc.calls.decrypt;
  await t.fromStorage(v2, ad);
  assert.equal(svc.calls.decrypt, decrypts, 'the decrypted DEK source is cached');
  t.close();
});

void test('write seed: one Encrypt for many writes, renewed on a key ID change, writes refused once expired', async () => {
  const svc = localService();
  let now = 1_000_000;
  const t = new KmsV2Transformer({ name: 'p', service: svc, now: () => now, writeTtlMs: 1000 });
  await t.start();
  const a = await t.toStorage(te.encode('a'), ad);
  await t.toStorage(te.encode('b'), ad);
  assert.equal(svc.calls.encrypt, 1);
  assert.equal(decodeEncryptedObject(a).keyID, 'k1');
  svc.keyID = 'k2';
  await t.probe();
  assert.equal(svc.calls.encrypt, 2);
  assert.equal(decodeEncryptedObject(await t.toStorage(te.encode('c'), ad)).keyID, 'k2');
  assert.equal((await t.fromStorage(a, ad)).stale, true);
  now += 5000;
  await assert.rejects(t.toStorage(te.encode('d'), ad), /encryptedDEKSource with keyID hash "sha256:[0-9a-f]{64}" expired at/);
  t.close();
  assert.notEqual(cacheKey(1, Uint8Array.of(1), 'k', new Map()), cacheKey(0, Uint8Array.of(1), 'k', new Map()));
});

void test('gRPC over a unix socket against a plugin: Status, Encrypt, Decrypt; an absent plugin is Unavailable', async () => {
  const plugin = await startFakeKmsPlugin(path.join(dir, 'p.sock'), 'remote-1');
  const svc = grpcKmsService(plugin.endpoint, 3000);
  try {
    assert.deepEqual(await svc.status(), { version: 'v2', healthz: 'ok', keyID: 'remote-1' });
    const enc = await svc.encrypt('uid', Uint8Array.of(1, 2, 3));
    assert.equal(enc.keyID, 'remote-1');
    assert.deepEqual([...await svc.decrypt('uid', { ciphertext: enc.ciphertext, keyID: enc.keyID, annotations: enc.annotations })], [1, 2, 3]);
    await assert.rejects(svc.decrypt('uid', { ciphertext: Uint8Array.of(1), keyID: 'x', annotations: new Map() }), /rpc error: code = Internal/);
  } finally {
    svc.close();
    await plugin.stop();
  }
  const absent = grpcKmsService(`unix://${path.join(dir, 'nobody.sock')}`, 1000);
  await assert.rejects(absent.status(), /rpc error: code = Unavailable/);
  absent.close();
  const t = new KmsV2Transformer({ name: 'gone', service: grpcKmsService(`unix://${path.join(dir, 'nobody.sock')}`, 500) });
  await t.start();
  assert.match(t.health()!, /failed to perform status section of the healthz check for KMS Provider gone/);
  await assert.rejects(t.toStorage(te.encode('x'), ad), /got unexpected nil transformer/);
  t.close();
});
