import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CelCompileError, CelCostLimitError, CelEvalError, celTypeFromSchema, compileCel, type CelType } from './index.ts';

const crd = (src: string, variables: Record<string, CelType> = {}, sizeHints?: Record<string, number>) =>
  compileCel(src, { profile: 'crd', variables, sizeHints });
const run = (src: string, vars: Record<string, unknown> = {}, types: Record<string, CelType> = {}) =>
  crd(src, types).evaluate(vars).value;

describe('compileCel', () => {
  it('evaluates arithmetic with ints as numbers out', () => {
    assert.deepEqual(crd('1+1').evaluate({}), { value: 2, cost: 1 });
    assert.equal(crd('1+1').resultType, 'int');
    assert.equal(run('7 / 2'), 3);
    assert.equal(run('7.0 / 2.0'), 3.5);
  });

  it('types declared variables: int fields are CEL ints, doubles stay doubles', () => {
    const types = { x: 'int', y: 'double' } as const;
    assert.equal(run('x + 1', { x: 41 }, types), 42);
    assert.equal(run('y * 2.0', { y: 1.25 }, types), 2.5);
    assert.equal(crd('x + 1', types).resultType, 'int');
    assert.equal(crd('[x]', types).resultType, 'list(int)');
    assert.equal(crd('{"a": x}', types).resultType, 'map(string, int)');
  });

  it('reads object types lazily and compares them structurally', () => {
    const obj: CelType = { object: 'self', fields: { a: 'int', b: { list: 'string' }, m: { map: 'int' } } };
    const vars = { self: { a: 1, b: ['x'], m: { k: 2 } }, oldSelf: { a: 1, b: ['x'], m: { k: 2 } } };
    const types = { self: obj, oldSelf: obj };
    assert.equal(run('self == oldSelf', vars, types), true);
    assert.equal(run('self != oldSelf', { ...vars, oldSelf: { a: 2 } }, types), true);
    assert.equal(run('self.m.k + self.a', vars, types), 3);
    assert.equal(run('has(self.a) && !has(self.c)', { self: { a: 1 } }, { self: { object: 'o', fields: { a: 'int', c: 'int' } } }), true);
    assert.deepEqual(run('self', vars, types), vars.self);
  });

  it('words compile errors as cel-go does', () => {
    assert.throws(() => crd('1 + x'), (e: Error) => {
      assert.ok(e instanceof CelCompileError);
      assert.equal(e.message, "compilation failed: ERROR: <input>:1:5: undeclared reference to 'x' (in container '')\n | 1 + x\n | ....^");
      return true;
    });
    assert.throws(() => crd('1 + "a"'), /ERROR: <input>:1:3: found no matching overload for '_\+_' applied to '\(int, string\)'/);
    assert.throws(() => crd('self.nope', { self: { object: 's', fields: {} } }), /undefined field 'nope'/);
    assert.throws(() => crd('"a".nope()'), /undeclared reference to 'nope'/);
    assert.throws(() => crd('has(self.nope)', { self: { object: 's', fields: { a: 'int' } } }), /<input>:1:9: undefined field 'nope'/);
    assert.throws(() => crd('1 +'), /^CelCompileError|compilation failed: ERROR: <input>:1:4: Syntax error/);
  });

  it('reports runtime errors as CelEvalError with cel-go wording', () => {
    assert.throws(() => run('1 / x', { x: 0 }, { x: 'int' }), (e: Error) => e instanceof CelEvalError && e.message === 'division by zero');
    assert.throws(() => run('m.b', { m: { a: 1 } }, { m: { map: 'int' } }), (e: Error) => e instanceof CelEvalError && e.message === 'no such key: b');
    assert.throws(() => run('l[3]', { l: [1] }, { l: { list: 'int' } }), (e: Error) => e.message === "index '3' out of range in list size '1'");
    assert.throws(() => run('x + 1', { x: 9223372036854775807n }, { x: 'int' }), (e: Error) => e.message === 'integer overflow');
    assert.throws(() => run('1 % x', { x: 0 }, { x: 'int' }), (e: Error) => e.message === 'modulus by zero');
  });

  it('charges runtime cost and stops past the limit', () => {
    const p = crd('l.all(x, x > 0)', { l: { list: 'int' } });
    const { cost } = p.evaluate({ l: [1, 2, 3] });
    assert.ok(cost >= 6 && cost <= 20, `cost ${cost}`);
    assert.throws(() => p.evaluate({ l: Array.from({ length: 1000 }, () => 1) }, { costLimit: 100 }), (e: Error) =>
      e instanceof CelCostLimitError && e.message === 'operation cancelled: actual cost limit exceeded');
    // Even inside || (which swallows errors of its left side in CEL), the limit stops evaluation.
    const q = crd('l.all(x, x > 0) || true', { l: { list: 'int' } });
    assert.throws(() => q.evaluate({ l: Array.from({ length: 1000 }, () => 1) }, { costLimit: 100 }), CelCostLimitError);
  });

  it('set lists compare equal regardless of order, as kube does', () => {
    const set: CelType = { list: 'string', listType: 'set' };
    const vars = { self: ['a', 'b'], oldSelf: ['b', 'a'] };
    assert.equal(run('self == oldSelf', vars, { self: set, oldSelf: set }), true);
    assert.equal(run('self == oldSelf', vars, { self: { list: 'string' }, oldSelf: { list: 'string' } }), false);
    assert.equal(run('self.join(",")', vars, { self: set }), 'a,b');
    const mapList: CelType = { list: { object: 'e', fields: { k: 'string', v: 'int' } }, listType: 'map' };
    const atomic: CelType = { list: { object: 'e', fields: { k: 'string', v: 'int' } } };
    const objs = { self: [{ k: 'x', v: 1 }, { k: 'y', v: 2 }], oldSelf: [{ k: 'y', v: 2 }, { k: 'x', v: 1 }] };
    assert.equal(run('self == oldSelf', objs, { self: mapList, oldSelf: mapList }), true);
    assert.equal(run('self != oldSelf', objs, { self: mapList, oldSelf: mapList }), false);
    assert.equal(run('self == oldSelf', objs, { self: atomic, oldSelf: atomic }), false);
    assert.equal(run('self == oldSelf', { ...objs, oldSelf: [{ k: 'y', v: 3 }, { k: 'x', v: 1 }] }, { self: mapList, oldSelf: mapList }), false);
  });

  it('optional variables (oldSelf under optionalOldSelf) are optional.none() when absent', () => {
    const types: Record<string, CelType> = { self: 'int', oldSelf: { optional: 'int' } };
    const p = crd('!oldSelf.hasValue() || self >= oldSelf.value()', types);
    assert.equal(p.evaluate({ self: 1 }).value, true);
    assert.equal(p.evaluate({ self: 1, oldSelf: 2 }).value, false);
    assert.equal(crd('oldSelf.orValue(0)', types).resultType, 'int');
  });

  it('caches programs per environment and source', () => {
    assert.equal(crd('1 + 2'), crd('1 + 2'));
  });
});

describe('celTypeFromSchema', () => {
  it('escapes property names and maps formats and containers', () => {
    const { type, sizeHints } = celTypeFromSchema({
      type: 'object',
      properties: {
        'foo-bar': { type: 'string', maxLength: 5 },
        'a.b': { type: 'integer' },
        'x/y': { type: 'boolean' },
        a__b: { type: 'number' },
        namespace: { type: 'string' },
        '1bad': { type: 'string' },
        t: { type: 'string', format: 'date-time' },
        d: { type: 'string', format: 'duration' },
        bin: { type: 'string', format: 'byte' },
        ios: { 'x-kubernetes-int-or-string': true },
        any: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 3 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 4, 'x-kubernetes-list-type': 'set' },
      },
    }, { name: 'self' });
    assert.ok(typeof type === 'object' && 'object' in type);
    assert.deepEqual(Object.keys(type.fields).sort(), [
      '__namespace__', 'a__dot__b', 'a__underscores__b', 'any', 'bin', 'd', 'foo__dash__bar', 'ios', 'labels', 't', 'tags', 'x__slash__y',
    ]);
    assert.equal(type.fields.t, 'timestamp');
    assert.equal(type.fields.d, 'duration');
    assert.equal(type.fields.bin, 'bytes');
    assert.equal(type.fields.ios, 'dyn');
    assert.equal(type.fields.any, 'dyn');
    assert.deepEqual(type.fields.labels, { map: 'string' });
    assert.deepEqual(type.fields.tags, { list: 'string', listType: 'set' });
    assert.equal(sizeHints['self.foo__dash__bar'], 20); // maxLength 5 × 4 bytes per character
    assert.equal(sizeHints['self.labels'], 3);
    assert.equal(sizeHints['self.tags'], 4);
  });

  it('evaluates rules against plain JSON through the schema type', () => {
    const { type, sizeHints } = celTypeFromSchema({
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { 'max-replicas': { type: 'integer' }, when: { type: 'string', format: 'date-time' }, ttl: { type: 'string', format: 'duration' } } },
      },
    }, { name: 'self' });
    const p = compileCel("self.spec.max__dash__replicas > 2 && self.spec.when > timestamp('2020-01-01T00:00:00Z') && self.spec.ttl < duration('1h')", {
      profile: 'crd', variables: { self: type }, sizeHints,
    });
    assert.equal(p.evaluate({ self: { spec: { 'max-replicas': 3, when: '2024-05-01T10:00:00Z', ttl: '30m' } } }).value, true);
    assert.equal(p.evaluate({ self: { spec: { 'max-replicas': 3, when: '2019-05-01T10:00:00Z', ttl: '30m' } } }).value, false);
  });

  it('embedded resources gain apiVersion, kind and metadata.name', () => {
    const { type } = celTypeFromSchema({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, { name: 'self' });
    const p = compileCel('self.kind + "/" + self.metadata.name', { profile: 'crd', variables: { self: type } });
    assert.equal(p.evaluate({ self: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } }).value, 'Pod/p');
  });
});
