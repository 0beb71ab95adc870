/** CBOR encoding as kube's serializer does it (see cbor-codec.ts for the rules). */
import { CborByteString, CborRaw, SELF_DESCRIBED_CBOR } from './cbor-types.ts';

class Writer {
  buf = Buffer.allocUnsafe(256);
  len = 0;
  ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }
  head(major: number, n: number): void {
    const m = major << 5;
    if (n < 24) this.byte(m | n);
    else if (n < 0x100) {
      this.ensure(2);
      this.buf[this.len++] = m | 24;
      this.buf[this.len++] = n;
    } else if (n < 0x10000) {
      this.ensure(3);
      this.buf[this.len++] = m | 25;
      this.buf.writeUInt16BE(n, this.len);
      this.len += 2;
    } else if (n < 0x100000000) {
      this.ensure(5);
      this.buf[this.len++] = m | 26;
      this.buf.writeUInt32BE(n, this.len);
      this.len += 4;
    } else {
      this.ensure(9);
      this.buf[this.len++] = m | 27;
      this.buf.writeBigUInt64BE(BigInt(n), this.len);
      this.len += 8;
    }
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.byteLength);
    this.buf.set(b, this.len);
    this.len += b.byteLength;
  }
  text(s: string): void {
    const n = Buffer.byteLength(s);
    this.head(3, n);
    this.ensure(n);
    this.len += this.buf.write(s, this.len, 'utf8');
  }
  result(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

const f32 = new Float32Array(1);

/** Exact float16 bits for `v`, or -1 when float16 cannot hold it exactly. */
function float16Bits(v: number): number {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  if (e > 15) return -1;
  if (e >= -14) {
    const m = a / 2 ** e - 1;
    const frac = m * 1024;
    if (!Number.isInteger(frac)) return -1;
    return sign | ((e + 15) << 10) | frac;
  }
  const sub = a / 2 ** -24;
  if (!Number.isInteger(sub) || sub >= 1024) return -1;
  return sign | sub;
}

function writeFloat(w: Writer, v: number): void {
  if (Number.isNaN(v)) {
    w.byte(0xf9);
    w.byte(0x7e);
    w.byte(0x00);
    return;
  }
  if (!Number.isFinite(v)) {
    w.bytes(Buffer.from([0xf9, v > 0 ? 0x7c : 0xfc, 0x00]));
    return;
  }
  const h = float16Bits(v);
  if (h >= 0) {
    w.bytes(Buffer.from([0xf9, h >> 8, h & 0xff]));
    return;
  }
  f32[0] = v;
  if (f32[0] === v) {
    w.ensure(5);
    w.buf[w.len++] = 0xfa;
    w.buf.writeFloatBE(v, w.len);
    w.len += 4;
    return;
  }
  w.ensure(9);
  w.buf[w.len++] = 0xfb;
  w.buf.writeDoubleBE(v, w.len);
  w.len += 8;
}

function encodedKey(k: string): Buffer {
  const w = new Writer();
  w.text(k);
  return Buffer.from(w.result());
}

/** Encoded key bytes, memoized: objects of one kind share their field names. */
const keyCache = new Map<string, Buffer>();
function keyBytes(k: string): Buffer {
  let b = keyCache.get(k);
  if (!b) {
    b = encodedKey(k);
    if (keyCache.size < 50_000) keyCache.set(k, b);
  }
  return b;
}

function writeValue(w: Writer, v: unknown, depth: number): void {
  if (depth > 10_000) throw new Error('cbor: exceeded max nested level');
  if (v === null || v === undefined) return w.byte(0xf6);
  switch (typeof v) {
    case 'boolean': return w.byte(v ? 0xf5 : 0xf4);
    case 'string': return w.text(v);
    case 'number':
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) return v >= 0 ? w.head(0, v) : w.head(1, -1 - v);
      if (Object.is(v, -0)) return w.head(0, 0);
      return writeFloat(w, v);
    case 'bigint': {
      const big = v;
      if (big >= 0n) {
        w.ensure(9);
        w.buf[w.len++] = 0x1b;
        w.buf.writeBigUInt64BE(big, w.len);
      } else {
        w.ensure(9);
        w.buf[w.len++] = 0x3b;
        w.buf.writeBigUInt64BE(-1n - big, w.len);
      }
      w.len += 8;
      return;
    }
    default: break;
  }
  if (v instanceof Uint8Array) {
    w.head(2, v.byteLength);
    return w.bytes(v);
  }
  if (v instanceof CborRaw) return w.bytes(v.encoded);
  if (v instanceof CborByteString) {
    w.head(2, v.bytes.byteLength);
    return w.bytes(v.bytes);
  }
  if (Array.isArray(v)) {
    w.head(4, v.length);
    for (const item of v) writeValue(w, item, depth + 1);
    return;
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && typeof x !== 'function');
    const keyed = entries.map(([k, x]) => ({ kb: keyBytes(k), x }));
    keyed.sort((a, b) => Buffer.compare(a.kb, b.kb));
    w.head(5, keyed.length);
    for (const e of keyed) {
      w.bytes(e.kb);
      writeValue(w, e.x, depth + 1);
    }
    return;
  }
  throw new Error(`cbor: unsupported value of type ${typeof v}`);
}

/** One CBOR data item, without the self-described tag. */
export function encodeCborItem(value: unknown): Buffer {
  const w = new Writer();
  writeValue(w, value, 0);
  return Buffer.from(w.result());
}

/** One CBOR data item enclosed in tag 55799, as kube's serializer writes every object. */
export function encodeCborTagged(value: unknown): Buffer {
  const w = new Writer();
  w.bytes(SELF_DESCRIBED_CBOR);
  writeValue(w, value, 0);
  return Buffer.from(w.result());
}
