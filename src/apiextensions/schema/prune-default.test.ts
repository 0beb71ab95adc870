import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pruneObject } from './prune.ts';
import { applyDefaults, pruneNonNullableNulls } from './default.ts';
import { toStructural } from './structural.ts';
import { applyRootOf, strictRootOf } from './views.ts';
import { CRD_DOCS, kindDefinitions } from './openapi.ts';
import { scanJson } from '../../machinery/json/scan.ts';
import type { JSONSchemaProps } from './types.ts';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', nullable: true, default: 'A' },
        strict: { type: 'string', default: 'S' },
        plain: { type: 'string' },
        nested: { type: 'object', properties: { x: { type: 'integer', default: 7 } } },
        withDefault: { type: 'object', default: {}, properties: { y: { type: 'string', default: 'why' } } },
        list: { type: 'array', items: { type: 'object', properties: { n: { type: 'string', default: 'n' } } } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
        tpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { 'x-kubernetes-int-or-string': true } } } },
      },
    },
    status: { type: 'object', nullable: true, properties: { ready: { type: 'boolean' } } },
  },
};
const s = toStructural(schema);

describe('pruning', () => {
  it('drops unknown fields and reports their paths; keeps preserved and resource-root fields', () => {
    const o: Record<string, any> = {
      apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a', bogus: 1 }, extra: true,
      spec: {
        replicas: 2, junk: 'x', list: [{ n: 'a', zap: 1 }],
        free: { anything: { goes: 1 }, known: { a: 'x', b: 'gone' } },
        tpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', nope: 1 }, spec: { a: 'x', b: 'y' }, other: 1 },
        labels: { a: 'b' },
      },
    };
    assert.deepEqual(pruneObject(o, s), [
      'metadata.bogus', 'extra', 'spec.junk', 'spec.list[0].zap', 'spec.free.known.b', 'spec.tpl.metadata.nope', 'spec.tpl.spec.b', 'spec.tpl.other',
    ]);
    assert.deepEqual(o, {
      apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a' },
      spec: {
        replicas: 2, list: [{ n: 'a' }],
        free: { anything: { goes: 1 }, known: { a: 'x' } },
        tpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { a: 'x' } },
        labels: { a: 'b' },
      },
    });
  });
});

describe('defaulting', () => {
  it('fills absent fields, non-nullable nulls, nested objects only where the parent exists', () => {
    const o: Record<string, any> = { spec: { mode: null, strict: null, plain: null, list: [{}, { n: 'given' }] } };
    applyDefaults(o, s);
    pruneNonNullableNulls(o, s);
    assert.deepEqual(o, {
      spec: {
        replicas: 1, mode: null, strict: 'S', withDefault: { y: 'why' }, list: [{ n: 'n' }, { n: 'given' }],
      },
    });
    const none: Record<string, any> = {};
    applyDefaults(none, s);
    assert.deepEqual(none, {}, 'no spec: nothing under it is defaulted');
  });

  it('defaults are copies', () => {
    const a: Record<string, any> = { spec: {} };
    const b: Record<string, any> = { spec: {} };
    applyDefaults(a, s);
    applyDefaults(b, s);
    a.spec.withDefault.y = 'changed';
    assert.equal(b.spec.withDefault.y, 'why');
  });
});

describe('views', () => {
  it('apply root: list types, maps, int-or-string, ObjectMeta', () => {
    const root = applyRootOf(s, 'K');
    const spec = root.field('spec')!.node;
    assert.equal(spec.kind, 'struct');
    if (spec.kind !== 'struct') return;
    const ports = spec.field('ports')!.node;
    assert.deepEqual(ports.kind === 'list' && { t: ports.listType, k: ports.keys }, { t: 'map', k: ['name'] });
    const list = spec.field('list')!.node;
    assert.equal(list.kind === 'list' && list.listType, 'atomic');
    assert.equal(spec.field('labels')!.node.kind, 'map');
    assert.equal(spec.field('free')!.node.kind === 'struct' && (spec.field('free')!.node as { open: boolean }).open, true);
    assert.equal(spec.field('nope'), undefined);
    assert.equal(root.field('metadata')!.node.kind, 'struct');
    assert.equal(root.field('apiVersion')!.node.kind, 'scalar');
  });

  it('strict view reports unknown fields where pruning drops them', () => {
    const text = JSON.stringify({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'a', bogus: 1 }, spec: { junk: 1, free: { x: 1 }, list: [{ zap: 1 }], labels: { a: 'b' } } });
    assert.deepEqual(scanJson(text, { schema: strictRootOf(s) }).strict, [
      'unknown field "metadata.bogus"', 'unknown field "spec.junk"', 'unknown field "spec.list[0].zap"',
    ]);
  });
});

describe('OpenAPI', () => {
  const o = { group: 'stable.example.com', version: 'v1', kind: 'CronTab', listKind: 'CronTabList', plural: 'crontabs', schema };
  it('v3 names, metadata ref and GVK', () => {
    const d = kindDefinitions({ ...o, dialect: 'v3' });
    assert.deepEqual(Object.keys(d), ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList']);
    const k = d['com.example.stable.v1.CronTab']!;
    assert.deepEqual(k['x-kubernetes-group-version-kind'], [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    const props = k['properties'] as Record<string, any>;
    assert.deepEqual(Object.keys(props), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    assert.deepEqual(props.metadata.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    assert.equal(props.status.nullable, true);
    assert.deepEqual(props.spec.properties.tpl.required, ['kind', 'apiVersion']);
    const list = d['com.example.stable.v1.CronTabList']!;
    assert.deepEqual((list['properties'] as any).items.items, { $ref: '#/components/schemas/com.example.stable.v1.CronTab' });
  });

  it('v2 drops nullable types and preserve-unknown properties', () => {
    const d = kindDefinitions({ ...o, dialect: 'v2' });
    const props = d['com.example.stable.v1.CronTab']!['properties'] as Record<string, any>;
    assert.deepEqual(props.metadata, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', description: CRD_DOCS.metadata });
    assert.equal(props.status.type, undefined);
    assert.equal(props.status.properties, undefined);
    assert.equal(props.spec.properties.free.properties, undefined);
    assert.equal(props.spec.properties.free.type, undefined);
    assert.equal(JSON.stringify(d).includes('__nullable'), false);
    const bare = kindDefinitions({ ...o, dialect: 'v2', schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } });
    assert.deepEqual(bare['com.example.stable.v1.CronTab'], { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }] });
  });
});
