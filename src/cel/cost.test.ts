/**
 * Static cost estimates against the values kube-apiserver's own tests expect for CRD rules
 * (apiextensions-apiserver schema/cel compilation tests, cel-go's estimator with kube's size model).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compileCel, celTypeFromSchema, type CelSchema, STATIC_ESTIMATED_COST_LIMIT } from './index.ts';

const estimate = (schema: CelSchema, rule: string): number => {
  const { type, sizeHints } = celTypeFromSchema(schema, { name: 'self' });
  return compileCel(rule, { profile: 'crd', variables: { self: type, oldSelf: type }, sizeHints }).estimatedCost.max;
};
const arr = (t: string, max?: number): CelSchema => ({ type: 'array', items: t === 'int-or-string' ? { 'x-kubernetes-int-or-string': true } : t === 'date' || t === 'date-time' || t === 'duration' ? { type: 'string', format: t } : { type: t, ...(max !== undefined && t === 'string' ? { maxLength: max } : {}) }, ...(max !== undefined ? { maxItems: max } : {}) });
const str = (max?: number): CelSchema => ({ type: 'string', ...(max !== undefined ? { maxLength: max } : {}) });
const map = (t: string, max?: number): CelSchema => ({ type: 'object', additionalProperties: { type: t, ...(max !== undefined && t === 'string' ? { maxLength: max } : {}) }, ...(max !== undefined ? { maxProperties: max } : {}) });

const cases: Array<[string, CelSchema, string, number]> = [
 ['number all', arr('number'), 'self.all(x, true)', 4718591], ['number all 10', arr('number', 10), 'self.all(x, true)', 32],
 ['string all', arr('string'), 'self.all(x, true)', 3145727], ['bool all', arr('boolean'), 'self.all(x, true)', 1887437],
 ['map num all', map('number'), 'self.all(x, true)', 1348169], ['map str all', map('string'), 'self.all(x, true)', 1179647], ['map str all 3', map('string', 3), 'self.all(x, true)', 11],
 ['has', map('number'), 'has(self.x)', 0], ['contains', str(), "self.contains('test')", 314574], ['contains 10', str(10), "self.contains('test')", 5],
 ['startsWith', str(), "self.startsWith('test')", 2], ['concat', str(), 'size(self + "hello") > size("hello")', 314578], ['concat 4', str(4), 'size(self + "hello") > size("hello")', 7],
 ['index num', arr('number'), 'self[1] == 0.0', 2], ['index str', arr('string'), 'self[1] == self[1]', 314577], ['n2', arr('number', 10), 'self.all(x, self.all(y, true))', 352],
 ['n3', arr('number', 10), 'self.all(x, self.all(y, self.all(z, true)))', 3552], ['regex', str(), 'self.matches("x")', 314574], ['regex 50', str(50), 'self.matches("x")', 22],
 ['regex empty str', str(), '"".matches("(((((((((())))))))))[0-9]")', 7], ['regex empty re', str(), 'self.matches("")', 1], ['str eq 0', str(0), 'self == "x"', 1], ['str eq', str(), 'self == "x"', 2],
 ['eq max', arr('number', 3 * 1024 * 2048), 'self.all(x, x == 0.0)', 25165826], ['eq', arr('number'), 'self.all(x, x == 0.0)', 6291454], ['ios all', arr('int-or-string'), 'self.all(x, true)', 4718591], ['ios idx', arr('int-or-string'), 'self[0] == 5', 3],
 ['bool idx', arr('boolean'), 'self[0] == false', 2], ['dur all', arr('duration'), 'self.all(x, true)', 2359295], ['date all', arr('date'), 'self.all(x, true)', 725936], ['dt all', arr('date-time'), 'self.all(x, true)', 428963],
 ['find', str(), "self.find('[0-9]+') == ''", 629147], ['find 10', str(10), "self.find('[0-9]+') == ''", 11], ['lower', str(), "self.lowerAscii() == 'lower!'", 314575], ['lower10', str(10), "self.lowerAscii() == 'lower!'", 6],
 ['size', map('integer'), 'oldSelf.size() == self.size()', 5], ['idx dur', arr('duration'), 'self[0].getHours() == 2', 4],
];

describe('estimated cost (kube units)', () => {
  for (const [name, schema, rule, want] of cases) {
    it(`${name}: ${rule} → ${want}`, () => assert.equal(estimate(schema, rule), want));
  }

  it('typical rules: cheap with bounds, over the limit without', () => {
    const spec: CelSchema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } };
    assert.equal(estimate(spec, 'self.spec.replicas <= 10'), 4);
    const bounded: CelSchema = { type: 'object', properties: { items: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 64 } } } };
    assert.ok(estimate(bounded, 'self.items.all(x, x.size() < 100)') < 1000);
    const unbounded: CelSchema = { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } };
    assert.ok(estimate(unbounded, "self.items.all(x, x.matches('^[a-z]+$'))") > STATIC_ESTIMATED_COST_LIMIT);
  });
});
