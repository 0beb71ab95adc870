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

void it('mounted layout: our /registry/ keys live at <etcd-prefix>/..., kube-apiserver\'s exact layout', () => {
  const kube = new KeyCodec('/registry', '/registry/');
  assert.equal(kube.encode('/registry/configmaps/default/foo').toString(), '/registry/configmaps/default/foo');
  assert.equal(kube.decode(Buffer.from('/registry/configmaps/default/foo')), '/registry/configmaps/default/foo');
  // kube joins the prefix as a path: a trailing slash or a missing leading one changes nothing.
  for (const p of ['/p', '/p/', 'p', '//p//']) assert.equal(new KeyCodec(p, '/registry/').encode('/registry/pods/a/b').toString(), '/p/pods/a/b');
  assert.equal(new KeyCodec('', '/registry/').encode('/registry/pods/a/b').toString(), '/pods/a/b');
  assert.equal(kube.root.toString(), '/registry');
  assert.ok(kube.isStorable('/registry/x') && !kube.isStorable('/other/x') && !kube.isStorable('/registry'));
});

void it('mounted layout: scans map into etcd key order; scans outside the mount are empty ranges', () => {
  const c = new KeyCodec('/kube', '/registry/');
  const scan = (p: string): [string, string] => [c.scanStart(p).toString('latin1'), c.rangeEnd(p).toString('latin1')];
  assert.deepEqual(scan('/registry/configmaps/'), ['/kube/configmaps/', '/kube/configmaps0']);
  // The whole key space, or a prefix of the mount, is the whole mounted directory and nothing beside it.
  assert.deepEqual(scan(''), ['/kube/', '/kube0']);
  assert.deepEqual(scan('/reg'), ['/kube/', '/kube0']);
  assert.deepEqual(scan('/registry'), ['/kube/', '/kube0']);
  assert.deepEqual(scan('/registry/'), ['/kube/', '/kube0']);
  // Before and after the mount: start equals end.
  for (const p of ['/a/', '/zzz/', '/registrz']) {
    const [s, e] = scan(p);
    assert.equal(s, e, p);
  }
  // A start key inside the scan maps like a key.
  assert.equal(c.scanStart('/registry/pods/b').toString(), '/kube/pods/b');
});
