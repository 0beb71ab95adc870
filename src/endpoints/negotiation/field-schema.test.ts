import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { schemaForKind } from './field-schema.ts';
import { scanJson } from './json-scan.ts';

const REF = new URL('../../../../shared/reference/v1.32-responses/', import.meta.url);

void test('objects kube-apiserver served scan clean: no false unknown fields', () => {
  const files = [
    ...readdirSync(new URL('objects/', REF)).map((f) => new URL(`objects/${f}`, REF)),
    ...readdirSync(new URL('protobuf/', REF)).filter((f) => f.endsWith('.json') && !f.includes('list')).map((f) => new URL(`protobuf/${f}`, REF)),
  ];
  assert.ok(files.length >= 8);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const obj = JSON.parse(text) as { apiVersion: string; kind: string };
    const schema = schemaForKind(obj.apiVersion, obj.kind);
    assert.ok(schema, `${obj.apiVersion} ${obj.kind} has a schema`);
    assert.deepEqual(scanJson(text, { schema }).strict, [], f.pathname);
  }
});

void test('unknown fields at any depth, with kube paths; maps and leaves are not checked inside', () => {
  const schema = schemaForKind('v1', 'Pod');
  assert.ok(schema);
  const pod = JSON.stringify({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'p', labels: { anything: 'goes' }, creationTimestamp: null, bogus: 1 },
    spec: {
      containers: [{ name: 'c', image: 'i', imagePullPolicyy: 'Always', resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 80, hostIPP: 'x' }] }],
      overhead: { cpu: '1' },
    },
    extra: true,
  });
  assert.deepEqual(scanJson(pod, { schema }).strict, [
    'unknown field "metadata.bogus"',
    'unknown field "spec.containers[0].imagePullPolicyy"',
    'unknown field "spec.containers[0].ports[0].hostIPP"',
    'unknown field "extra"',
  ]);
  // Inline-embedded structs (VolumeSource inside Volume) contribute their fields to the parent object.
  const vol = JSON.stringify({ spec: { containers: [], volumes: [{ name: 'v', configMap: { name: 'x' }, emptyDir: {} }] } });
  assert.deepEqual(scanJson(vol, { schema }).strict, []);
  assert.equal(schemaForKind('example.com/v1', 'Widget'), undefined);
});
