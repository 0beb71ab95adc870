/**
 * Key and value translation between the Store contract and etcd's wire types.
 *
 * Keys are UTF-8 strings on our side and bytes on etcd's. Two layouts:
 *
 * - Mounted (the API server's: the store has a `keyPrefix` such as `/registry/`): the key space under
 *   `keyPrefix` is mounted at the etcd prefix (kube-apiserver's `--etcd-prefix`), as kube's etcd3 store joins
 *   `<etcd-prefix>/<resource>/...`. Our `/registry/configmaps/default/x` is etcd's
 *   `/registry/configmaps/default/x` with the default prefix and `/p/configmaps/default/x` with `/p`, so kube
 *   and Keelson read each other's data as-is. Keys outside `keyPrefix` cannot be written (the store refuses
 *   them), so they cannot exist in etcd: their reads find nothing and their scans are empty.
 * - Plain (no `keyPrefix`, the library's generic use): the prefix is prepended to every key unchanged.
 *
 * Both keep key order, so every range scan and watch over our keys is one contiguous etcd range.
 * Revisions arrive as decimal strings (the client decodes int64 as strings); they stay far below 2^53, so
 * `Number` is exact.
 */
import type { IKeyValue } from 'etcd3';
import type { KeyValue } from '../interface.ts';

const EMPTY = new Uint8Array(0);

/** kube's `path.Join("/", prefix)` without the trailing slash: `''`, `/registry`, `/a/b`. */
export function normalizeEtcdPrefix(prefix: string): string {
  const parts = prefix.split('/').filter((p) => p !== '' && p !== '.');
  return parts.length ? `/${parts.join('/')}` : '';
}

export class KeyCodec {
  /** Plain: the bytes put in front of every key. Mounted: the etcd directory our `mount` is mapped onto. */
  private readonly prefixBytes: Buffer;
  /** Mounted layout: our key prefix that maps onto `prefixBytes` + `/` (e.g. `/registry/`); '' = plain. */
  private readonly mount: string;
  /** Mounted layout: the first etcd key of the mounted space and the key just after it. */
  private readonly spaceStart: Buffer;
  private readonly spaceEnd: Buffer;

  /**
   * `prefix` is the etcd prefix; `keyPrefix` (ending in `/`, or '') the store's key prefix, which selects
   * the mounted layout.
   */
  constructor(readonly prefix: string, keyPrefix = '') {
    this.mount = keyPrefix.endsWith('/') ? keyPrefix : keyPrefix ? `${keyPrefix}/` : '';
    this.prefixBytes = Buffer.from(this.mount ? normalizeEtcdPrefix(prefix) : prefix, 'utf8');
    this.spaceStart = Buffer.concat([this.prefixBytes, Buffer.from('/')]);
    this.spaceEnd = bytesPrefixEnd(this.spaceStart);
  }

  /** The etcd directory this store's keys live in, as bytes (plain: the raw prefix). */
  get root(): Buffer {
    return this.prefixBytes;
  }

  /** Our key → etcd key bytes. Mounted: a key outside the mount has no etcd key (see `isStorable`). */
  encode(key: string): Buffer {
    if (!this.mount) {
      return this.prefixBytes.length ? Buffer.concat([this.prefixBytes, Buffer.from(key, 'utf8')]) : Buffer.from(key, 'utf8');
    }
    if (!key.startsWith(this.mount)) return this.bound(Buffer.from(key, 'utf8'));
    return Buffer.concat([this.spaceStart, Buffer.from(key.slice(this.mount.length), 'utf8')]);
  }

  /** Whether `key` can exist in etcd under this layout (always in the plain layout). */
  isStorable(key: string): boolean {
    return !this.mount || key.startsWith(this.mount);
  }

  /** etcd key bytes → our key. Keys outside the prefix cannot appear: every range is bounded by it. */
  decode(raw: Buffer): string {
    if (!this.mount) {
      const body = this.prefixBytes.length > 0 ? raw.subarray(this.prefixBytes.length) : raw;
      return body.toString('utf8');
    }
    return this.mount + raw.subarray(this.spaceStart.length).toString('utf8');
  }

  /** The etcd key a scan over `prefix` (our key space) starts at. */
  scanStart(prefix: string): Buffer {
    if (!this.mount) return this.encode(prefix);
    return this.bound(Buffer.from(prefix, 'utf8'));
  }

  /**
   * The exclusive end of a prefix scan over `prefix` (our key space), as etcd computes it: the encoded
   * prefix with its last byte below 0xff incremented. An empty scan prefix with no store prefix means
   * "every key" (etcd's `\0` range end). Mounted: the end of our scan mapped into etcd's order, so a scan
   * outside the mount starts and ends at the same key (empty).
   */
  rangeEnd(prefix: string): Buffer {
    if (!this.mount) return bytesPrefixEnd(this.encode(prefix));
    const end = bytesPrefixEnd(Buffer.from(prefix, 'utf8'));
    // [0] is "no end": everything after the prefix, i.e. the end of the mounted space.
    return end.length === 1 && end[0] === 0 ? this.spaceEnd : this.bound(end);
  }

  /**
   * Mounted layout: our key (or scan bound) → the etcd key at the same place in key order. Keys under the
   * mount map one to one; anything before the mount maps to its start, anything after to its end.
   */
  private bound(ours: Buffer): Buffer {
    const mount = Buffer.from(this.mount, 'utf8');
    if (ours.length >= mount.length && ours.subarray(0, mount.length).equals(mount)) {
      return Buffer.concat([this.spaceStart, ours.subarray(mount.length)]);
    }
    return Buffer.compare(ours, mount) < 0 ? this.spaceStart : this.spaceEnd;
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
