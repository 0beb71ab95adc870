import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayHaveFractionLiterals, NumberLiteral, parseWithLiterals } from './json-literals.ts';

void test('numbers with a fraction, an exponent or beyond double precision keep their literal', () => {
  const v = parseWithLiterals(' {"a": [1, 1.0, -2e3, 12345678901234567890, -0], "b": {"c": "x\\"1.5"}, "d": true, "e": null} ') as any;
  assert.equal(v.a[0], 1);
  assert.deepEqual(v.a[1], new NumberLiteral('1.0', 1));
  assert.deepEqual(v.a[2], new NumberLiteral('-2e3', -2000));
  assert.equal((v.a[3] as NumberLiteral).text, '12345678901234567890');
  assert.equal((v.a[4] as NumberLiteral).text, '-0');
  assert.deepEqual(v.b, { c: 'x"1.5' });
  assert.equal(v.d, true);
  assert.equal(v.e, null);
});

void test('the last duplicate key wins and __proto__ is an ordinary key', () => {
  const v = parseWithLiterals('{"a":1,"a":2,"__proto__":{"x":1}}') as any;
  assert.equal(v.a, 2);
  assert.deepEqual(Object.keys(v), ['a', '__proto__']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});

void test('the prefilter finds number literals but not version strings', () => {
  assert.equal(mayHaveFractionLiterals('{"a":1.0}'), true);
  assert.equal(mayHaveFractionLiterals('{"a":[2e5]}'), true);
  assert.equal(mayHaveFractionLiterals('{"a": 12345678901234567}'), true);
  assert.equal(mayHaveFractionLiterals('{"image":"nginx:1.25","replicas":3}'), false);
});
