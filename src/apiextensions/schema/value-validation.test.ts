import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateValue } from './value-validation.ts';
import { validateListTypes } from './listtype.ts';
import { toStructural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';

const spec = (properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object', properties: { spec: { type: 'object', properties, ...extra } },
});
const run = (s: JSONSchemaProps, v: unknown, old?: unknown) => validateValue(v, s, '', old === undefined ? undefined : { value: old }).map(String);

describe('value validation', () => {
  it('types, with kube-openapi wording and the data type as the value', () => {
    const s = spec({ replicas: { type: 'integer' }, name: { type: 'string' }, on: { type: 'boolean' }, ratio: { type: 'number' }, port: { 'x-kubernetes-int-or-string': true } });
    assert.deepEqual(run(s, { spec: { replicas: 'string', name: 5, on: 'yes', ratio: 1.5, port: true } }), [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"',
      'spec.on: Invalid value: "string": spec.on in body must be of type boolean: "string"',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ]);
    assert.deepEqual(run(s, { spec: { replicas: 1.5 } }), ['spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"']);
    assert.deepEqual(run(s, { spec: { port: 80 } }), []);
    assert.deepEqual(run(s, { spec: { port: 'http' } }), []);
  });

  it('null only where nullable', () => {
    const s = spec({ a: { type: 'string' }, b: { type: 'string', nullable: true } });
    assert.deepEqual(run(s, { spec: { a: null, b: null } }), ['spec.a: Invalid value: "null": spec.a in body must be of type string: "null"']);
  });

  it('the type error carries the FieldValueTypeInvalid cause reason', () => {
    const [e] = validateValue({ spec: { a: 1 } }, spec({ a: { type: 'string' } }), '');
    assert.equal(e?.toCause().reason, 'FieldValueTypeInvalid');
  });

  it('strings: length, pattern, formats, enum', () => {
    const s = spec({
      name: { type: 'string', minLength: 3, maxLength: 5, pattern: '^[a-z]+$' },
      when: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
      mode: { type: 'string', enum: ['Always', 'Never'] },
      free: { type: 'string', format: 'my-own' },
    });
    assert.deepEqual(run(s, { spec: { name: 'AB', when: 'yesterday', id: 'nope', mode: 'Sometimes', free: 'x' } }), [
      'spec.name: Invalid value: "AB": spec.name in body should be at least 3 chars long',
      `spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$'`,
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
      'spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope"',
      'spec.mode: Unsupported value: "Sometimes": supported values: "Always", "Never"',
    ]);
    assert.deepEqual(run(s, { spec: { name: 'abcdefg' } }), ['spec.name: Too long: may not be more than 5 bytes']);
    assert.deepEqual(run(s, { spec: { when: '2024-01-02T03:04:05Z', id: '123e4567-e89b-12d3-a456-426614174000' } }), []);
  });

  it('numbers: bounds and multipleOf', () => {
    const s = spec({ r: { type: 'integer', minimum: 1, maximum: 10 }, x: { type: 'number', exclusiveMinimum: true, minimum: 0, multipleOf: 0.5 } });
    assert.deepEqual(run(s, { spec: { r: 11, x: 0 } }), [
      'spec.r: Invalid value: 11: spec.r in body should be less than or equal to 10',
      'spec.x: Invalid value: 0: spec.x in body should be greater than 0',
    ]);
    assert.deepEqual(run(s, { spec: { r: 0, x: 0.7 } }), [
      'spec.r: Invalid value: 0: spec.r in body should be greater than or equal to 1',
      'spec.x: Invalid value: 0.7: spec.x in body should be a multiple of 0.5',
    ]);
  });

  it('lists and objects: sizes, required, items paths', () => {
    const s = spec({
      l: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
      m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'integer' } },
    }, { required: ['l'] });
    assert.deepEqual(run(s, { spec: { m: {} } }), ['spec.l: Required value']);
    assert.deepEqual(run(s, { spec: { l: [] } }), ['spec.l: Invalid value: 0: spec.l in body should have at least 1 items']);
    assert.deepEqual(run(s, { spec: { l: [{}, { name: 1 }, {}], m: { a: 1, b: 'x' } } }), [
      'spec.l: Too many: 3: must have at most 2 items',
      'spec.l[0].name: Required value',
      'spec.l[1].name: Invalid value: "integer": spec.l[1].name in body must be of type string: "integer"',
      'spec.l[2].name: Required value',
      'spec.m: Too many: 2: must have at most 1 item',
      'spec.m.b: Invalid value: "string": spec.m.b in body must be of type integer: "string"',
    ]);
  });

  it('allOf / anyOf / oneOf / not', () => {
    const s = spec({}, { oneOf: [{ required: ['a'] }, { required: ['b'] }], not: { required: ['c'] } });
    assert.deepEqual(run(s, { spec: { a: 1, b: 2 } }), ['spec: Invalid value: "": spec in body must validate one and only one schema (oneOf). Found 2 valid alternatives']);
    assert.deepEqual(run(s, { spec: {} }), [
      'spec: Invalid value: "": spec in body must validate one and only one schema (oneOf). Found none valid',
      'spec.a: Required value',
    ]);
    assert.deepEqual(run(s, { spec: { a: 1, c: 1 } }), ['spec: Invalid value: "": spec in body must not validate the schema (not)']);
    const any = spec({}, { anyOf: [{ required: ['a'] }, { required: ['b'] }] });
    assert.deepEqual(run(any, { spec: {} }), ['spec: Invalid value: "": spec in body must validate at least one schema (anyOf)', 'spec.a: Required value']);
    assert.deepEqual(run(any, { spec: { b: 1 } }), []);
  });

  it('ratchets unchanged invalid values on update, not changed ones', () => {
    const s = spec({ a: { type: 'string', maxLength: 2 }, b: { type: 'string', maxLength: 2 } });
    const old = { spec: { a: 'long', b: 'ok' } };
    assert.deepEqual(run(s, { spec: { a: 'long', b: 'ok' } }, old), []);
    assert.deepEqual(run(s, { spec: { a: 'long', b: 'xyz' } }, old), ['spec.b: Too long: may not be more than 2 bytes']);
    assert.deepEqual(run(s, { spec: { a: 'longer', b: 'ok' } }, old), ['spec.a: Too long: may not be more than 2 bytes']);
  });

  it('ratchets list-map items by key, not atomic list items', () => {
    const item: JSONSchemaProps = { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string', maxLength: 1 } } };
    const s = spec({
      m: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: item },
      a: { type: 'array', items: item },
    });
    const old = { spec: { m: [{ k: 'x', v: 'bad' }], a: [{ k: 'x', v: 'bad' }] } };
    assert.deepEqual(run(s, { spec: { m: [{ k: 'y', v: 'o' }, { k: 'x', v: 'bad' }], a: [{ k: 'y', v: 'o' }, { k: 'x', v: 'bad' }] } }, old), [
      'spec.a[1].v: Too long: may not be more than 1 byte',
    ]);
  });
});

describe('list types', () => {
  it('reports duplicates in sets and list-maps', () => {
    const s = toStructural(spec({
      tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'], items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string' } } } },
    }));
    assert.deepEqual(validateListTypes({ spec: { tags: ['a', 'b', 'a', 'a'], ports: [{ name: 'x', proto: 'TCP' }, { name: 'x', proto: 'UDP' }, { name: 'x', proto: 'TCP', n: 1 }] } }, s).map(String), [
      'spec.tags[2]: Duplicate value: "a"',
      'spec.ports[2]: Duplicate value: {"name":"x","proto":"TCP"}',
    ]);
  });
});
