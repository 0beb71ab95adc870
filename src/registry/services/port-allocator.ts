/**
 * Node port allocation from `--service-node-port-range`, as kube's portallocator: a bitmap persisted as one
 * RangeAllocation under `/registry/ranges/servicenodeports`, changed only by guarded (compare-and-swap) writes,
 * so two API servers or two concurrent creates can never take the same port.
 *
 * Invariant: a set bit means a Service owns (or is being created with) that port.
 */
import type { Store } from '../../storage/interface.ts';
import type { PortRange } from './cidr.ts';
import { portErrors } from './errors.ts';

export const NODE_PORTS_KEY = '/registry/ranges/servicenodeports';

interface Snapshot { bits: Uint8Array; rev: number | undefined }

export class PortAllocator {
  constructor(private readonly opts: { store: Store; range: PortRange; key?: string; random?: () => number }) {}

  get rangeText(): string { return this.opts.range.text; }
  private get key(): string { return this.opts.key ?? NODE_PORTS_KEY; }

  private async read(): Promise<Snapshot> {
    const kv = await this.opts.store.get(this.key);
    const bits = new Uint8Array(Math.ceil(this.opts.range.size / 8));
    if (!kv) return { bits, rev: undefined };
    const obj = JSON.parse(Buffer.from(kv.value).toString('utf8')) as { range?: string; data?: string };
    // A range changed by a restart with another flag value: keep the ports that still fit (repair re-marks the rest).
    const data = Buffer.from(obj.data ?? '', 'base64');
    if (obj.range === this.opts.range.text) bits.set(data.subarray(0, bits.length));
    return { bits, rev: kv.modRevision };
  }

  /** Apply `change` to the bitmap with a guarded write, retrying when another writer got there first. */
  private async modify<T>(change: (bits: Uint8Array) => T): Promise<T> {
    for (;;) {
      const snap = await this.read();
      const result = change(snap.bits);
      const value = Buffer.from(JSON.stringify({
        apiVersion: 'v1', kind: 'RangeAllocation', metadata: { creationTimestamp: null }, range: this.opts.range.text,
        data: Buffer.from(snap.bits).toString('base64'),
      }));
      const r = snap.rev === undefined ? await this.opts.store.create(this.key, value) : await this.opts.store.update(this.key, value, { expectedModRevision: snap.rev });
      if (r.succeeded) return result;
    }
  }

  private offset(port: number): number {
    const off = port - this.opts.range.base;
    if (!Number.isInteger(port) || off < 0 || off >= this.opts.range.size) throw portErrors.range(this.opts.range.text);
    return off;
  }

  /** Whether `port` is taken (no write; dry-run checks). Throws when it is out of range. */
  async has(port: number): Promise<boolean> {
    const off = this.offset(port);
    return isSet((await this.read()).bits, off);
  }

  /** Take a specific port: 422-worthy errors when out of range or taken. */
  async allocate(port: number): Promise<void> {
    const off = this.offset(port);
    await this.modify((bits) => {
      if (isSet(bits, off)) throw portErrors.allocated();
      setBit(bits, off, true);
    });
  }

  /** Take a free port, starting at a random offset (as kube's random scan). */
  async allocateNext(): Promise<number> {
    const { size, base } = this.opts.range;
    const start = Math.floor((this.opts.random ?? Math.random)() * size);
    return this.modify((bits) => {
      for (let i = 0; i < size; i++) {
        const off = (start + i) % size;
        if (!isSet(bits, off)) {
          setBit(bits, off, true);
          return base + off;
        }
      }
      throw portErrors.full();
    });
  }

  async release(port: number): Promise<void> {
    const off = port - this.opts.range.base;
    if (off < 0 || off >= this.opts.range.size) return;
    await this.modify((bits) => setBit(bits, off, false));
  }

  /** Repair: the bitmap becomes exactly the given set of ports (those in range). */
  async reset(used: Iterable<number>): Promise<void> {
    const offs = [...used].map((p) => p - this.opts.range.base).filter((o) => o >= 0 && o < this.opts.range.size);
    await this.modify((bits) => {
      bits.fill(0);
      for (const o of offs) setBit(bits, o, true);
    });
  }
}

function isSet(bits: Uint8Array, off: number): boolean {
  return (bits[off >> 3]! & (1 << (off & 7))) !== 0;
}

function setBit(bits: Uint8Array, off: number, on: boolean): void {
  if (on) bits[off >> 3]! |= 1 << (off & 7);
  else bits[off >> 3]! &= ~(1 << (off & 7));
}
