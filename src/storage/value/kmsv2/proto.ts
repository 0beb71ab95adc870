/**
 * The few protobuf messages KMS v2 needs (k8s.io/kms/apis/v2 and the stored EncryptedObject), written and read
 * with proto3's wire rules: fields in number order, defaults (empty, 0) omitted, maps as repeated entries with
 * their keys sorted as Go's deterministic marshaling writes them.
 */

type Field = { readonly no: number; readonly bytes?: Uint8Array; readonly varint?: number };

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

const te = new TextEncoder();
const td = new TextDecoder('utf-8', { fatal: true });

/** Builds one message from its fields, skipping proto3 defaults. */
export class MessageWriter {
  private readonly parts: Uint8Array[] = [];

  bytes(no: number, v: Uint8Array | undefined): this {
    if (!v || v.length === 0) return this;
    this.parts.push(Uint8Array.from([...varint((no << 3) | 2), ...varint(v.length)]), v);
    return this;
  }

  string(no: number, v: string | undefined): this {
    return this.bytes(no, v ? te.encode(v) : undefined);
  }

  uint(no: number, v: number | undefined): this {
    if (!v) return this;
    this.parts.push(Uint8Array.from([...varint(no << 3), ...varint(v)]));
    return this;
  }

  /** map<string, bytes>: one entry message (key = 1, value = 2) per key, keys sorted. */
  map(no: number, m: ReadonlyMap<string, Uint8Array> | undefined): this {
    if (!m) return this;
    for (const k of [...m.keys()].sort()) {
      const entry = new MessageWriter().string(1, k);
      // A map entry's value is written even when empty (Go writes both fields of an entry).
      const v = m.get(k)!;
      const withValue = v.length === 0 ? concat([entry.finish(), Uint8Array.of(0x12, 0)]) : entry.bytes(2, v).finish();
      this.parts.push(Uint8Array.from([...varint((no << 3) | 2), ...varint(withValue.length)]), withValue);
    }
    return this;
  }

  finish(): Uint8Array {
    return concat(this.parts);
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class ProtoError extends Error {
  override readonly name = 'ProtoError';
}

/** Reads every field of a message; unknown fields and wire types other than varint/len are refused. */
export function readFields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const readVarint = (): number => {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (at >= buf.length) throw new ProtoError('proto: unexpected end of data');
      const b = buf[at++]!;
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new ProtoError('proto: integer overflow');
  };
  while (at < buf.length) {
    const tag = readVarint();
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    if (no === 0) throw new ProtoError('proto: invalid field number');
    if (wire === 0) out.push({ no, varint: readVarint() });
    else if (wire === 2) {
      const len = readVarint();
      if (at + len > buf.length) throw new ProtoError('proto: unexpected end of data');
      out.push({ no, bytes: buf.subarray(at, at + len) });
      at += len;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new ProtoError(`proto: cannot parse invalid wire-format data`);
  }
  if (at > buf.length) throw new ProtoError('proto: unexpected end of data');
  return out;
}

export const str = (b: Uint8Array | undefined): string => (b ? td.decode(b) : '');

function readMapEntry(b: Uint8Array): [string, Uint8Array] {
  let k = '';
  let v: Uint8Array = new Uint8Array(0);
  for (const f of readFields(b)) {
    if (f.no === 1 && f.bytes) k = str(f.bytes);
    if (f.no === 2 && f.bytes) v = f.bytes;
  }
  return [k, v];
}

// ---- messages -----------------------------------------------------------------------------------------------

export interface EncryptedObject {
  encryptedData: Uint8Array;
  keyID: string;
  encryptedDEKSource: Uint8Array;
  annotations: Map<string, Uint8Array>;
  /** 0 AES_GCM_KEY, 1 HKDF_SHA256_XNONCE_AES_GCM_SEED */
  encryptedDEKSourceType: number;
}

export function encodeEncryptedObject(o: EncryptedObject): Uint8Array {
  return new MessageWriter().bytes(1, o.encryptedData).string(2, o.keyID).bytes(3, o.encryptedDEKSource)
    .map(4, o.annotations).uint(5, o.encryptedDEKSourceType).finish();
}

export function decodeEncryptedObject(b: Uint8Array): EncryptedObject {
  const o: EncryptedObject = { encryptedData: new Uint8Array(0), keyID: '', encryptedDEKSource: new Uint8Array(0), annotations: new Map(), encryptedDEKSourceType: 0 };
  for (const f of readFields(b)) {
    if (f.no === 1 && f.bytes) o.encryptedData = f.bytes;
    else if (f.no === 2 && f.bytes) o.keyID = str(f.bytes);
    else if (f.no === 3 && f.bytes) o.encryptedDEKSource = f.bytes;
    else if (f.no === 4 && f.bytes) {
      const [k, v] = readMapEntry(f.bytes);
      o.annotations.set(k, v);
    } else if (f.no === 5 && f.varint !== undefined) o.encryptedDEKSourceType = f.varint;
  }
  return o;
}

export interface StatusResponse { version: string; healthz: string; keyID: string }
export interface EncryptResponse { ciphertext: Uint8Array; keyID: string; annotations: Map<string, Uint8Array> }

export const encodeStatusRequest = (): Uint8Array => new Uint8Array(0);

export function decodeStatusResponse(b: Uint8Array): StatusResponse {
  const r: StatusResponse = { version: '', healthz: '', keyID: '' };
  for (const f of readFields(b)) {
    if (f.no === 1) r.version = str(f.bytes);
    else if (f.no === 2) r.healthz = str(f.bytes);
    else if (f.no === 3) r.keyID = str(f.bytes);
  }
  return r;
}

export const encodeStatusResponse = (r: StatusResponse): Uint8Array => new MessageWriter().string(1, r.version).string(2, r.healthz).string(3, r.keyID).finish();

export const encodeEncryptRequest = (plaintext: Uint8Array, uid: string): Uint8Array => new MessageWriter().bytes(1, plaintext).string(2, uid).finish();

export function decodeEncryptRequest(b: Uint8Array): { plaintext: Uint8Array; uid: string } {
  const r: { plaintext: Uint8Array; uid: string } = { plaintext: new Uint8Array(0), uid: '' };
  for (const f of readFields(b)) {
    if (f.no === 1 && f.bytes) r.plaintext = f.bytes;
    else if (f.no === 2) r.uid = str(f.bytes);
  }
  return r;
}

export const encodeEncryptResponse = (r: EncryptResponse): Uint8Array => new MessageWriter().bytes(1, r.ciphertext).string(2, r.keyID).map(3, r.annotations).finish();

export function decodeEncryptResponse(b: Uint8Array): EncryptResponse {
  const r: EncryptResponse = { ciphertext: new Uint8Array(0), keyID: '', annotations: new Map() };
  for (const f of readFields(b)) {
    if (f.no === 1 && f.bytes) r.ciphertext = f.bytes;
    else if (f.no === 2) r.keyID = str(f.bytes);
    else if (f.no === 3 && f.bytes) {
      const [k, v] = readMapEntry(f.bytes);
      r.annotations.set(k, v);
    }
  }
  return r;
}

export interface DecryptRequest { ciphertext: Uint8Array; uid: string; keyID: string; annotations: Map<string, Uint8Array> }

export const encodeDecryptRequest = (r: DecryptRequest): Uint8Array => new MessageWriter().bytes(1, r.ciphertext).string(2, r.uid).string(3, r.keyID).map(4, r.annotations).finish();

export function decodeDecryptRequest(b: Uint8Array): DecryptRequest {
  const r: DecryptRequest = { ciphertext: new Uint8Array(0), uid: '', keyID: '', annotations: new Map() };
  for (const f of readFields(b)) {
    if (f.no === 1 && f.bytes) r.ciphertext = f.bytes;
    else if (f.no === 2) r.uid = str(f.bytes);
    else if (f.no === 3) r.keyID = str(f.bytes);
    else if (f.no === 4 && f.bytes) {
      const [k, v] = readMapEntry(f.bytes);
      r.annotations.set(k, v);
    }
  }
  return r;
}

export const encodeDecryptResponse = (plaintext: Uint8Array): Uint8Array => new MessageWriter().bytes(1, plaintext).finish();

export function decodeDecryptResponse(b: Uint8Array): Uint8Array {
  for (const f of readFields(b)) if (f.no === 1 && f.bytes) return f.bytes;
  return new Uint8Array(0);
}
