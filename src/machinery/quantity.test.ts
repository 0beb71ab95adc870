// resource.ParseQuantity / Quantity.String / Quantity.Cmp (k8s.io/apimachinery/pkg/api/resource/quantity.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, canonicalQuantity, compareQuantity, formatQuantity, parseQuantity, tryParseQuantity } from './quantity.ts';

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

// What kube-apiserver writes back for a quantity it decoded (Quantity.UnmarshalJSON → MarshalJSON). Facts from
// apimachinery's quantity tests (TestQuantityString's alternates, TestQuantityParseEmit, TestJSONWhitespace) and
// from ParseQuantity's rule that keeps text its fast path finds canonical.
const wire: [string | number, string][] = [
  // family kept, largest suffix that keeps an integer
  ['0.5', '500m'], ['0.5Gi', '512Mi'], ['1000m', '1'], ['1e3', '1e3'], ['1E3', '1E3'], ['1000', '1k'], ['1k', '1k'],
  ['1024Mi', '1Gi'], ['307200Ki', '300Mi'], ['5000m', '5'], ['1000M', '1G'], ['0.001T', '1G'], ['1000u', '1m'],
  ['1.08', '1080m'], ['1080000000n', '1080m'], ['1025024Mi', '1001Gi'], ['1024Gi', '1Ti'], ['.001e12', '1e9'],
  ['0.001e0', '1e-3'], ['1000e-12', '1e-9'], ['00', '0'], ['-0', '0'], ['0.0', '0'], ['0Gi', '0'], ['0', '0'],
  ['.001Ki', '1024m'], ['.000001Ki', '1024u'], ['.000000001Ki', '1024n'], ['.000000000001Ki', '2n'], ['-1024Mi', '-1Gi'],
  ['1.5Gi', '1536Mi'], ['2048Ki', '2Mi'], ['0.1', '100m'], ['1.5', '1500m'], ['100Mi', '100Mi'], ['128974848', '128974848'],
  ['129e6', '129e6'], ['129M', '129M'], ['123Mi', '123Mi'], ['2000000000', '2G'], ['1e21', '1e21'], ['1500e3', '1500e3'],
  ['0.0000000001', '1n'], ['0.0000000015', '2n'], ['1Ki', '1Ki'], ['1023Ki', '1023Ki'], ['1000Ki', '1000Ki'], ['8Ki', '8Ki'],
  ['8192', '8192'], ['512Ki', '512Ki'], ['1Ei', '1Ei'], ['16Ei', '9223372036854775807'],
  // BinarySI below 1024 or fractional prints as DecimalSI
  ['0.5Ki', '512'], ['1.5Ki', '1536'], ['0.25Mi', '256Ki'],
  // text ParseQuantity keeps as given
  ['+1', '+1'], ['0100', '0100'], ['1.500', '1.500'], ['1500m', '1500m'],
  // JSON numbers and surrounding space
  [2, '2'], [0.25, '250m'], [' 1', '1'], ['1 ', '1'],
];

for (const [input, want] of wire) {
  test(`quantity JSON: ${JSON.stringify(input)} is written as ${want}`, () => assert.equal(canonicalQuantity(input), want));
}

test('quantity JSON: text that does not parse is left to validation', () => {
  assert.equal(canonicalQuantity('abc'), undefined);
  assert.equal(canonicalQuantity('1Gb'), undefined);
});
