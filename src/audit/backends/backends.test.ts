import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RotatingFile } from './rotating-file.ts';
import { TruncateBackend, TRUNCATED_ANNOTATION } from './truncate.ts';
import { BufferedBackend } from './buffered.ts';
import { LogBackend, fileSink } from './log.ts';
import type { AuditEvent, Backend } from '../types.ts';
import { createAuditing, resolveAuditOptions, validateAuditOptions } from '../options.ts';

const MB = 1024 * 1024;

function tmp(): string {
  return mkdtempSync(path.join(tmpdir(), 'keelson-audit-unit-'));
}

function event(i: number, extra: Partial<AuditEvent> = {}): AuditEvent {
  return {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'RequestResponse', auditID: `id-${i}`, stage: 'ResponseComplete', requestURI: '/x', verb: 'get',
    user: { username: 'u' }, requestReceivedTimestamp: '2024-01-01T00:00:00.000000Z', stageTimestamp: '2024-01-01T00:00:00.000000Z', ...extra,
  };
}

class Recorder implements Backend {
  readonly name = 'recorder';
  batches: AuditEvent[][] = [];
  answer = true;
  processEvents(events: readonly AuditEvent[]): boolean {
    this.batches.push([...events]);
    return this.answer;
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

void test('rotation: past maxsize the file moves to <name>-<UTC time>.<ext>; maxbackup keeps the newest; compress gzips backups', () => {
  const dir = tmp();
  try {
    let t = Date.parse('2024-05-06T07:08:09.010Z');
    const file = path.join(dir, 'audit.log');
    const f = new RotatingFile(file, { maxSizeMB: 1, maxBackups: 2, maxAgeDays: 0, compress: false, now: () => new Date(t) });
    f.ensure();
    const line = `${'x'.repeat(MB / 2 - 1)}\n`;
    f.write(line);
    f.write(line);
    assert.deepEqual(readdirSync(dir), ['audit.log']);
    f.write(line);
    assert.deepEqual(readdirSync(dir).sort(), ['audit-2024-05-06T07-08-09.010.log', 'audit.log']);
    assert.ok(readFileSync(file, 'utf8') === line);
    for (let i = 0; i < 6; i++) {
      t += 1000;
      f.write(line);
      f.write(line);
    }
    const backups = readdirSync(dir).filter((n) => n !== 'audit.log');
    assert.equal(backups.length, 2);
    assert.deepEqual(backups.sort(), ['audit-2024-05-06T07-08-14.010.log', 'audit-2024-05-06T07-08-15.010.log']);
    f.close();
    const g = new RotatingFile(file, { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, compress: true, now: () => new Date(t + 5000) });
    g.write(line);
    g.write(line);
    g.close();
    const gz = readdirSync(dir).filter((n) => n.endsWith('.gz'));
    assert.equal(gz.length, 3);
    // The file held one line when reopened: adding another would reach the limit, so it rotated first.
    const unzipped = gunzipSync(readFileSync(path.join(dir, 'audit-2024-05-06T07-08-20.010.log.gz'))).toString();
    assert.ok(unzipped === line, `backup holds ${unzipped.length} bytes`);
    assert.throws(() => g.write('y'.repeat(MB + 1)), /write length 1048577 exceeds maximum file size 1048576/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('rotation: maxage removes backups older than the cutoff; an existing file is appended to', () => {
  const dir = tmp();
  try {
    const file = path.join(dir, 'a.log');
    writeFileSync(path.join(dir, 'a-2024-01-01T00-00-00.000.log'), 'old\n');
    writeFileSync(path.join(dir, 'a-2024-01-09T00-00-00.000.log'), 'recent\n');
    writeFileSync(path.join(dir, 'unrelated.txt'), 'keep\n');
    writeFileSync(file, 'first\n');
    const now = Date.parse('2024-01-10T00:00:00.000Z');
    const f = new RotatingFile(file, { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 3, compress: false, now: () => new Date(now) });
    f.write('second\n');
    assert.equal(readFileSync(file, 'utf8'), 'first\nsecond\n');
    f.rotate();
    f.close();
    const names = readdirSync(dir).sort();
    assert.deepEqual(names, ['a-2024-01-09T00-00-00.000.log', 'a-2024-01-10T00-00-00.000.log', 'a.log', 'unrelated.txt']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('truncate: large Request-level events lose their bodies and are marked; too-large ones are dropped; batches are split', () => {
  const rec = new Recorder();
  const logs: string[] = [];
  const t = new TruncateBackend(rec, { maxEventSize: 2000, maxBatchSize: 2000 }, (l) => logs.push(l));
  const big = 'z'.repeat(3000);
  const pad = { pad: 'p'.repeat(800) };
  const ok = t.processEvents([event(1, { annotations: pad }), event(2, { requestObject: { big } }), event(3, { level: 'Metadata', annotations: { big } }), event(4, { annotations: pad })]);
  assert.equal(ok, true);
  const sent = rec.batches.flat();
  assert.deepEqual(sent.map((e) => e.auditID), ['id-1', 'id-2', 'id-4']);
  assert.equal(sent[1]!.requestObject, undefined);
  assert.equal(sent[1]!.annotations?.[TRUNCATED_ANNOTATION], 'true');
  assert.deepEqual(rec.batches.map((b) => b.map((e) => e.auditID)), [['id-1', 'id-2'], ['id-4']]);
  assert.deepEqual(logs, ["Error in audit plugin 'truncate' affecting 1 audit events: event is too large even after truncating"]);
});

void test('buffered: batches up to max size, a partial batch after max wait, a full buffer drops (and says so), shutdown flushes', async () => {
  const rec = new Recorder();
  const logs: string[] = [];
  const b = new BufferedBackend(rec, { bufferSize: 5, maxBatchSize: 3, maxBatchWaitMs: 50, throttleEnable: false, throttleQPS: 0, throttleBurst: 0, asyncDelegate: true }, (l) => logs.push(l));
  assert.equal(b.processEvents([event(1), event(2), event(3), event(4)]), true);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(rec.batches.map((x) => x.length), [3]);
  await new Promise((r) => setTimeout(r, 120));
  assert.deepEqual(rec.batches.map((x) => x.length), [3, 1]);
  b.processEvents([1, 2, 3, 4, 5, 6, 7].map((i) => event(10 + i)));
  assert.ok(logs.some((l) => l.includes('audit buffer queue blocked')), logs.join('\n'));
  await b.shutdown();
  assert.equal(rec.batches.flat().length, 4 + 5);
  b.processEvents([event(99)]);
  assert.ok(logs.some((l) => l.includes('audit backend shut down')));
});

void test('buffered: the throttle spaces batches by QPS', async () => {
  const rec = new Recorder();
  const b = new BufferedBackend(rec, { bufferSize: 100, maxBatchSize: 1, maxBatchWaitMs: 0, throttleEnable: true, throttleQPS: 20, throttleBurst: 1, asyncDelegate: false }, () => {});
  const start = Date.now();
  b.processEvents([event(1), event(2), event(3)]);
  while (rec.batches.length < 3) await new Promise((r) => setTimeout(r, 5));
  // One immediately (burst 1), then one per 50 ms.
  assert.ok(Date.now() - start >= 90, `${Date.now() - start} ms`);
  await b.shutdown();
});

void test('log backend: one JSON line per event; a failed write answers false and is logged', async () => {
  const dir = tmp();
  try {
    const f = new RotatingFile(path.join(dir, 'x.log'), { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false });
    const logs: string[] = [];
    const l = new LogBackend(fileSink(f), 'json', (x) => logs.push(x));
    // Lines of one event-loop turn are written together; the answer comes after the write.
    const both = [l.processEvents([event(1)]), l.processEvents([event(2)])];
    assert.ok(both.every((p) => p instanceof Promise));
    assert.deepEqual(await Promise.all(both), [true, true]);
    assert.deepEqual(readFileSync(path.join(dir, 'x.log'), 'utf8').trim().split('\n').map((s) => JSON.parse(s).auditID), ['id-1', 'id-2']);
    await l.shutdown();
    if (existsSync('/dev/full')) {
      const full = new LogBackend(fileSink(new RotatingFile('/dev/full', { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, compress: false })), 'json', (x) => logs.push(x));
      assert.equal(await full.processEvents([event(3)]), false);
      assert.match(logs.at(-1)!, /^Error in audit plugin 'log' affecting 1 audit events: ENOSPC/);
      await full.shutdown();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('options: kube\'s validation messages; no policy = no auditing', async () => {
  const errs = validateAuditOptions(resolveAuditOptions({
    log: { path: '/x', format: 'xml', maxAge: -1, batch: { mode: 'batch', bufferSize: 0 }, truncate: { maxEventSize: 10, maxBatchSize: 5 } },
    webhook: { configFile: '/w', batch: { mode: 'sometimes' }, version: 'audit.k8s.io/v1beta1' },
  }));
  assert.deepEqual(errs, [
    'invalid audit batch log buffer size 0, must be a positive number',
    'invalid audit truncate log max batch size 5, must be greater than max event size (10)',
    'invalid audit log format xml, allowed formats are "legacy,json"',
    "--audit-log-maxage -1 can't be a negative number",
    'invalid audit webhook mode sometimes, allowed modes are "batch,blocking,blocking-strict"',
    'invalid group version, allowed versions are "[audit.k8s.io/v1]"',
  ]);
  const logs: string[] = [];
  assert.equal(await createAuditing({ log: { path: '-' } }, (l) => logs.push(l)), undefined);
  assert.deepEqual(logs, ['No audit policy file provided, no events will be recorded for log backend']);
  await assert.rejects(createAuditing({ log: { path: '-', format: 'xml' } }, () => {}), { message: 'invalid audit log format xml, allowed formats are "legacy,json"' });
});
