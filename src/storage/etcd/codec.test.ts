import assert from 'node:assert/strict';
import { it } from 'node:test';
import { bytesPrefixEnd, KeyCodec } from './codec.ts';

void it('KeyCodec prepends and strips the etcd prefix, byte-exact for UTF-8 keys', () => {
  const c = new KeyCodec('/kube');
  assert.equal(c.encode('/registry/pods/ä').toString('utf8'), '/kube/registry/pods/ä');
  assert.equal(c.decode(c.encode('/registry/pods/ä')), '/registry/pods/ä');
  const none = new KeyCodec('');
  assert.equal(none.decode(none.encode('/x')), '/x');
});

void it('range ends follow etcd: last byte below 0xff incremented, trailing 0xff dropped, all keys = \\0', () => {
  assert.deepEqual([...bytesPrefixEnd(Buffer.from('/a/'))], [...Buffer.from('/a0')]);
  assert.deepEqual([...bytesPrefixEnd(Buffer.from([0x61, 0xff, 0xff]))], [0x62]);
  assert.deepEqual([...bytesPrefixEnd(Buffer.from([0xff]))], [0]);
  assert.deepEqual([...bytesPrefixEnd(Buffer.alloc(0))], [0]);
  assert.deepEqual([...new KeyCodec('/p').rangeEnd('/r/')], [...Buffer.from('/p/r0')]);
  // Multi-byte UTF-8: the scan covers every key that starts with the prefix's bytes.
  const end = new KeyCodec('').rangeEnd('/é');
  assert.ok(Buffer.compare(Buffer.from('/éz'), end) < 0 && Buffer.compare(Buffer.from('/ê'), end) >= 0);
});

void it('kv() converts etcd string revisions and can drop values for keys-only reads', () => {
  const c = new KeyCodec('/p');
  const raw = { key: Buffer.from('/p/k'), value: Buffer.from('v'), create_revision: '7', mod_revision: '9', version: '3', lease: '0' };
  assert.deepEqual({ ...c.kv(raw), value: [...c.kv(raw).value] }, { key: '/k', value: [0x76], createRevision: 7, modRevision: 9, version: 3 });
  assert.equal(c.kv(raw, { keyOnly: true }).value.byteLength, 0);
  // Values are copied out of the (shared) message buffer.
  const big = Buffer.from('xxxxvalueyyyy');
  const v = c.kv({ ...raw, value: big.subarray(4, 9) }).value;
  assert.notEqual(v.buffer, big.buffer);
  assert.equal(v.buffer.byteLength, 5);
});
