/**
 * The few pieces of ASN.1 DER (X.690) needed to write and read X.509 certificates: tag-length-value
 * encoding of the universal types a certificate uses, and a reader that walks the elements of a buffer.
 * Certificate issuing (controlplane/certs.ts) builds on it instead of a general ASN.1 library, which costs
 * hundreds of milliseconds to load on a first start.
 */

/** One encoded element: tag byte, definite length, contents. */
export function tlv(tag: number, contents: Uint8Array): Buffer {
  const n = contents.length;
  let len: number[];
  if (n < 0x80) len = [n];
  else if (n < 0x100) len = [0x81, n];
  else if (n < 0x10000) len = [0x82, n >> 8, n & 0xff];
  else if (n < 0x1000000) len = [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  else throw new RangeError(`DER element too long: ${n} bytes`);
  return Buffer.concat([Buffer.from([tag, ...len]), contents]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (b: Uint8Array): Buffer => tlv(0x04, b);
export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
export const nullValue = (): Buffer => Buffer.from([0x05, 0x00]);
/** Context-specific constructed `[n]` wrapper (EXPLICIT tagging). */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);
/** Context-specific primitive `[n]` (IMPLICIT tagging of a primitive value). */
export const implicit = (n: number, contents: Uint8Array): Buffer => tlv(0x80 | n, contents);

/** A non-negative INTEGER from big-endian magnitude bytes (a leading zero added when the top bit is set). */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  const b = magnitude.subarray(i);
  return tlv(0x02, b[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

export const smallInteger = (n: number): Buffer => unsignedInteger(Buffer.from([n]));

/** BIT STRING holding whole bytes (no unused bits): keys and signatures. */
export const bitString = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));

/** BIT STRING of named bits (bit 0 = most significant bit of the first byte), trailing zero bits dropped. */
export function namedBits(bits: readonly number[]): Buffer {
  const top = Math.max(...bits);
  const bytes = Buffer.alloc((top >> 3) + 1);
  for (const b of bits) bytes[b >> 3]! |= 0x80 >> (b & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([7 - (top & 7)]), bytes]));
}

export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isSafeInteger(a) || a < 0)) throw new Error(`bad OID ${dotted}`);
  const out = [40 * arcs[0]! + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128 = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift((v & 0x7f) | 0x80);
    out.push(...base128);
  }
  return tlv(0x06, Buffer.from(out));
}

/** RFC 5280 time: UTCTime through 2049, GeneralizedTime from 2050, whole seconds in UTC. */
export function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-11-26T21:30:44.123Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z'; // 20261126213044Z
  const year = d.getUTCFullYear();
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}

/** One element read from a buffer. */
export interface Element {
  readonly tag: number;
  /** The contents, without tag and length. */
  readonly contents: Buffer;
  /** The whole element, tag and length included. */
  readonly raw: Buffer;
}

/** The element at `offset`; throws on a truncated or indefinite-length encoding. */
export function readElement(buf: Buffer, offset = 0): Element {
  if (offset + 2 > buf.length) throw new Error('DER: truncated element');
  const tag = buf[offset]!;
  let len = buf[offset + 1]!;
  let head = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || offset + 2 + n > buf.length) throw new Error('DER: unsupported length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[offset + 2 + i]!;
    head += n;
  }
  const end = offset + head + len;
  if (end > buf.length) throw new Error('DER: truncated element');
  return { tag, contents: buf.subarray(offset + head, end), raw: buf.subarray(offset, end) };
}

/** The elements inside a constructed element's contents, in order. */
export function children(contents: Buffer): Element[] {
  const out: Element[] = [];
  for (let off = 0; off < contents.length;) {
    const e = readElement(contents, off);
    out.push(e);
    off += e.raw.length;
  }
  return out;
}
