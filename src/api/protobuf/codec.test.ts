import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it, test } from 'node:test';
import { decodeEnvelope, decodeProtobuf, encodeProtobuf, formatGoDuration, packageOf, parseGoDuration, protobufMessageFor } from './codec.ts';
import { rootNodeFor } from '../../apply/schema-view.ts';
import { allMessageNames, messageSpec } from './schema.ts';
import { ProtobufDecodeError } from './wire.ts';
import { kubeReference } from '../../../test/support/kube-reference.ts';

const REF = (f: string) => kubeReference('responses/protobuf', f);

describe('protobuf schema', () => {
  it('resolves every message and every message it references', () => {
    const names = allMessageNames();
    assert.ok(names.length > 700, `only ${names.length} messages registered`);
    for (const n of names) for (const f of messageSpec(n).fields) if (f.type.kind === 'message') messageSpec(f.type.name);
  });
});

describe('protobuf codec against kube-apiserver bytes', () => {
  for (const name of ['configmap-cm1', 'pod-pod1', 'deployment-web', 'configmaplist-ref']) {
    it(`${name}: decodes to the JSON kube-apiserver served and re-encodes byte for byte`, () => {
      const pb = readFileSync(REF(`${name}.pb`));
      const json = JSON.parse(readFileSync(REF(`${name}.json`), 'utf8')) as Record<string, unknown>;
      const decoded = decodeProtobuf(pb);
      assert.deepEqual(decoded, json);
      let want = pb.toString('hex');
      if (name === 'pod-pod1') want = withPodStatusObservedGeneration(want);
      assert.equal(Buffer.from(encodeProtobuf(json)).toString('hex'), want);
    });
  }
});

/**
 * v1.33 added PodStatus.observedGeneration (field 17, a non-pointer int64, so always on the wire: `88 01 00`).
 * The reference bytes come from v1.32; patch them to what v1.33 writes: the status grows by 3 bytes, and so do
 * the lengths of the Pod message and the envelope's raw field that contain it.
 */
function withPodStatusObservedGeneration(hex: string): string {
  const patched = hex
    .replace('1a210a0750656e64696e67', '1a240a0750656e64696e67')
    .replace('4a0a426573744566666f72745a0072001a002200', '4a0a426573744566666f72745a0072008801001a002200')
    .replace('12ef080a8804', '12f2080a8804');
  assert.notEqual(patched, hex);
  return patched;
}

describe('protobuf codec errors', () => {
  it('rejects data without the k8s\\0 prefix', () => {
    assert.throws(() => decodeEnvelope(Buffer.from('{"kind":"x"}')), ProtobufDecodeError);
  });
  it('rejects a field number the schema does not know instead of dropping it', () => {
    const pb = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } });
    // Append field 99 (varint) to the raw object: patch the envelope by re-encoding by hand.
    const env = decodeEnvelope(pb);
    const raw = Buffer.concat([Buffer.from(env.raw), Buffer.from([0x98, 0x06, 0x01])]);
    const bad = Buffer.from(pb.toString('hex').replace(Buffer.from(env.raw).toString('hex'), raw.toString('hex')).replace(
      `12${env.raw.length.toString(16).padStart(2, '0')}`, `12${raw.length.toString(16).padStart(2, '0')}`), 'hex');
    assert.throws(() => decodeProtobuf(bad), /field number 99 is not known in core\.v1\.ConfigMap/);
  });
  it('rejects truncated input', () => {
    const pb = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'abc' }, data: { a: 'b' } });
    assert.throws(() => decodeProtobuf(pb.subarray(0, pb.length - 8)), ProtobufDecodeError);
  });
});

describe('Go durations', () => {
  for (const [text, ns] of [['0s', 0], ['1h0m0s', 3600e9], ['1m30s', 90e9], ['500ms', 500e6], ['1.5s', 1.5e9], ['-2s', -2e9]] as const) {
    it(`${text} ↔ ${ns}`, () => {
      assert.equal(parseGoDuration(text), ns);
      assert.equal(formatGoDuration(ns), text);
    });
  }
});

describe('merge markers', () => {
  it('carries list types, map keys and patch strategies from the Go types', () => {
    const pod = messageSpec('core.v1.PodSpec');
    assert.deepEqual(
      [pod.byJson.get('containers')?.listType, pod.byJson.get('containers')?.listMapKeys, pod.byJson.get('containers')?.patchMergeKey],
      ['map', ['name'], 'name']);
    assert.equal(pod.byJson.get('volumes')?.patchStrategy, 'merge,retainKeys');
    assert.equal(pod.byJson.get('nodeSelector')?.mapType, 'atomic');
    const ports = messageSpec('core.v1.Container').byJson.get('ports');
    assert.deepEqual(ports?.listMapKeys, ['containerPort', 'protocol']);
    assert.equal(ports?.patchMergeKey, 'containerPort');
    assert.equal(messageSpec('meta.LabelSelector').atomic, true);
    assert.equal(messageSpec('apps.v1.DeploymentSpec').byJson.get('strategy')?.patchStrategy, 'retainKeys');
  });
});

test('custom resource groups that look like built-in ones have no typed schema', () => {
  assert.ok(protobufMessageFor('batch/v1', 'CronJob'));
  assert.equal(protobufMessageFor('batch.tutorial.kubebuilder.io/v1', 'CronJob'), undefined);
  assert.equal(protobufMessageFor('apps.example.com/v1', 'Deployment'), undefined);
  assert.equal(packageOf('internal.apiserver.k8s.io/v1alpha1'), 'apiserverinternal.v1alpha1');
  assert.equal(rootNodeFor('batch.tutorial.kubebuilder.io/v1', 'CronJob'), undefined);
});

test('CustomResourceDefinition schemas round-trip through protobuf, schema-or-bool/array forms included', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        additionalProperties: false,
        properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, size: { type: 'integer', default: 3, maximum: 10 } },
        'x-kubernetes-validations': [{ rule: 'self.size <= 10', message: 'too big' }],
      },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
      either: { type: 'object', dependencies: { a: ['b', 'c'], d: { required: ['e'] } } },
    },
  };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', creationTimestamp: null },
    spec: {
      group: 'example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
    status: { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] },
  };
  const back = decodeProtobuf(encodeProtobuf(crd)) as typeof crd;
  assert.deepEqual(back.spec.versions[0]!.schema.openAPIV3Schema, schema);
  assert.equal(back.spec.names.kind, 'Widget');
});
