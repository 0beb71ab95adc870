import { test } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate, negotiateOrThrow, notAcceptable, parseAccept } from './accept.ts';
import { StatusError } from '../../machinery/errors.ts';

const KUBECTL_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

void test('parseAccept orders by q then specificity, keeping client order otherwise', () => {
  const c = parseAccept('text/*;q=0.5, application/yaml, */*;q=0.1, application/json;q=0.9, image/png;q=0');
  assert.deepEqual(c.map((x) => `${x.type}/${x.subtype}`), ['application/yaml', 'application/json', 'text/*', '*/*']);
});

void test('defaults and wildcards pick JSON', () => {
  assert.equal(negotiate(undefined)?.type, 'application/json');
  assert.equal(negotiate('')?.type, 'application/json');
  assert.equal(negotiate('*/*')?.type, 'application/json');
  assert.equal(negotiate('application/*')?.type, 'application/json');
  assert.equal(negotiate('application/yaml')?.type, 'application/yaml');
  assert.equal(negotiate('application/vnd.kubernetes.protobuf, application/json')?.type, 'application/json', 'no protobuf for kinds without a schema');
  assert.equal(negotiate('application/vnd.kubernetes.protobuf, application/json', { protobuf: true })?.type, 'application/vnd.kubernetes.protobuf');
  assert.equal(negotiate('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, application/json', { protobuf: true, allowTransform: true })?.type, 'application/json', 'no protobuf Tables');
});

void test('Table, PartialObjectMetadata targets; bad targets are skipped', () => {
  assert.deepEqual(negotiate(KUBECTL_TABLE, { allowTransform: true })?.target, { kind: 'Table', group: 'meta.k8s.io', version: 'v1' });
  assert.equal(negotiate(KUBECTL_TABLE, {})?.target, undefined, 'errors never convert');
  assert.equal(negotiate('application/json;as=Table;v=v1;g=meta.k8s.io', {}), undefined);
  assert.deepEqual(negotiate('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1', { allowTransform: true })?.target,
    { kind: 'PartialObjectMetadataList', group: 'meta.k8s.io', version: 'v1beta1' });
  assert.equal(negotiate('application/json;as=Table', { allowTransform: true }), undefined);
  assert.equal(negotiate('application/json;as=Foo;g=meta.k8s.io;v=v1', { allowTransform: true }), undefined);
  assert.equal(negotiate('application/json;as=Table;g=meta.k8s.io;v=v1', { allowTransform: true, forbidTable: true }), undefined);
  assert.equal(negotiate('application/json;pretty=1')?.pretty, true);
});

void test('watch streams: JSON only, stream=watch accepted', () => {
  assert.equal(negotiate('application/json;stream=watch', { watch: true })?.stream, 'watch');
  assert.equal(negotiate('application/yaml', { watch: true }), undefined);
  assert.equal(negotiate('application/yaml;stream=watch'), undefined);
  assert.equal(negotiate('application/json;stream=other'), undefined);
});

void test('406 bodies: router form for unknown types, handler form for unusable parameters', () => {
  const e = notAcceptable('text/html');
  assert.deepEqual(e.toStatus(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    reason: 'NotAcceptable', details: {}, code: 406,
  });
  const h = notAcceptable('application/json;as=Bogus;g=meta.k8s.io;v=v1');
  assert.equal(h.message, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  assert.equal(notAcceptable('application/yaml', { watch: true }).message, 'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch');
  assert.throws(() => negotiateOrThrow('text/plain'), (x: unknown) => x instanceof StatusError && x.code === 406);
});
