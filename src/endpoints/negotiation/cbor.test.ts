import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CborByteString, CborDecodeError, decodeCbor, encodeCborItem, encodeCborTagged } from './cbor-codec.ts';
import { decodeCborValue, encodeCborValue } from './cbor.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const h = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

function decodeError(bytes: Buffer): CborDecodeError {
  try {
    decodeCbor(bytes);
  } catch (e) {
    if (e instanceof CborDecodeError) return e;
    throw e;
  }
  throw new Error('decoded without error');
}

void describe('CBOR codec', () => {
  void it('encodes as kube: self-described tag, integers, shortest floats, sorted keys', () => {
    assert.equal(hex(encodeCborTagged(1)), 'd9d9f701');
    assert.equal(hex(encodeCborItem(-1)), '20');
    assert.equal(hex(encodeCborItem(1000000)), '1a000f4240');
    assert.equal(hex(encodeCborItem(1.5)), 'f93e00');
    assert.equal(hex(encodeCborItem(100000.5)), 'fa47c35040');
    assert.equal(hex(encodeCborItem(1.1)), 'fb3ff199999999999a');
    assert.equal(hex(encodeCborItem(true)), 'f5');
    assert.equal(hex(encodeCborItem(null)), 'f6');
    assert.equal(hex(encodeCborItem('a')), '6161');
    // "b" (61 62) < "aa" (62 61 61): encoded keys compare bytewise, so shorter keys come first.
    assert.equal(hex(encodeCborItem({ aa: 1, b: 2 })), 'a2616202626161' + '01');
    assert.equal(hex(encodeCborItem({ x: undefined, y: [1] })), 'a1617981' + '01');
    assert.equal(hex(encodeCborItem(new Uint8Array([1, 2]))), '420102');
  });

  void it('decodes definite and indefinite lengths, tags and byte strings', () => {
    assert.deepEqual(decodeCbor(h('d9d9f7 a2 6161 01 6162 9f 01 02 ff')), { a: 1, b: [1, 2] });
    assert.deepEqual(decodeCbor(h('bf 6161 7f 6161 6162 ff ff')), { a: 'ab' });
    const b = decodeCbor(h('5f 41 01 41 02 ff'));
    assert.ok(b instanceof CborByteString);
    assert.equal(hex(b.bytes), '0102');
    assert.equal(decodeCbor(h('f93e00')), 1.5);
    assert.equal(decodeCbor(h('f7')), null);
    assert.equal(decodeCbor(h('3903e7')), -1000);
  });

  void it('rejects what kube rejects, with fxamacker/cbor messages', () => {
    assert.equal(decodeError(h('a2 6161 01 6161 02')).message, 'cbor: found duplicate map key "a" at map element index 1');
    assert.equal(decodeError(h('a1 01 02')).message, 'cbor: cannot unmarshal positive integer into Go value of type string');
    assert.equal(decodeError(h('f97e00')).message, 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN');
    assert.equal(decodeError(h('f97c00')).message, 'cbor: data item of cbor type primitives is not accepted by protocol: floating-point infinity');
    assert.equal(decodeError(h('a1 6161')).message, 'unexpected EOF');
    assert.equal(decodeError(h('01 02')).message, 'cbor: 1 bytes of extraneous data starting at index 1');
    assert.equal(decodeError(h('62 c328')).message, 'cbor: invalid UTF-8 string');
    assert.equal(decodeError(h('1bffffffffffffffff')).message, "cbor: cannot unmarshal positive integer into Go value of type int64 (18446744073709551615 overflows Go's int64)");
    assert.equal(decodeError(Buffer.alloc(70, 0x81)).message, 'cbor: exceeded max nested level 64');
    // Malformed wins over invalid content seen earlier.
    assert.equal(decodeError(h('a2 6161 01 6161')).message, 'unexpected EOF');
    // Top-level problems are found before the kind is known; nested ones after.
    assert.equal(decodeError(h('a2 6161 01 6161 02')).topLevel, true);
    assert.equal(decodeError(h('a1 6161 a2 6162 01 6162 02')).topLevel, false);
  });
});

void describe('CBOR objects', () => {
  void it('[]byte fields are byte strings; other strings text', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: Buffer.from('hi').toString('base64') }, type: 'Opaque' };
    const raw = decodeCbor(encodeCborValue(secret)) as { data: { k: unknown }; type: unknown };
    assert.ok(raw.data.k instanceof CborByteString);
    assert.equal(Buffer.from(raw.data.k.bytes).toString(), 'hi');
    assert.equal(raw.type, 'Opaque');
    assert.deepEqual(decodeCborValue(encodeCborValue(secret)), secret);
    // Items of a list and objects in unschematized places use their own kind's schema.
    const list = { apiVersion: 'v1', kind: 'SecretList', metadata: {}, items: [secret] };
    assert.deepEqual(decodeCborValue(encodeCborValue(list)), list);
    // A byte string where the schema has a string reads as text.
    assert.deepEqual(decodeCborValue(h('a1 646b696e64 46 536563726574')), { kind: 'Secret' });
  });

  void it('custom resources have no bytes fields', () => {
    const cr = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { data: 'aGk=' } };
    const raw = decodeCbor(encodeCborValue(cr)) as { spec: { data: unknown } };
    assert.equal(raw.spec.data, 'aGk=');
  });
});
