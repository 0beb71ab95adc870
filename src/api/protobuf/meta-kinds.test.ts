/**
 * The meta/v1 kinds every group version registers (kube's metav1.AddToGroupVersion: the options and
 * WatchEvent), the unversioned `v1` kinds (Status) and meta.k8s.io's own, in protobuf: which (apiVersion, kind)
 * pairs resolve, and the bytes written, built here by hand from the field numbers of generated.proto.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeProtobuf, encodeProtobuf, GROUP_VERSION_META_KINDS, protobufMessageFor } from './codec.ts';
import { kubeReference } from '../../../test/support/kube-reference.ts';

const OPTION_KINDS = ['ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions'];

/** Length-delimited field: tag byte for (number, wire type 2), one-byte length, bytes. */
function ld(field: number, body: Buffer | string): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  assert.ok(b.length < 128);
  return Buffer.concat([Buffer.from([(field << 3) | 2, b.length]), b]);
}
function varintField(field: number, ...bytes: number[]): Buffer {
  return Buffer.from([field << 3, ...bytes]);
}
/** The `k8s\0` envelope: runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding "", contentType ""}. */
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from('k8s\0'), ld(1, Buffer.concat([ld(1, apiVersion), ld(2, kind)])), ld(2, raw), ld(3, ''), ld(4, '')]);
}

describe('meta/v1 kinds in every group version', () => {
  const groupVersions = ['v1', 'apps/v1', 'batch/v1', 'autoscaling/v2', 'policy/v1', 'apiextensions.k8s.io/v1', 'admissionregistration.k8s.io/v1',
    'flowcontrol.apiserver.k8s.io/v1', 'rbac.authorization.k8s.io/v1', 'certificates.k8s.io/v1', 'resource.k8s.io/v1beta1', 'meta.k8s.io/v1'];
  it('the options kinds and WatchEvent resolve to the meta messages', () => {
    assert.deepEqual([...GROUP_VERSION_META_KINDS].sort(), [...OPTION_KINDS, 'WatchEvent'].sort());
    for (const gv of groupVersions) {
      for (const kind of GROUP_VERSION_META_KINDS) assert.equal(protobufMessageFor(gv, kind)?.fullName, `meta.${kind}`, `${gv} ${kind}`);
    }
  });
  it('Status is unversioned: v1 only', () => {
    assert.equal(protobufMessageFor('v1', 'Status')?.fullName, 'meta.Status');
    assert.equal(protobufMessageFor('apps/v1', 'Status'), undefined);
    assert.equal(protobufMessageFor('meta.k8s.io/v1', 'Status'), undefined);
  });
  it('a group version keeps its own kinds; meta.k8s.io has only its registered kinds', () => {
    assert.equal(protobufMessageFor('apps/v1', 'Deployment')?.fullName, 'apps.v1.Deployment');
    assert.equal(protobufMessageFor('v1', 'ObjectMeta')?.fullName, undefined);
    assert.equal(protobufMessageFor('meta.k8s.io/v1', 'PartialObjectMetadata')?.fullName, 'meta.PartialObjectMetadata');
    assert.equal(protobufMessageFor('meta.k8s.io/v1beta1', 'PartialObjectMetadataList')?.fullName, 'meta.PartialObjectMetadataList');
    assert.equal(protobufMessageFor('meta.k8s.io/v1beta1', 'DeleteOptions'), undefined);
    assert.equal(protobufMessageFor('meta.k8s.io/v1', 'ObjectMeta'), undefined);
  });
  it('custom resource groups have the meta/v1 kinds only (their own objects are JSON only)', () => {
    for (const kind of GROUP_VERSION_META_KINDS) assert.equal(protobufMessageFor('stable.example.com/v1', kind)?.fullName, `meta.${kind}`);
    assert.equal(protobufMessageFor('stable.example.com/v1', 'Widget'), undefined);
    assert.equal(protobufMessageFor('apps.example.com/v1', 'Deployment'), undefined);
    assert.equal(protobufMessageFor('stable.example.com/v1', 'Status'), undefined);
  });
});

describe('meta/v1 kinds on the wire', () => {
  it('DeleteOptions as client-go sends it for apps/v1: fields in number order, pointers only when set', () => {
    const opts = {
      kind: 'DeleteOptions', apiVersion: 'apps/v1', gracePeriodSeconds: 0, preconditions: { uid: 'u-1' },
      propagationPolicy: 'Foreground', dryRun: ['All'],
    };
    const raw = Buffer.concat([
      varintField(1, 0), // gracePeriodSeconds: a set pointer, written even when 0
      ld(2, ld(1, 'u-1')), // preconditions{uid}; resourceVersion unset
      ld(4, 'Foreground'), // propagationPolicy (orphanDependents, 3, unset)
      ld(5, 'All'), // dryRun
    ]);
    const want = envelope('apps/v1', 'DeleteOptions', raw);
    const got = encodeProtobuf(opts);
    assert.equal(got.toString('hex'), want.toString('hex'));
    assert.deepEqual(decodeProtobuf(want), opts);
  });
  it('an empty DeleteOptions in core v1 is an empty message', () => {
    const want = envelope('v1', 'DeleteOptions', Buffer.alloc(0));
    assert.equal(encodeProtobuf({ kind: 'DeleteOptions', apiVersion: 'v1' }).toString('hex'), want.toString('hex'));
    assert.deepEqual(decodeProtobuf(want), { kind: 'DeleteOptions', apiVersion: 'v1' });
  });
  it('CreateOptions, UpdateOptions, PatchOptions, GetOptions and ListOptions round-trip in a named group', () => {
    const cases: Array<[string, Record<string, unknown>, Buffer]> = [
      ['CreateOptions', { dryRun: ['All'], fieldManager: 'm', fieldValidation: 'Strict' }, Buffer.concat([ld(1, 'All'), ld(3, 'm'), ld(4, 'Strict')])],
      ['UpdateOptions', { dryRun: ['All'], fieldManager: 'm', fieldValidation: 'Warn' }, Buffer.concat([ld(1, 'All'), ld(2, 'm'), ld(3, 'Warn')])],
      ['PatchOptions', { dryRun: ['All'], force: true, fieldManager: 'm', fieldValidation: 'Ignore' }, Buffer.concat([ld(1, 'All'), varintField(2, 1), ld(3, 'm'), ld(4, 'Ignore')])],
      ['GetOptions', { resourceVersion: '5' }, ld(1, '5')],
      ['ListOptions', { labelSelector: 'a=b', limit: 2 }, Buffer.concat([ld(1, 'a=b'), ld(2, ''), varintField(3, 0), ld(4, ''), varintField(7, 2), ld(8, ''), varintField(9, 0), ld(10, '')])],
    ];
    for (const [kind, fields, raw] of cases) {
      const obj = { kind, apiVersion: 'flowcontrol.apiserver.k8s.io/v1', ...fields };
      const want = envelope(obj.apiVersion, kind, raw);
      assert.equal(encodeProtobuf(obj).toString('hex'), want.toString('hex'), kind);
      assert.deepEqual(decodeProtobuf(want), obj, kind);
    }
  });
  it('Status (a 404 as kube answers it): ListMeta and the non-pointer strings always present, details a pointer', () => {
    const status = {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "x" not found', reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' }, code: 404,
    };
    const raw = Buffer.concat([
      ld(1, Buffer.concat([ld(1, ''), ld(2, ''), ld(3, '')])),
      ld(2, 'Failure'), ld(3, 'configmaps "x" not found'), ld(4, 'NotFound'),
      ld(5, Buffer.concat([ld(1, 'x'), ld(2, ''), ld(3, 'configmaps'), varintField(5, 0), ld(6, '')])),
      varintField(6, 0x94, 0x03),
    ]);
    const want = envelope('v1', 'Status', raw);
    assert.equal(encodeProtobuf(status).toString('hex'), want.toString('hex'));
    assert.deepEqual(decodeProtobuf(want), status);
  });
  it('the envelope framing is the one of kube-apiserver\'s recorded answers', () => {
    // A recorded ConfigMap: magic, typeMeta (v1, ConfigMap), raw, then empty contentEncoding and contentType.
    const pb = readFileSync(kubeReference('responses/protobuf', 'configmap-cm1.pb'));
    const head = envelope('v1', 'ConfigMap', Buffer.alloc(0)).subarray(0, 4 + 2 + 4 + 11);
    assert.equal(pb.subarray(0, head.length).toString('hex'), head.toString('hex'));
    assert.equal(pb.subarray(-4).toString('hex'), '1a002200');
  });
});
