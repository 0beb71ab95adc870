/** CBOR decoding with kube's restrictions and fxamacker/cbor's error texts (see cbor-codec.ts for the rules). */
import { CborByteString, CborDecodeError } from './cbor-types.ts';

export const MAX_NESTED_LEVELS = 64;
export const MAX_ARRAY_ELEMENTS = 1024;
export const MAX_MAP_PAIRS = 1024;

const MAX_INT64 = 2n ** 63n - 1n;
const TYPE_NAMES = ['positive integer', 'negative integer', 'byte string', 'UTF-8 text string', 'array', 'map', 'tag', 'primitives'];
const utf8 = new TextDecoder('utf-8', { fatal: true });

class Malformed extends Error {}

class Reader {
  pos = 0;
  /** The first invalid-content error (duplicate key, NaN, …); malformed data still wins over it. */
  invalid: CborDecodeError | undefined;
  tags = 0;
  constructor(readonly data: Uint8Array) {}

  need(n: number): void {
    if (this.pos + n > this.data.byteLength) throw new Malformed('unexpected EOF');
  }
  u8(): number {
    this.need(1);
    return this.data[this.pos++] as number;
  }
  /** The argument of a head; -1 for indefinite length (additional info 31). */
  arg(ai: number, major: number): number | bigint {
    if (ai < 24) return ai;
    const dv = new DataView(this.data.buffer, this.data.byteOffset, this.data.byteLength);
    switch (ai) {
      case 24: return this.u8();
      case 25: { this.need(2); const v = dv.getUint16(this.pos); this.pos += 2; return v; }
      case 26: { this.need(4); const v = dv.getUint32(this.pos); this.pos += 4; return v; }
      case 27: {
        this.need(8);
        const v = dv.getBigUint64(this.pos);
        this.pos += 8;
        return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
      }
      case 31:
        if (major === 0 || major === 1 || major === 6) throw new Malformed(`cbor: invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
        return -1;
      default: throw new Malformed(`cbor: invalid additional information ${ai} for type ${TYPE_NAMES[major]}`);
    }
  }
  setInvalid(msg: string, topLevel: boolean): void {
    this.invalid ??= new CborDecodeError(msg, topLevel);
  }
  length(v: number | bigint): number {
    if (typeof v === 'bigint' || v > this.data.byteLength) throw new Malformed('unexpected EOF');
    return v;
  }
  chunkedString(major: number): Uint8Array {
    const parts: Uint8Array[] = [];
    for (;;) {
      const ib = this.u8();
      if (ib === 0xff) break;
      if (ib >> 5 !== major) throw new Malformed(`cbor: wrong element type ${TYPE_NAMES[ib >> 5]} for indefinite-length ${TYPE_NAMES[major]}`);
      const n = this.arg(ib & 0x1f, major);
      if (n === -1) throw new Malformed(`cbor: indefinite-length ${TYPE_NAMES[major]} chunk is not definite-length`);
      const len = this.length(n);
      this.need(len);
      parts.push(this.data.subarray(this.pos, this.pos + len));
      this.pos += len;
    }
    return Buffer.concat(parts);
  }

  item(depth: number): unknown {
    if (depth > MAX_NESTED_LEVELS) throw new Malformed(`cbor: exceeded max nested level ${MAX_NESTED_LEVELS}`);
    const ib = this.u8();
    const major = ib >> 5;
    const ai = ib & 0x1f;
    if (major === 7) return this.simple(ai, depth);
    const n = this.arg(ai, major);
    switch (major) {
      case 0:
        if (typeof n === 'bigint') {
          if (n > MAX_INT64) this.setInvalid(`cbor: cannot unmarshal positive integer into Go value of type int64 (${n} overflows Go's int64)`, false);
          return Number(n);
        }
        return n;
      case 1: {
        if (typeof n === 'bigint') {
          if (n > MAX_INT64) this.setInvalid(`cbor: cannot unmarshal negative integer into Go value of type int64 (-1-${n} overflows Go's int64)`, false);
          return -1 - Number(n);
        }
        return -1 - n;
      }
      case 2: {
        if (n === -1) return new CborByteString(this.chunkedString(2));
        const len = this.length(n);
        this.need(len);
        const b = this.data.subarray(this.pos, this.pos + len);
        this.pos += len;
        return new CborByteString(b);
      }
      case 3: {
        let raw: Uint8Array;
        if (n === -1) raw = this.chunkedString(3);
        else {
          const len = this.length(n);
          this.need(len);
          raw = this.data.subarray(this.pos, this.pos + len);
          this.pos += len;
        }
        try {
          return utf8.decode(raw);
        } catch {
          this.setInvalid('cbor: invalid UTF-8 string', false);
          return Buffer.from(raw).toString('utf8');
        }
      }
      case 4: return this.array(n, depth);
      case 5: return this.map(n, depth);
      default:
        // Tags: the content stands for itself (kube's UnrecognizedTagContentToAny; 55799 is only a marker).
        // The content keeps the tag's depth (a tagged top-level map is still the top level).
        if (++this.tags > MAX_NESTED_LEVELS) throw new Malformed(`cbor: exceeded max nested level ${MAX_NESTED_LEVELS}`);
        return this.item(depth);
    }
  }

  simple(ai: number, depth: number): unknown {
    switch (ai) {
      case 20: return false;
      case 21: return true;
      case 22: case 23: return null;
      case 25: case 26: case 27: {
        const size = ai === 25 ? 2 : ai === 26 ? 4 : 8;
        this.need(size);
        const buf = Buffer.from(this.data.subarray(this.pos, this.pos + size));
        this.pos += size;
        const v = size === 2 ? half(buf.readUInt16BE(0)) : size === 4 ? buf.readFloatBE(0) : buf.readDoubleBE(0);
        if (Number.isNaN(v)) this.setInvalid('cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN', depth === 0);
        else if (!Number.isFinite(v)) this.setInvalid('cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity', depth === 0);
        return v;
      }
      case 24: {
        const v = this.u8();
        if (v < 32) throw new Malformed(`cbor: invalid simple value ${v} for type primitives`);
        this.setInvalid(`cbor: cannot unmarshal primitives into Go value of type interface {}`, depth === 0);
        return null;
      }
      case 28: case 29: case 30: throw new Malformed(`cbor: invalid additional information ${ai} for type primitives`);
      case 31: throw new Malformed('cbor: unexpected "break" code');
      default:
        this.setInvalid(`cbor: cannot unmarshal primitives into Go value of type interface {}`, depth === 0);
        return null;
    }
  }

  array(n: number | bigint, depth: number): unknown[] {
    const out: unknown[] = [];
    if (n === -1) {
      for (;;) {
        this.need(1);
        if (this.data[this.pos] === 0xff) {
          this.pos++;
          break;
        }
        out.push(this.item(depth + 1));
      }
    } else {
      const len = this.length(n);
      if (len > MAX_ARRAY_ELEMENTS) throw new Malformed(`cbor: exceeded max number of elements ${MAX_ARRAY_ELEMENTS} for CBOR array`);
      for (let i = 0; i < len; i++) out.push(this.item(depth + 1));
    }
    if (out.length > MAX_ARRAY_ELEMENTS) throw new Malformed(`cbor: exceeded max number of elements ${MAX_ARRAY_ELEMENTS} for CBOR array`);
    return out;
  }

  map(n: number | bigint, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    let index = 0;
    const entry = () => {
      const keyStart = this.pos;
      const key = this.item(depth + 1);
      let k: string;
      if (typeof key === 'string') k = key;
      else if (key instanceof CborByteString) k = Buffer.from(key.bytes).toString('utf8');
      else {
        const t = TYPE_NAMES[(this.data[keyStart] as number) >> 5] ?? 'primitives';
        this.setInvalid(`cbor: cannot unmarshal ${t} into Go value of type string`, depth === 0);
        k = String(key);
      }
      const value = this.item(depth + 1);
      if (seen.has(k)) this.setInvalid(`cbor: found duplicate map key "${k}" at map element index ${index}`, depth === 0);
      seen.add(k);
      if (!Object.hasOwn(out, k)) Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
      index++;
    };
    if (n === -1) {
      for (;;) {
        this.need(1);
        if (this.data[this.pos] === 0xff) {
          this.pos++;
          break;
        }
        entry();
        if (index > MAX_MAP_PAIRS) throw new Malformed(`cbor: exceeded max number of key-value pairs ${MAX_MAP_PAIRS} for CBOR map`);
      }
    } else {
      const len = this.length(n);
      if (len > MAX_MAP_PAIRS) throw new Malformed(`cbor: exceeded max number of key-value pairs ${MAX_MAP_PAIRS} for CBOR map`);
      for (let i = 0; i < len; i++) entry();
    }
    return out;
  }
}

/** IEEE 754 half precision to a number. */
function half(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const frac = bits & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** Decodes exactly one data item (a leading tag 55799 is allowed and skipped). */
export function decodeCbor(data: Uint8Array): unknown {
  if (data.byteLength === 0) throw new CborDecodeError('EOF', true);
  const r = new Reader(data);
  let value: unknown;
  try {
    value = r.item(0);
  } catch (e) {
    if (e instanceof Malformed) throw new CborDecodeError(e.message, true);
    throw e;
  }
  if (r.pos < data.byteLength) {
    throw new CborDecodeError(`cbor: ${data.byteLength - r.pos} bytes of extraneous data starting at index ${r.pos}`, true);
  }
  if (r.invalid) throw r.invalid;
  return value;
}

/** Splits a CBOR sequence (RFC 8742) into its items, decoded. For tests and clients of watch streams. */
export function decodeCborSequence(data: Uint8Array): unknown[] {
  const out: unknown[] = [];
  let off = 0;
  while (off < data.byteLength) {
    const r = new Reader(data.subarray(off));
    try {
      out.push(r.item(0));
    } catch (e) {
      if (e instanceof Malformed) throw new CborDecodeError(e.message, true);
      throw e;
    }
    if (r.invalid) throw r.invalid;
    off += r.pos;
  }
  return out;
}
