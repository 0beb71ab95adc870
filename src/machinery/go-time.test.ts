import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RFC3339, RFC3339_MICRO, goTimeParseError } from './go-time.ts';

const micro = (v: string) => goTimeParseError(RFC3339_MICRO, v);
const sec = (v: string) => goTimeParseError(RFC3339, v);

void test('MicroTime layout: exactly six fraction digits, as Go\'s time.Parse says it', () => {
  assert.equal(micro('2024-01-01T00:00:00.123456Z'), undefined);
  assert.equal(micro('2024-01-01T00:00:00.123456+02:00'), undefined);
  assert.equal(micro('2024-01-01T00:00:00Z'), 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
  assert.equal(micro('2024-01-01T00:00:00.123Z'), 'parsing time "2024-01-01T00:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"');
  assert.equal(micro('2024-01-01T00:00:00.1234567Z'), 'parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"');
  assert.equal(micro(''), 'parsing time "" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "" as "2006"');
});

void test('Time layout (RFC 3339): fractions allowed, ranges and trailing text reported', () => {
  assert.equal(sec('2024-01-01T00:00:00Z'), undefined);
  assert.equal(sec('2024-01-01T00:00:00.5Z'), undefined);
  assert.equal(sec('2024-02-29T23:59:59-07:00'), undefined);
  assert.equal(sec('2024-13-01T00:00:00Z'), 'parsing time "2024-13-01T00:00:00Z": month out of range');
  assert.equal(sec('2023-02-29T00:00:00Z'), 'parsing time "2023-02-29T00:00:00Z": day out of range');
  assert.equal(sec('2024-01-01T24:00:00Z'), 'parsing time "2024-01-01T24:00:00Z": hour out of range');
  assert.equal(sec('2024-01-01 00:00:00Z'), 'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"');
  assert.equal(sec('2024-01-01T00:00:00Zjunk'), 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"');
  assert.equal(sec('2024-01-01T00:00:00'), 'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
  assert.equal(sec('yesterday'), 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
});
