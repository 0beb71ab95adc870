/** The values and errors shared by the CBOR encoder and decoder (cbor-codec.ts describes the rules). */

export const SELF_DESCRIBED_CBOR = Buffer.from([0xd9, 0xd9, 0xf7]);

/** A decoded CBOR byte string (major type 2). */
export class CborByteString {
  constructor(readonly bytes: Uint8Array) {}
}

/** Bytes that already are one encoded data item, written verbatim (a RawExtension's CBOR). */
export class CborRaw {
  constructor(readonly encoded: Uint8Array) {}
}

export class CborDecodeError extends Error {
  override readonly name = 'CborDecodeError';
  /**
   * True when the error is about the top-level map itself (malformed data, keys of the top-level map, not a
   * map): kube finds those while reading apiVersion/kind, before it knows the kind.
   */
  constructor(message: string, readonly topLevel: boolean) {
    super(message);
  }
}
