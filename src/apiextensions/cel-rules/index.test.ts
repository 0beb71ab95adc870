import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileRules } from './index.ts';
import { toStructural } from '../schema/structural.ts';
import type { JSONSchemaProps } from '../schema/types.ts';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const withSpec = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const compile = (s: JSONSchemaProps) => compileRules(toStructural(s), P);
const run = (s: JSONSchemaProps, obj: unknown, old?: unknown) => {
  const c = compile(s);
  assert.deepEqual(c.errors.map(String), []);
  return c.validator!.validate(obj, old).map(String);
};

describe('CEL validation rules: compile', () => {
  it('reports compile errors at the rule with cel-go wording', () => {
    const c = compile(withSpec({ type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.b > 1' }] }));
    assert.equal(c.errors.length, 1);
    assert.equal(c.errors[0]!.field, `${P}.properties[spec].x-kubernetes-validations[0].rule`);
    assert.match(c.errors[0]!.detail, /^compilation failed: ERROR: <input>:1:\d+: undefined field 'b'/);
  });

  it('rules must be boolean; optionalOldSelf needs oldSelf', () => {
    const c = compile(withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: '1 + 1' }, { rule: 'true', optionalOldSelf: true }] }));
    assert.deepEqual(c.errors.map((e) => `${e.field}: ${e.detail}`), [
      `${P}.properties[spec].x-kubernetes-validations[0].rule: cel expression must evaluate to a bool`,
      `${P}.properties[spec].x-kubernetes-validations[1].optionalOldSelf: may not be set if oldSelf is not used in rule`,
    ]);
  });

  it('refuses rules whose estimated cost exceeds the budget on unbounded lists', () => {
    const c = compile(withSpec({
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x == y))' }] } },
    }));
    assert.ok(c.errors.some((e) => e.field === `${P}.properties[spec].properties[l].x-kubernetes-validations[0].rule`
      && /^Forbidden: estimated rule cost exceeds budget by factor of (more than 100x|[\d.]+x) \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)$/.test(e.body())), c.errors.map(String).join('\n'));
    const bounded = compile(withSpec({
      type: 'object',
      properties: { l: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x == y))' }] } },
    }));
    assert.deepEqual(bounded.errors.map(String), []);
  });
});

describe('CEL validation rules: evaluate', () => {
  const schema = withSpec({
    type: 'object',
    properties: {
      replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= 0', message: 'must be non-negative' }] },
      min: { type: 'integer' },
      max: { type: 'integer' },
      name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
    },
    'x-kubernetes-validations': [
      { rule: 'self.min <= self.max' },
      { rule: 'self.replicas <= self.max', messageExpression: '"replicas " + string(self.replicas) + " exceeds " + string(self.max)', fieldPath: '.replicas' },
      { rule: 'self.min != 13', reason: 'FieldValueForbidden', message: 'unlucky' },
    ],
  });

  it('passes valid objects', () => {
    assert.deepEqual(run(schema, { spec: { replicas: 1, min: 0, max: 3, name: 'a' } }), []);
  });

  it('reports the message, messageExpression, fieldPath and reason as kube 1.33', () => {
    assert.deepEqual(run(schema, { spec: { replicas: -5, min: 13, max: -6 } }), [
      'spec: Invalid value: "object": failed rule: self.min <= self.max',
      'spec.replicas: Invalid value: "object": replicas -5 exceeds -6',
      'spec: Forbidden: unlucky',
      'spec.replicas: Invalid value: "integer": must be non-negative',
    ]);
  });

  it('runs transition rules only with an old value', () => {
    const obj = { spec: { replicas: 1, min: 0, max: 3, name: 'b' } };
    assert.deepEqual(run(schema, obj), []);
    assert.deepEqual(run(schema, obj, { spec: { replicas: 1, min: 0, max: 3, name: 'a' } }), ['spec.name: Invalid value: "string": name is immutable']);
  });

  it('ratchets unchanged values on update', () => {
    const bad = { spec: { replicas: 1, min: 5, max: 3 } };
    assert.equal(run(schema, bad).length, 1);
    assert.deepEqual(run(schema, bad, structuredClone(bad)), []);
  });

  it('the root self has apiVersion, kind and metadata.name', () => {
    const s: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('ok-')", message: 'bad name' }] };
    assert.deepEqual(run(s, { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'ok-1' } }), []);
    assert.deepEqual(run(s, { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'no' } }), ['<nil>: Invalid value: "object": bad name']);
  });

  it('evaluates rules on list items and map values with their paths', () => {
    const s = withSpec({
      type: 'object',
      properties: {
        items: { type: 'array', maxItems: 5, items: { type: 'object', properties: { v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.v < 10' }] } },
        m: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: "self != 'x'" }] } },
      },
    });
    assert.deepEqual(run(s, { spec: { items: [{ v: 1 }, { v: 11 }], m: { a: 'y', b: 'x' } } }), [
      'spec.items[1]: Invalid value: "object": failed rule: self.v < 10',
      "spec.m[b]: Invalid value: \"string\": failed rule: self != 'x'",
    ]);
  });

  it('reports runtime errors as evaluation errors', () => {
    const s = withSpec({ type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.a / 0 == 1' }] });
    const [e] = run(s, { spec: { a: 1 } });
    assert.match(e!, /^spec: Invalid value: "object": division by zero evaluating rule: self\.a \/ 0 == 1$/);
  });
});

describe('CEL validation rules: transition rules and correlation', () => {
  it('refuses oldSelf inside lists that are not listType=map', () => {
    const item: JSONSchemaProps = { type: 'object', properties: { k: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self.k == oldSelf.k' }] };
    const c = compile(withSpec({
      type: 'object',
      properties: {
        atomic: { type: 'array', maxItems: 4, items: item },
        keyed: { type: 'array', maxItems: 4, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { ...item, required: ['k'] } },
      },
    }));
    assert.deepEqual(c.errors.map(String), [
      `${P}.properties[spec].properties[atomic].items.x-kubernetes-validations[0].rule: Invalid value: "self.k == oldSelf.k": oldSelf cannot be used on the uncorrelatable portion of the schema within ${P}.properties[spec].properties[atomic]`,
    ]);
  });
});

describe('CEL validation rules: optionalOldSelf', () => {
  const s = withSpec({
    type: 'object',
    properties: {
      level: {
        type: 'integer',
        'x-kubernetes-validations': [
          { rule: '!oldSelf.hasValue() || self >= oldSelf.value()', message: 'level may only grow', optionalOldSelf: true },
          { rule: 'oldSelf.hasValue() || self == 1', message: 'new objects start at level 1', optionalOldSelf: true },
        ],
      },
    },
  });
  it('runs on create with oldSelf none, and on update with the old value', () => {
    assert.deepEqual(run(s, { spec: { level: 1 } }), []);
    assert.deepEqual(run(s, { spec: { level: 2 } }), ['spec.level: Invalid value: "integer": new objects start at level 1']);
    assert.deepEqual(run(s, { spec: { level: 3 } }, { spec: { level: 2 } }), []);
    assert.deepEqual(run(s, { spec: { level: 1 } }, { spec: { level: 2 } }), ['spec.level: Invalid value: "integer": level may only grow']);
  });
});

describe('CEL validation rules: messageExpression results', () => {
  it('trims the text and falls back to the message when it is empty', () => {
    const s = withSpec({
      type: 'object',
      properties: { n: { type: 'integer' } },
      'x-kubernetes-validations': [
        { rule: 'self.n > 0', messageExpression: "'  n is ' + string(self.n) + '  '" },
        { rule: 'self.n > 1', messageExpression: "''", message: 'n must exceed one' },
      ],
    });
    assert.deepEqual(run(s, { spec: { n: 0 } }), [
      'spec: Invalid value: "object": n is 0',
      'spec: Invalid value: "object": n must exceed one',
    ]);
  });
});
