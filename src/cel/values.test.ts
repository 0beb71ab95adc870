import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoDuration, parseGoDuration } from '../machinery/duration.ts';
import { compileCel, type CelType } from './index.ts';

const run = (src: string, vars: Record<string, unknown>, types: Record<string, CelType>) =>
  compileCel(src, { profile: 'crd', variables: types }).evaluate(vars).value;

describe('Go durations', () => {
  it('parses as time.ParseDuration', () => {
    assert.deepEqual(parseGoDuration('1h2m3.5s'), { seconds: 3723n, nanos: 500_000_000 });
    assert.deepEqual(parseGoDuration('-300ms'), { seconds: 0n, nanos: -300_000_000 });
    assert.deepEqual(parseGoDuration('0'), { seconds: 0n, nanos: 0 });
    assert.equal(parseGoDuration('1x'), undefined);
    assert.equal(parseGoDuration(''), undefined);
    assert.equal(parseGoDuration('3000000h'), undefined); // past int64 nanoseconds
  });
  it('formats as Duration.String()', () => {
    assert.equal(formatGoDuration(3723n, 500_000_000), '1h2m3.5s');
    assert.equal(formatGoDuration(0n, 1500), '1.5µs');
    assert.equal(formatGoDuration(0n, 0), '0s');
    assert.equal(formatGoDuration(-90n, 0), '-1m30s');
  });
});

describe('value adapter', () => {
  it('dyn JSON: integral numbers are ints, others doubles, objects maps', () => {
    assert.equal(run('type(x) == int', { x: 3 }, { x: 'dyn' }), true);
    assert.equal(run('type(x) == double', { x: 3.5 }, { x: 'dyn' }), true);
    assert.equal(run('x.a.b[1] + 1', { x: { a: { b: [1, 2] } } }, { x: 'dyn' }), 3);
    assert.equal(run('x == 80 || x == "http"', { x: 'http' }, { x: 'dyn' }), true);
  });
  it('results come back as JSON-like values', () => {
    assert.equal(run('timestamp("2024-01-02T03:04:05Z")', {}, {}), '2024-01-02T03:04:05Z');
    assert.equal(run('duration("90m")', {}, {}), '1h30m0s');
    assert.equal(run('b"hi"', {}, {}), 'aGk=');
    assert.deepEqual(run('{"a": [dyn(1), dyn(2.5), dyn(null)]}', {}, {}), { a: [1, 2.5, null] });
    assert.equal(run('quantity("1.5Gi")', {}, {}), '1536Mi');
    assert.equal(run('ip("::1")', {}, {}), '::1');
  });
  it('bytes fields are base64 in JSON, timestamps and durations strings', () => {
    const types: Record<string, CelType> = { b: 'bytes', t: 'timestamp', d: 'duration' };
    assert.equal(run('size(b) == 2 && t.getFullYear() == 2024 && d == duration("5s")', { b: 'aGk=', t: '2024-05-01T00:00:00Z', d: '5s' }, types), true);
  });
  it('null object fields read as absent; absent fields fail with no such key', () => {
    const types: Record<string, CelType> = { self: { object: 'o', fields: { a: 'int' } } };
    assert.equal(run('!has(self.a)', { self: { a: null } }, types), true);
    assert.throws(() => run('self.a == 1', { self: {} }, types), /no such key: a/);
  });
});
