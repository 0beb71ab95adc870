import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaForKind } from './field-schema.ts';
import { scanJson } from '../../machinery/json/scan.ts';
import { kubeReference, readKubeJson } from '../../../test/support/kube-reference.ts';

const REF = kubeReference('responses');

void test('objects kube-apiserver served scan clean: no false unknown fields', () => {
  const files = [
    ...readdirSync(join(REF, 'objects')).map((f) => join(REF, 'objects', f)),
    ...readdirSync(join(REF, 'protobuf')).filter((f) => f.endsWith('.json') && !f.includes('list')).map((f) => join(REF, 'protobuf', f)),
  ];
  assert.ok(files.length >= 8);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const obj = JSON.parse(text) as { apiVersion: string; kind: string };
    const schema = schemaForKind(obj.apiVersion, obj.kind);
    assert.ok(schema, `${obj.apiVersion} ${obj.kind} has a schema`);
    assert.deepEqual(scanJson(text, { schema }).strict, [], f);
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

interface OpenApiSchema {
  $ref?: string;
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema | boolean;
  allOf?: OpenApiSchema[];
  'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }>;
}

void test('every field Kubernetes publishes (OpenAPI v2) for built-in kinds is known: Strict never rejects a valid field', () => {
  const swagger = readKubeJson<{ definitions: Record<string, OpenApiSchema> }>('openapi/swagger.json');
  const defs = swagger.definitions;
  const resolve = (s: OpenApiSchema): [string | undefined, OpenApiSchema] => {
    const ref = s.$ref ?? s.allOf?.[0]?.$ref;
    if (!ref) return [undefined, s];
    const name = ref.replace('#/definitions/', '');
    return [name, defs[name] ?? {}];
  };
  const missing = new Set<string>();
  let kinds = 0;
  let checked = 0;
  const walk = (s: OpenApiSchema, node: ReturnType<typeof schemaForKind>, path: string, seen: Set<string>) => {
    if (!node || node.kind === 'any') return;
    const [name, def] = resolve(s);
    if (name) {
      if (seen.has(name)) return;
      seen = new Set(seen).add(name);
    }
    if (def.type === 'array' && def.items) {
      if (node.kind === 'array') walk(def.items, node.items, `${path}[]`, seen);
      else missing.add(`${path}: array in OpenAPI, ${node.kind} here`);
      return;
    }
    if (def.properties && node.kind === 'object') {
      for (const [prop, ps] of Object.entries(def.properties)) {
        checked++;
        const child = node.field(prop);
        if (!child) missing.add(`${name ?? path}.${prop}`);
        else walk(ps, child, `${path}.${prop}`, seen);
      }
      return;
    }
    if (typeof def.additionalProperties === 'object' && node.kind === 'map') walk(def.additionalProperties, node.values, `${path}{}`, seen);
  };
  for (const [name, def] of Object.entries(defs)) {
    const gvk = def['x-kubernetes-group-version-kind']?.[0];
    if (!gvk || name.endsWith('List') || name.startsWith('io.k8s.apimachinery')) continue;
    const node = schemaForKind(gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version, gvk.kind);
    if (!node) continue;
    kinds++;
    walk({ $ref: `#/definitions/${name}` }, node, gvk.kind, new Set());
  }
  assert.ok(kinds > 50, `only ${kinds} kinds checked`);
  assert.ok(checked > 1000, `only ${checked} fields checked`);
  assert.deepEqual([...missing].sort(), []);
});
