import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateStructural } from './structural-validation.ts';
import { checkSchema } from './schema-checks.ts';
import { validateOneSchema } from './index.ts';
import type { JSONSchemaProps } from './types.ts';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const msgs = (s: JSONSchemaProps) => validateStructural(s, P).map(String);

describe('structural schema rules', () => {
  it('accepts a typical structural schema', () => {
    assert.deepEqual(msgs({
      type: 'object',
      properties: {
        metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
        spec: {
          type: 'object',
          properties: {
            port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            items: { type: 'array', items: { type: 'string' } },
            any: { 'x-kubernetes-preserve-unknown-fields': true },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            tpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          },
          oneOf: [{ required: ['port'] }, { required: ['items'] }],
        },
      },
    }), []);
  });

  it('reports missing types, items and root rules with kube\'s wording, sorted', () => {
    assert.deepEqual(msgs({
      type: 'array',
      additionalProperties: { type: 'string' },
      items: { properties: { a: {} } },
    } as JSONSchemaProps), [
      `${P}.additionalProperties: Forbidden: must not be used at the root`,
      `${P}.items.properties[a].type: Required value: must not be empty for specified object fields`,
      `${P}.items.type: Required value: must not be empty for specified array items`,
      `${P}.type: Invalid value: "array": must be object at the root`,
    ]);
    assert.deepEqual(msgs({ properties: { spec: { type: 'array' } } }), [
      `${P}.properties[spec].items: Required value: must be specified`,
      `${P}.type: Required value: must not be empty at the root`,
    ]);
  });

  it('limits root metadata to name and generateName', () => {
    assert.deepEqual(msgs({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object' } } } } }), [
      `${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
    assert.deepEqual(msgs({ type: 'object', properties: { metadata: { type: 'string' } } }), [
      `${P}.properties[metadata].type: Invalid value: "string": must be object`,
    ]);
  });

  it('forbids generic fields inside value validations and unknown fields there', () => {
    assert.deepEqual(msgs({
      type: 'object',
      properties: { a: { type: 'string' } },
      anyOf: [{ type: 'object', description: 'x', properties: { b: { nullable: true } } }],
    } as JSONSchemaProps), [
      `${P}.anyOf[0].description: Forbidden: must be empty to be structural`,
      `${P}.anyOf[0].properties[b].nullable: Forbidden: must be false to be structural`,
      `${P}.anyOf[0].type: Forbidden: must be empty to be structural`,
      `${P}.properties[b]: Required value: because it is defined in ${P}.anyOf[0].properties[b]`,
    ]);
  });

  it('checks extension combinations and embedded resources', () => {
    assert.deepEqual(msgs({
      type: 'object',
      properties: {
        a: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true },
        e: { type: 'string', 'x-kubernetes-embedded-resource': true },
        f: { type: 'object', 'x-kubernetes-embedded-resource': true },
      },
    }), [
      `${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      `${P}.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
      `${P}.properties[f].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
    ]);
  });

  it('reports invalid patterns with RE2\'s error', () => {
    assert.deepEqual(msgs({ type: 'object', properties: { a: { type: 'string', pattern: '[a' } } }), [
      `${P}.properties[a].pattern: Invalid value: "[a": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: \`[a\``,
    ]);
  });
});

describe('schema keyword checks', () => {
  const check = (s: JSONSchemaProps, status = false) => checkSchema(s, P, status).map(String);

  it('refuses unsupported keywords and uniqueItems', () => {
    assert.deepEqual(check({ type: 'object', properties: { a: { type: 'array', uniqueItems: true, items: { type: 'string' } }, b: { $ref: '#/x' } } }), [
      `${P}.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${P}.properties[b].$ref: Forbidden: $ref is not supported`,
    ]);
  });

  it('refuses properties with additionalProperties, false preserve, defaults in metadata', () => {
    assert.deepEqual(check({
      type: 'object',
      properties: {
        metadata: { type: 'object', default: {} },
        m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
        p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
      },
    }), [
      `${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
      `${P}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${P}.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ]);
  });

  it('checks list and map type markers', () => {
    assert.deepEqual(check({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-kubernetes-list-type': 'set' },
        b: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { k: { type: 'string' } } } },
        c: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } },
        d: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'z'], items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } } },
        e: { type: 'object', 'x-kubernetes-map-type': 'weird' },
      },
    }), [
      `${P}.properties[a].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
      `${P}.properties[b].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
      `${P}.properties[c].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
      `${P}.properties[d].x-kubernetes-list-map-keys: Invalid value: ["k","z"]: entries must all be names of item properties`,
      `${P}.properties[e].x-kubernetes-map-type: Unsupported value: "weird": supported values: "atomic", "granular"`,
    ]);
  });

  it('requires map keys to be required or defaulted', () => {
    assert.deepEqual(check({
      type: 'object',
      properties: { d: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' } } } } },
    }), [`${P}.properties[d].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`]);
  });

  it('limits the root when the status sub-resource is on', () => {
    assert.deepEqual(check({ type: 'object', properties: {}, nullable: true } as JSONSchemaProps, true).map((m) => m.replace(/Invalid value: .*: only/, 'Invalid value: …: only')), [
      `${P}: Invalid value: …: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
      `${P}.nullable: Forbidden: nullable cannot be true at the root`,
    ]);
  });

  it('checks validation rule entries', () => {
    assert.deepEqual(check({
      type: 'object',
      'x-kubernetes-validations': [
        { rule: ' ' }, { rule: 'a\n&& b' }, { rule: 'true', reason: 'Bogus' }, { rule: 'true', fieldPath: '.nope' },
      ],
    }), [
      `${P}.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${P}.x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks`,
      `${P}.x-kubernetes-validations[2].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${P}.x-kubernetes-validations[3].fieldPath: Invalid value: ".nope": must be a valid path`,
    ]);
  });
});

describe('defaults in schemas', () => {
  it('must validate and be pruned', () => {
    const errs = validateOneSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', default: 'three' },
            tpl: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 1 } },
            ok: { type: 'object', properties: { a: { type: 'string', default: 'd' } }, default: {} },
          },
        },
      },
    }, P, false).map(String);
    assert.deepEqual(errs, [
      `${P}.properties[spec].properties[replicas].default: Invalid value: "string": in body must be of type integer: "string"`,
      `${P}.properties[spec].properties[tpl].default: Invalid value: {"a":"x","b":1}: must not have unknown fields`,
    ]);
  });
});

describe('validateCrdSchemas', () => {
  const crd = (replicas: JSONSchemaProps, extra: Record<string, JSONSchemaProps> = {}) => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ws.g.example.com' },
    spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas, ...extra } } } } } }] },
  });
  it('reports per-version paths', async () => {
    const { validateCrdSchemas } = await import('./index.ts');
    assert.deepEqual(validateCrdSchemas(crd({ type: 'integer', default: 'x' }), undefined).map(String), [
      `${P}.properties[spec].properties[replicas].default: Invalid value: "string": in body must be of type integer: "string"`,
    ]);
  });
  it('on update, keeps quiet about errors the old schema already had', async () => {
    const { validateCrdSchemas } = await import('./index.ts');
    const old = crd({ type: 'integer', default: 'x' });
    assert.deepEqual(validateCrdSchemas(crd({ type: 'integer', default: 'x' }, { color: { type: 'string' } }), old).map(String), []);
    assert.equal(validateCrdSchemas(crd({ type: 'integer', default: 'x' }, { color: { type: 'string', default: 1 } }), old).length, 1);
  });
});

describe('defaults and CEL rules', () => {
  it('a default must pass the rules of its schema', () => {
    const errs = validateOneSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            limits: {
              type: 'object',
              default: { min: 5, max: 1 },
              properties: { min: { type: 'integer' }, max: { type: 'integer' } },
              'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min above max' }],
            },
          },
        },
      },
    }, P, false).map(String);
    assert.deepEqual(errs, [`${P}.properties[spec].properties[limits].default: Invalid value: "object": min above max`]);
  });
});
