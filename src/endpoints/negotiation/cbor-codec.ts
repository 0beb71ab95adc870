/**
 * CBOR (RFC 8949) as kube-apiserver's serializer writes and reads it (apimachinery
 * runtime/serializer/cbor/internal/modes):
 *
 * Encoding: every data item is enclosed in the self-described tag 55799 (prefix `d9 d9 f7`); map keys are sorted
 * bytewise-lexically by their encoded form; integers are CBOR integers; other numbers take the shortest float
 * width that keeps their value; lengths are always definite; `Uint8Array` values become byte strings, strings
 * text strings.
 *
 * Decoding: tags are accepted and their content kept; indefinite lengths are accepted; maps must have string keys
 * and no duplicates; NaN and infinities are refused; integers must fit Go's int64; text must be valid UTF-8; at
 * most 64 levels, 1024 array elements and 1024 map pairs. Byte strings decode to {@link CborByteString} so the
 * caller decides (by schema) whether they are `[]byte` (base64 in JSON) or text. Error texts are fxamacker/cbor's.
 *
 * Invariant: a decode either returns a value or throws CborDecodeError; malformed input (truncated, bad
 * headers) wins over invalid content (duplicate keys, NaN), as in fxamacker's well-formedness pre-pass.
 */

export { CborByteString, CborDecodeError, CborRaw, SELF_DESCRIBED_CBOR } from './cbor-types.ts';
export { encodeCborItem, encodeCborTagged } from './cbor-encode.ts';
export { decodeCbor, decodeCborSequence, MAX_ARRAY_ELEMENTS, MAX_MAP_PAIRS, MAX_NESTED_LEVELS } from './cbor-decode.ts';
