// resource.ParseQuantity / Quantity.String / Quantity.Cmp (k8s.io/apimachinery/pkg/api/resource/quantity.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, compareQuantity, formatQuantity, parseQuantity, tryParseQuantity } from './quantity.ts';

const canonical: [string | number, string][] = [
  ['100m', '100m'], ['1Gi', '1Gi'], ['2e3', '2e3'], ['1000m', '1'], ['1500m', '1500m'], ['2048Ki', '2Mi'],
  ['1000', '1k'], ['0.5', '500m'], ['1.5Gi', '1536Mi'], ['1536', '1536'], ['1200000', '1200k'], ['1E3', '1e3'],
  ['0', '0'], ['-1', '-1'], ['512', '512'], [0.25, '250m'], [2, '2'], ['1Ki', '1Ki'], ['1023Ki', '1023Ki'], ['1.5', '1500m'],
  ['0.0000000001', '1n'], ['5Ei', '5Ei'], ['+3', '3'], ['.5', '500m'],
];

for (const [input, want] of canonical) {
  test(`quantity: ${String(input)} prints as ${want}`, () => assert.equal(formatQuantity(parseQuantity(input)), want));
}

test('quantity: comparisons across suffixes', () => {
  assert.equal(compareQuantity(parseQuantity('1'), parseQuantity('1000m')), 0);
  assert.equal(compareQuantity(parseQuantity('1Gi'), parseQuantity('1G')), 1);
  assert.equal(compareQuantity(parseQuantity('500m'), parseQuantity('0.6')), -1);
  assert.equal(compareQuantity(parseQuantity('1e3'), parseQuantity('1k')), 0);
});

test('quantity: parse errors carry kube messages', () => {
  assert.equal(tryParseQuantity(''), ERR_FORMAT_WRONG);
  assert.equal(tryParseQuantity('abc'), ERR_FORMAT_WRONG);
  assert.equal(tryParseQuantity('1Gb'), ERR_FORMAT_WRONG);
  assert.equal(tryParseQuantity('1Mk'), ERR_SUFFIX);
  assert.equal(tryParseQuantity('1.2.3'), ERR_FORMAT_WRONG);
  assert.equal(tryParseQuantity('1 Gi'), ERR_FORMAT_WRONG);
  assert.equal(tryParseQuantity('1e99999'), ERR_NUMERIC);
  assert.equal(tryParseQuantity({}), ERR_FORMAT_WRONG);
});
