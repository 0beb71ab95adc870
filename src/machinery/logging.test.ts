import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Logger, redact } from './logging.ts';

const at = new Date(Date.UTC(2026, 10, 26, 13, 54, 39, 123));

function capture(o: { verbosity?: number; format?: 'text' | 'json' } = {}) {
  const lines: string[] = [];
  const logger = new Logger({ ...o, write: (l) => lines.push(l), now: () => at, pid: 12345 });
  return { lines, logger };
}

void test('text: klog header, quoted message and key=value pairs for structured calls, plain text for one-liners', () => {
  const { lines, logger } = capture({ verbosity: 3 });
  logger.info('httplog.ts', 'HTTP', { verb: 'GET', URI: '/healthz', resp: 200 }, 3);
  logger.line('keelson', 'Serving securely on https://127.0.0.1:6443');
  logger.line('options.ts', 'W AnonymousAuth is not allowed');
  logger.error('cacher.ts', 'watch ended', new Error('closed'), { resource: 'pods' });
  assert.deepEqual(lines, [
    'I1126 13:54:39.123000   12345 httplog.ts] "HTTP" verb="GET" URI="/healthz" resp=200',
    'I1126 13:54:39.123000   12345 keelson] Serving securely on https://127.0.0.1:6443',
    'W1126 13:54:39.123000   12345 options.ts] AnonymousAuth is not allowed',
    'E1126 13:54:39.123000   12345 cacher.ts] "watch ended" err="closed" resource="pods"',
  ]);
});

void test('json: component-base schema (ts in ms, caller, msg, v; err on errors)', () => {
  const { lines, logger } = capture({ verbosity: 3, format: 'json' });
  logger.info('httplog.ts', 'HTTP', { verb: 'GET', resp: 200 }, 3);
  logger.error('x.ts', 'failed', 'boom');
  assert.deepEqual(lines.map((l) => JSON.parse(l)), [
    { ts: at.getTime(), caller: 'httplog.ts', msg: 'HTTP', v: 3, verb: 'GET', resp: 200 },
    { ts: at.getTime(), caller: 'x.ts', msg: 'failed', err: 'boom' },
  ]);
});

void test('verbosity gates messages and can change at run time', () => {
  const { lines, logger } = capture({ verbosity: 2 });
  logger.info('a', 'hidden', {}, 3);
  assert.equal(lines.length, 0);
  assert.equal(logger.enabled(3), false);
  logger.setVerbosity(3);
  logger.info('a', 'shown', {}, 3);
  assert.equal(lines.length, 1);
});

void test('credentials are masked in messages and values', () => {
  assert.equal(redact('Authorization: Bearer abc.def-123'), 'Authorization: Bearer [redacted]');
  assert.equal(redact('token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln rejected'), 'token [redacted] rejected');
  assert.equal(redact('bootstrap abcdef.0123456789abcdef unknown'), 'bootstrap [redacted] unknown');
  assert.equal(redact('GET /x?token=s3cr3t&a=b'), 'GET /x?token=[redacted]&a=b');
  const { lines, logger } = capture({ format: 'json' });
  logger.info('a', 'Bearer xyz', { header: 'Bearer xyz' });
  assert.deepEqual(JSON.parse(lines[0]!), { ts: at.getTime(), caller: 'a', msg: 'Bearer [redacted]', v: 0, header: 'Bearer [redacted]' });
});
