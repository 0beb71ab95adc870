import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import nacl from 'tweetnacl';
import { AesCbcTransformer, AesGcmTransformer, ExtendedNonceGcmTransformer, hkdfExpandKey } from './aes.ts';
import { SecretboxTransformer } from './secretbox.ts';
import { identityTransformer, PrefixTransformers, TransformError } from './transformer.ts';

const te = new TextEncoder();
const ad = te.encode('/registry/secrets/default/s1');
const plain = te.encode('{"kind":"Secret","apiVersion":"v1","data":{"password":"aHVudGVyMg=="}}');
const key32 = Buffer.alloc(32, 7);

void test('aescbc: known answer built from kube documented layout (IV, then PKCS#7 AES-CBC) decrypts', () => {
  const iv = Buffer.alloc(16, 3);
  const c = createCipheriv('aes-256-cbc', key32, iv);
  const stored = Buffer.concat([iv, c.update(plain), c.final()]);
  assert.deepEqual(Buffer.from(new AesCbcTransformer(key32).fromStorage(stored).data), Buffer.from(plain));
});

void test('aescbc: round trip, random IV, padding always present, kube error texts', () => {
  const t = new AesCbcTransformer(key32);
  const a = t.toStorage(plain);
  const b = t.toStorage(plain);
  assert.notDeepEqual(a, b);
  assert.equal(a.length, 16 + Math.ceil((plain.length + 1) / 16) * 16);
  assert.deepEqual(Buffer.from(t.fromStorage(a).data), Buffer.from(plain));
  const sixteen = te.encode('0123456789abcdef');
  assert.equal(t.toStorage(sixteen).length, 48, 'a full block of padding after a block-sized input');
  assert.throws(() => t.fromStorage(a.subarray(0, 8)), /the stored data was shorter than the required size/);
  assert.throws(() => t.fromStorage(a.subarray(0, 20)), /the stored data is not a multiple of the block size/);
  assert.throws(() => new AesCbcTransformer(Buffer.alloc(32, 9)).fromStorage(a), /invalid (PKCS7 data|padding on input)/);
});

void test('aesgcm: known answer (nonce, ciphertext, tag; storage key as authenticated data) and binding to the key', () => {
  const nonce = Buffer.alloc(12, 5);
  const c = createCipheriv('aes-128-gcm', key32.subarray(0, 16), nonce);
  c.setAAD(ad);
  const stored = Buffer.concat([nonce, c.update(plain), c.final(), c.getAuthTag()]);
  const t = new AesGcmTransformer(key32.subarray(0, 16));
  assert.deepEqual(Buffer.from(t.fromStorage(stored, ad).data), Buffer.from(plain));
  assert.throws(() => t.fromStorage(stored, te.encode('/registry/secrets/default/other')), /cipher: message authentication failed/);
  const mine = t.toStorage(plain, ad);
  assert.equal(mine.length, 12 + plain.length + 16);
  assert.deepEqual(Buffer.from(t.fromStorage(mine, ad).data), Buffer.from(plain));
});

void test('KMS v2 seed mode: info (32 bytes) + aesgcm under HKDF-Expand(seed, info)', () => {
  const seed = randomBytes(32);
  const info = Buffer.alloc(32, 1);
  const nonce = Buffer.alloc(12, 2);
  const c = createCipheriv('aes-256-gcm', hkdfExpandKey(seed, info), nonce);
  c.setAAD(ad);
  const stored = Buffer.concat([info, nonce, c.update(plain), c.final(), c.getAuthTag()]);
  const t = new ExtendedNonceGcmTransformer(seed);
  assert.deepEqual(Buffer.from(t.fromStorage(stored, ad).data), Buffer.from(plain));
  assert.deepEqual(Buffer.from(t.fromStorage(t.toStorage(plain, ad), ad).data), Buffer.from(plain));
  // RFC 5869 test case 1's expand step (PRK, info) → OKM's first 32 bytes.
  const prk = Buffer.from('077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5', 'hex');
  const okm = hkdfExpandKey(prk, Buffer.from('f0f1f2f3f4f5f6f7f8f9', 'hex'));
  assert.equal(okm.toString('hex'), '3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf');
});

void test('secretbox: known answer from NaCl (nonce, then box) and round trip', () => {
  const nonce = new Uint8Array(24).fill(4);
  const stored = Buffer.concat([nonce, nacl.secretbox(plain, nonce, key32)]);
  const t = new SecretboxTransformer(key32);
  assert.deepEqual(Buffer.from(t.fromStorage(stored).data), Buffer.from(plain));
  const mine = t.toStorage(plain);
  assert.equal(mine.length, 24 + 16 + plain.length);
  assert.deepEqual(Buffer.from(t.fromStorage(mine).data), Buffer.from(plain));
  mine[30] = mine[30]! ^ 1;
  assert.throws(() => t.fromStorage(mine), /output array was not large enough for encryption/);
  assert.throws(() => new SecretboxTransformer(Buffer.alloc(16)), /expected key size 32 for secretbox provider, got 16/);
});

void test('prefix list: first writes, any matching reads, stale when not the first, identity refuses encrypted data', () => {
  const cbc = (k: number) => ({ prefix: te.encode('k8s:enc:aescbc:v1:'), transformer: new PrefixTransformers([{ prefix: te.encode(`key${k}:`), transformer: new AesCbcTransformer(Buffer.alloc(32, k)) }], 'no matching key was found for the provided AES transformer') });
  const identity = { prefix: new Uint8Array(0), transformer: identityTransformer };
  const encFirst = new PrefixTransformers([cbc(1), identity], 'no matching prefix found');
  const stored = encFirst.toStorage(plain, ad) as Uint8Array;
  assert.ok(Buffer.from(stored).toString('latin1').startsWith('k8s:enc:aescbc:v1:key1:'));
  assert.ok(!Buffer.from(stored).includes(Buffer.from('aHVudGVyMg==')));
  const r = encFirst.fromStorage(stored, ad) as { data: Uint8Array; stale: boolean };
  assert.deepEqual(Buffer.from(r.data), Buffer.from(plain));
  assert.equal(r.stale, false);
  // identity first: plaintext written, old encrypted data still read (stale)
  const idFirst = new PrefixTransformers([identity, cbc(1)], 'no matching prefix found');
  assert.deepEqual(idFirst.toStorage(plain, ad), plain);
  const old = idFirst.fromStorage(stored, ad) as { data: Uint8Array; stale: boolean };
  assert.deepEqual(Buffer.from(old.data), Buffer.from(plain));
  assert.equal(old.stale, true);
  // the key is gone: kube's message
  const other = new PrefixTransformers([cbc(2)], 'no matching prefix found');
  assert.throws(() => other.fromStorage(stored, ad), (e: Error) => e instanceof TransformError && e.message === 'no matching key was found for the provided AES transformer');
  assert.throws(() => identityTransformer.fromStorage(stored, ad), /identity transformer tried to read encrypted data/);
  assert.throws(() => other.fromStorage(plain, ad), /no matching prefix found/);
});
