/**
 * Key and value translation between the Store contract and etcd's wire types.
 *
 * Keys are UTF-8 strings on our side and bytes on etcd's. The store's `prefix` (kube-apiserver's
 * `--etcd-prefix`) is prepended on the way in and stripped on the way out, so two stores with different
 * prefixes never see each other's keys. Revisions arrive as decimal strings (the client decodes int64 as
 * strings); they stay far below 2^53, so `Number` is exact.
 */
import type { IKeyValue } from 'etcd3';
import type { KeyValue } from '../interface.ts';

const EMPTY = new Uint8Array(0);

export class KeyCodec {
  private readonly prefixBytes: Buffer;

  constructor(readonly prefix: string) {
    this.prefixBytes = Buffer.from(prefix, 'utf8');
  }

  /** Our key → etcd key bytes. */
  encode(key: string): Buffer {
    return this.prefix ? Buffer.concat([this.prefixBytes, Buffer.from(key, 'utf8')]) : Buffer.from(key, 'utf8');
  }

  /** etcd key bytes → our key. Keys outside the prefix cannot appear: every range is bounded by it. */
  decode(raw: Buffer): string {
    const body = this.prefixBytes.length > 0 ? raw.subarray(this.prefixBytes.length) : raw;
    return body.toString('utf8');
  }

  /**
   * The exclusive end of a prefix scan over `prefix` (our key space), as etcd computes it: the encoded
   * prefix with its last byte below 0xff incremented. An empty scan prefix with no store prefix means
   * "every key" (etcd's `\0` range end).
   */
  rangeEnd(prefix: string): Buffer {
    return bytesPrefixEnd(this.encode(prefix));
  }

  kv(raw: IKeyValue, opts: { keyOnly?: boolean } = {}): KeyValue {
    return {
      key: this.decode(raw.key),
      // A copy: the decoded Buffer is a view into the whole gRPC message (a 10k-item range is one message),
      // and a cache holding one small value must not keep that message alive.
      value: opts.keyOnly || !raw.value || raw.value.byteLength === 0 ? EMPTY : Uint8Array.prototype.slice.call(raw.value),
      createRevision: Number(raw.create_revision),
      modRevision: Number(raw.mod_revision),
      version: Number(raw.version),
    };
  }
}

/** etcd's prefix-end rule on bytes. */
export function bytesPrefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

export const EMPTY_VALUE = EMPTY;
