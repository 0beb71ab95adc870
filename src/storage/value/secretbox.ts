/**
 * kube's secretbox provider: a 24-byte random nonce, then NaCl secretbox (XSalsa20-Poly1305) of the plaintext.
 * No authenticated data.
 */
import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import { TransformError, type FromStorage, type Transformer } from './transformer.ts';

const NONCE = 24;

export class SecretboxTransformer implements Transformer {
  constructor(private readonly key: Uint8Array) {
    if (key.length !== 32) throw new TransformError(`expected key size 32 for secretbox provider, got ${key.length}`);
  }

  fromStorage(data: Uint8Array): FromStorage {
    if (data.length < nacl.secretbox.overheadLength + NONCE) throw new TransformError('the stored data was shorter than the required size');
    const out = nacl.secretbox.open(data.subarray(NONCE), data.subarray(0, NONCE), this.key);
    // kube's wording for any failed open.
    if (!out) throw new TransformError('output array was not large enough for encryption');
    return { data: out, stale: false };
  }

  toStorage(data: Uint8Array): Uint8Array {
    const nonce = new Uint8Array(randomBytes(NONCE));
    const box = nacl.secretbox(data, nonce, this.key);
    const out = new Uint8Array(NONCE + box.length);
    out.set(nonce, 0);
    out.set(box, NONCE);
    return out;
  }
}
