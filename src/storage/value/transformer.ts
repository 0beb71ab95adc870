/**
 * Value transformers (kube-apiserver's storage/value): what turns an object's bytes into the bytes kept in the
 * backend and back. Every provider is a transformer; a resource's providers form a prefix list where the first
 * one encrypts and every one whose prefix matches may decrypt.
 *
 * The authenticated data of a value is its storage key (`/registry/secrets/<ns>/<name>`): AES-GCM binds the
 * ciphertext to it, so a value copied under another key does not decrypt.
 */

export interface FromStorage {
  readonly data: Uint8Array;
  /** Read with a provider other than the one that writes now: a rewrite would re-encrypt it. */
  readonly stale: boolean;
}

export interface Transformer {
  fromStorage(data: Uint8Array, authenticatedData: Uint8Array): FromStorage | Promise<FromStorage>;
  toStorage(data: Uint8Array, authenticatedData: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** A transformer reached when a stored value starts with `prefix` (empty: the identity provider). */
export interface PrefixTransformer {
  readonly prefix: Uint8Array;
  readonly transformer: Transformer;
}

/** A transformer failure: the message is kube's wording, it ends up in the corrupt-object error. */
export class TransformError extends Error {
  override readonly name = 'TransformError';
}

const isPromise = <T>(v: T | Promise<T>): v is Promise<T> => typeof (v as { then?: unknown })?.then === 'function';

function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/**
 * kube's prefixTransformers: writes with the first, reads with the first whose prefix matches and succeeds. An
 * identity entry (empty prefix) that fails is skipped silently; the other failures are reported together.
 */
export class PrefixTransformers implements Transformer {
  constructor(private readonly list: readonly PrefixTransformer[], private readonly noMatch: string) {
    if (list.length === 0) throw new Error('PrefixTransformers needs at least one transformer');
  }

  fromStorage(data: Uint8Array, ad: Uint8Array): FromStorage | Promise<FromStorage> {
    return this.tryFrom(0, data, ad, []);
  }

  private tryFrom(start: number, data: Uint8Array, ad: Uint8Array, errs: string[]): FromStorage | Promise<FromStorage> {
    for (let i = start; i < this.list.length; i++) {
      const { prefix, transformer } = this.list[i]!;
      if (!startsWith(data, prefix)) continue;
      const onOk = (r: FromStorage): FromStorage => ({ data: r.data, stale: r.stale || i !== 0 });
      const onErr = (e: unknown): FromStorage | Promise<FromStorage> => {
        if (prefix.length > 0) errs.push(e instanceof Error ? e.message : String(e));
        return this.tryFrom(i + 1, data, ad, errs);
      };
      let r: FromStorage | Promise<FromStorage>;
      try {
        r = transformer.fromStorage(data.subarray(prefix.length), ad);
      } catch (e) {
        return onErr(e);
      }
      if (isPromise(r)) return r.then(onOk, onErr);
      return onOk(r);
    }
    // kube reduces an aggregate of one error to that error; several are listed as `[a, b]`.
    if (errs.length === 1) throw new TransformError(errs[0]!);
    if (errs.length > 1) throw new TransformError(`[${errs.join(', ')}]`);
    throw new TransformError(this.noMatch);
  }

  toStorage(data: Uint8Array, ad: Uint8Array): Uint8Array | Promise<Uint8Array> {
    const { prefix, transformer } = this.list[0]!;
    const out = transformer.toStorage(data, ad);
    const join = (body: Uint8Array): Uint8Array => {
      const all = new Uint8Array(prefix.length + body.length);
      all.set(prefix, 0);
      all.set(body, prefix.length);
      return all;
    };
    return isPromise(out) ? out.then(join) : join(out);
  }
}

/** The prefix every encrypting provider's values start with. */
export const ENCRYPTED_PREFIX = new TextEncoder().encode('k8s:enc:');

/** kube's identity provider: stores as is, and refuses to hand encrypted bytes out as if they were plaintext. */
export const identityTransformer: Transformer = {
  fromStorage(data) {
    if (startsWith(data, ENCRYPTED_PREFIX)) throw new TransformError('identity transformer tried to read encrypted data');
    return { data, stale: false };
  },
  toStorage(data) {
    return data;
  },
};

export { isPromise, startsWith };
