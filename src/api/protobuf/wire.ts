/**
 * Protocol Buffers wire format, the subset Kubernetes uses (proto2, varints, length-delimited, fixed64 for
 * doubles). Kept free of schema knowledge: codec.ts drives it from the catalog's message descriptions.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

export class ProtobufDecodeError extends Error {
  override name = 'ProtobufDecodeError';
}

/** Appends bytes into growing chunks; `finish()` returns one contiguous buffer. */
export class Writer {
  private buf = Buffer.allocUnsafe(256);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** Unsigned varint of a non-negative safe integer. */
  varint(v: number): void {
    this.ensure(10);
    while (v > 0x7f) {
      this.buf[this.pos++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buf[this.pos++] = v;
  }

  /** int32/int64 as Go encodes them: negatives are 10-byte two's complement varints. */
  signedVarint(v: number): void {
    if (v >= 0) return this.varint(v);
    let b = BigInt.asUintN(64, BigInt(v));
    this.ensure(10);
    while (b > 0x7fn) {
      this.buf[this.pos++] = Number(b & 0x7fn) | 0x80;
      b >>= 7n;
    }
    this.buf[this.pos++] = Number(b);
  }

  bytes(b: Uint8Array): void {
    this.varint(b.byteLength);
    this.ensure(b.byteLength);
    this.buf.set(b, this.pos);
    this.pos += b.byteLength;
  }

  raw(b: Uint8Array): void {
    this.ensure(b.byteLength);
    this.buf.set(b, this.pos);
    this.pos += b.byteLength;
  }

  string(s: string): void {
    this.bytes(Buffer.from(s, 'utf8'));
  }

  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

export class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array, readonly end = buf.byteLength) {}

  done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a varint as a (possibly negative, for int64 two's complement) JS number. */
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufDecodeError('truncated varint');
      const b = this.buf[this.pos++]!;
      if (i === 9 || (i >= 7 && mul * (b & 0x7f) >= 2 ** 53)) return this.bigVarintFrom(i, result, b);
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new ProtobufDecodeError('varint too long');
  }

  /** Slow path for varints beyond 2^53 (negative int64/int32 values). */
  private bigVarintFrom(i: number, low: number, b: number): number {
    let v = BigInt(low) + (BigInt(b & 0x7f) << BigInt(7 * i));
    let shift = BigInt(7 * (i + 1));
    while (b >= 0x80) {
      if (this.pos >= this.end) throw new ProtobufDecodeError('truncated varint');
      b = this.buf[this.pos++]!;
      v += BigInt(b & 0x7f) << shift;
      shift += 7n;
      if (shift > 70n) throw new ProtobufDecodeError('varint too long');
    }
    return Number(BigInt.asIntN(64, v));
  }

  bytes(): Uint8Array {
    const n = this.varint();
    if (n < 0 || this.pos + n > this.end) throw new ProtobufDecodeError('length-delimited field overruns its message');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtobufDecodeError('truncated fixed64');
    const v = Buffer.from(this.buf.buffer, this.buf.byteOffset + this.pos, 8).readDoubleLE(0);
    this.pos += 8;
    return v;
  }

  /** Skips a field of the given wire type (used only for fields we deliberately ignore). */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT: this.varint(); return;
      case WIRE_FIXED64: this.pos += 8; return;
      case WIRE_LEN: this.bytes(); return;
      case WIRE_FIXED32: this.pos += 4; return;
      default: throw new ProtobufDecodeError(`unsupported wire type ${wire}`);
    }
  }
}
