import { test } from 'node:test';
import assert from 'node:assert/strict';
import { liveRevision, NoopApplyMemo, type ApplyRequestIdentity } from './noop-memo.ts';
import type { StructNode } from '../schema-view.ts';

const body = Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":"1"}}');
const req: ApplyRequestIdentity = {
  object: '/registry/configmaps/default/x', manager: 'alice', force: false, subresource: '', apiVersion: 'v1', kind: 'ConfigMap', view: undefined, body,
};
const live = { uid: 'u1', resourceVersion: '7' };

void test('a remembered no-op matches only the same body, manager, options, view and revision', () => {
  const m = new NoopApplyMemo();
  assert.equal(m.isNoop(req, live), false, 'nothing learned yet');
  m.rememberNoop(req, live);
  assert.equal(m.isNoop(req, live), true);
  assert.equal(m.isNoop({ ...req, body: Buffer.from(body) }, { ...live }), true, 'equal bytes and revision, other instances');
  assert.equal(m.isNoop(req, { uid: 'u1', resourceVersion: '8' }), false, 'the object was written since');
  assert.equal(m.isNoop(req, { uid: 'u2', resourceVersion: '7' }), false, 'deleted and created again');
  assert.equal(m.isNoop({ ...req, body: Buffer.from(body.toString().replace('"1"', '"2"')) }, live), false, 'another config');
  assert.equal(m.isNoop({ ...req, manager: 'bob' }, live), false, 'another manager');
  assert.equal(m.isNoop({ ...req, force: true }, live), false, 'force');
  assert.equal(m.isNoop({ ...req, subresource: 'status' }, live), false, 'another sub-resource');
  assert.equal(m.isNoop({ ...req, object: '/registry/configmaps/default/y' }, live), false, 'another object');
  assert.equal(m.isNoop({ ...req, view: { kind: 'struct' } as unknown as StructNode }, live), false, 'another schema view');
  assert.equal(m.isNoop(req, undefined), false, 'no live object');
  m.forget(req);
  assert.equal(m.isNoop(req, live), false, 'forgotten after a change');
});

void test('the remembered body is a copy: a reused request buffer cannot alter it', () => {
  const m = new NoopApplyMemo();
  const buf = Buffer.from(body);
  m.rememberNoop({ ...req, body: buf }, live);
  buf[buf.length - 3] = 0x32;
  assert.equal(m.isNoop({ ...req, body: buf }, live), false);
  assert.equal(m.isNoop(req, live), true);
});

void test('liveRevision needs a uid and a resourceVersion; objects without them are never remembered', () => {
  assert.deepEqual(liveRevision({ metadata: { uid: 'u', resourceVersion: '3' } }), { uid: 'u', resourceVersion: '3' });
  assert.equal(liveRevision({ metadata: { uid: 'u' } }), undefined);
  assert.equal(liveRevision({ metadata: { resourceVersion: '3' } }), undefined);
  assert.equal(liveRevision(undefined), undefined);
  const m = new NoopApplyMemo();
  m.rememberNoop(req, { uid: '', resourceVersion: '3' });
  assert.equal(m.size, 0);
});

void test('knowsBody: the same request remembered onto any revision; another body, manager or option is not known', () => {
  const m = new NoopApplyMemo();
  assert.equal(m.knowsBody(req), false);
  m.rememberNoop(req, live);
  assert.equal(m.knowsBody(req), true);
  assert.equal(m.knowsBody({ ...req, body: Buffer.from(body) }), true, 'equal bytes, another buffer');
  assert.equal(m.knowsBody({ ...req, body: Buffer.from(body.toString().replace('"1"', '"2"')) }), false);
  assert.equal(m.knowsBody({ ...req, manager: 'bob' }), false);
  assert.equal(m.knowsBody({ ...req, force: true }), false);
  m.forget(req);
  assert.equal(m.knowsBody(req), false);
});
