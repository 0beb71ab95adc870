/**
 * kube's AES providers, byte for byte:
 * - aescbc: 16-byte random IV, then AES-CBC of the PKCS#7-padded plaintext (no authenticated data);
 * - aesgcm: 12-byte random nonce, then the GCM ciphertext with its 16-byte tag; the storage key is the
 *   authenticated data;
 * - the KMS v2 seed mode (HKDF_SHA256_XNONCE_AES_GCM_SEED): 32 random bytes of "info", then aesgcm with the key
 *   HKDF-Expand(SHA-256, seed, info) (expand only, no extract step).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { TransformError, type FromStorage, type Transformer } from './transformer.ts';

const BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;
/** Size of the KMS v2 seed, the HKDF info and the derived key. */
export const SEED_SIZE = 32;

function aesAlgorithm<M extends 'cbc' | 'gcm'>(mode: M, key: Uint8Array): `aes-${128 | 192 | 256}-${M}` {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) throw new TransformError(`crypto/aes: invalid key size ${key.length}`);
  return `aes-${(key.length * 8) as 128 | 192 | 256}-${mode}`;
}

export class AesCbcTransformer implements Transformer {
  private readonly alg: `aes-${128 | 192 | 256}-cbc`;
  constructor(private readonly key: Uint8Array) {
    this.alg = aesAlgorithm('cbc', key);
  }

  fromStorage(data: Uint8Array): FromStorage {
    if (data.length < BLOCK) throw new TransformError('the stored data was shorter than the required size');
    const body = data.subarray(BLOCK);
    if (body.length % BLOCK !== 0) throw new TransformError('the stored data is not a multiple of the block size');
    const d = createDecipheriv(this.alg, this.key, data.subarray(0, BLOCK));
    d.setAutoPadding(false); // checked below with kube's messages
    const out = Buffer.concat([d.update(body), d.final()]);
    const pad = out.length > 0 ? out[out.length - 1]! : 0;
    if (pad === 0 || pad > out.length) throw new TransformError('invalid PKCS7 data (empty or not padded)');
    for (let i = out.length - pad; i < out.length; i++) {
      if (out[i] !== pad) throw new TransformError('invalid padding on input');
    }
    return { data: out.subarray(0, out.length - pad), stale: false };
  }

  toStorage(data: Uint8Array): Uint8Array {
    const iv = randomBytes(BLOCK);
    const c = createCipheriv(this.alg, this.key, iv); // PKCS#7, as kube pads
    return Buffer.concat([iv, c.update(data), c.final()]);
  }
}

export class AesGcmTransformer implements Transformer {
  private readonly alg: `aes-${128 | 192 | 256}-gcm`;
  constructor(private readonly key: Uint8Array) {
    this.alg = aesAlgorithm('gcm', key);
  }

  fromStorage(data: Uint8Array, ad: Uint8Array): FromStorage {
    if (data.length < GCM_NONCE) throw new TransformError('the stored data was shorter than the required size');
    const sealed = data.subarray(GCM_NONCE);
    if (sealed.length < GCM_TAG) throw new TransformError('cipher: message authentication failed');
    const d = createDecipheriv(this.alg, this.key, data.subarray(0, GCM_NONCE), { authTagLength: GCM_TAG });
    d.setAAD(ad);
    d.setAuthTag(sealed.subarray(sealed.length - GCM_TAG));
    try {
      return { data: Buffer.concat([d.update(sealed.subarray(0, sealed.length - GCM_TAG)), d.final()]), stale: false };
    } catch {
      throw new TransformError('cipher: message authentication failed');
    }
  }

  toStorage(data: Uint8Array, ad: Uint8Array): Uint8Array {
    const nonce = randomBytes(GCM_NONCE);
    const c = createCipheriv(this.alg, this.key, nonce, { authTagLength: GCM_TAG });
    c.setAAD(ad);
    return Buffer.concat([nonce, c.update(data), c.final(), c.getAuthTag()]);
  }
}

/** HKDF-Expand with SHA-256 for one 32-byte block: HMAC(seed, info || 0x01). */
export function hkdfExpandKey(seed: Uint8Array, info: Uint8Array): Buffer {
  return createHmac('sha256', seed).update(info).update(Uint8Array.of(1)).digest();
}

/** KMS v2's seed mode: a fresh derived key per write, cached per info on reads. */
export class ExtendedNonceGcmTransformer implements Transformer {
  private readonly derived = new Map<string, AesGcmTransformer>();
  constructor(private readonly seed: Uint8Array) {
    if (seed.length < SEED_SIZE) throw new TransformError(`invalid seed length ${seed.length} used for key generation`);
  }

  fromStorage(data: Uint8Array, ad: Uint8Array): FromStorage {
    if (data.length < SEED_SIZE) throw new TransformError('the stored data was shorter than the required size');
    const info = data.subarray(0, SEED_SIZE);
    const id = Buffer.from(info).toString('latin1');
    let t = this.derived.get(id);
    if (!t) {
      t = new AesGcmTransformer(hkdfExpandKey(this.seed, info));
      // Bounded: one entry per distinct write seen; old ones go first.
      if (this.derived.size >= 1024) this.derived.delete(this.derived.keys().next().value!);
      this.derived.set(id, t);
    }
    return t.fromStorage(data.subarray(SEED_SIZE), ad);
  }

  toStorage(data: Uint8Array, ad: Uint8Array): Uint8Array {
    const info = randomBytes(SEED_SIZE);
    const sealed = new AesGcmTransformer(hkdfExpandKey(this.seed, info)).toStorage(data, ad);
    return Buffer.concat([info, sealed]);
  }
}
