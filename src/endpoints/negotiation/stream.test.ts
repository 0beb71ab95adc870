import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { RequestContext } from '../../request/context.ts';
import type { CachedObject } from '../../storage/cacher/types.ts';
import { STREAM_SLICE_BYTES, writeBody, writeChunks } from './encode.ts';
import { jsonListBody, jsonListChunks } from './render.ts';

/**
 * A response that records each write. Its socket empties only when more than `drainAbove` bytes are queued,
 * a few ms later with 'drain' (a slow client): a writer that ignores writableLength would queue everything.
 */
function fakeContext(drainAbove = Infinity) {
  const res = new EventEmitter() as EventEmitter & Record<string, unknown>;
  const writes: Buffer[] = [];
  let ended: Buffer | undefined;
  let status = 0;
  let headers: Record<string, unknown> = {};
  let maxQueued = 0;
  let drains = 0;
  Object.assign(res, {
    headersSent: false,
    writableLength: 0,
    writeHead(code: number, h: Record<string, unknown>) {
      status = code;
      headers = h;
      res['headersSent'] = true;
    },
    write(b: Uint8Array) {
      writes.push(Buffer.from(b));
      const queued = (res['writableLength'] as number) + b.byteLength;
      res['writableLength'] = queued;
      maxQueued = Math.max(maxQueued, queued);
      if (queued > drainAbove) {
        setTimeout(() => {
          res['writableLength'] = 0;
          drains++;
          res.emit('drain');
        }, 2);
        return false;
      }
      if (drainAbove === Infinity) res['writableLength'] = 0;
      return true;
    },
    end(b?: Uint8Array) {
      ended = b ? Buffer.from(b) : Buffer.alloc(0);
    },
  });
  const ctx = {
    res, req: { method: 'GET', headers: {} }, signal: new AbortController().signal, warnings: [], auditId: 'a',
  } as unknown as RequestContext;
  return {
    ctx, writes,
    body: () => Buffer.concat([...writes, ended ?? Buffer.alloc(0)]),
    ended: () => ended !== undefined, status: () => status, headers: () => headers,
    maxQueued: () => maxQueued, drains: () => drains,
  };
}

const cached = (i: number, pad = 100): CachedObject => ({
  kv: {} as CachedObject['kv'], encoded: new Map(),
  object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `cm-${i}`, namespace: 'ns' }, data: { v: 'x'.repeat(pad), s: '<&>' } },
} as unknown as CachedObject);

const head = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' } };

void test('a streamed list body is byte-identical to the whole list, and its announced size is exact', async () => {
  for (const n of [0, 1, 2, 700]) {
    for (const typed of [true, false]) {
      const items = Array.from({ length: n }, (_, i) => cached(i));
      const whole = Buffer.concat(jsonListChunks(head, items, typed));
      const body = await jsonListBody(head, Array.from({ length: n }, (_, i) => cached(i)), typed);
      const streamed = Buffer.concat([...body.chunks]);
      assert.equal(streamed.toString(), whole.toString(), `n=${n} typed=${typed}`);
      assert.equal(body.total, streamed.byteLength, `n=${n} typed=${typed}`);
      const parsed = JSON.parse(streamed.toString()) as { items: Record<string, unknown>[] };
      assert.equal(parsed.items.length, n);
      if (n) assert.equal(parsed.items[0]!['kind'], typed ? undefined : 'ConfigMap');
    }
  }
});

void test('a large body is written in slices of at most 64 KiB, other callbacks run between them, drain is awaited', async () => {
  const f = fakeContext(1024 * 1024);
  const items = Array.from({ length: 12_000 }, (_, i) => cached(i, 300));
  const body = await jsonListBody(head, items, true);
  assert.ok(body.total > 10 * STREAM_SLICE_BYTES, `body of ${body.total} bytes`);
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 0);
  let writesAtFirstTick = -1;
  const probe = setImmediate(() => (writesAtFirstTick = f.writes.length));
  await writeBody(f.ctx, 200, 'application/json', body);
  clearInterval(ticker);
  clearImmediate(probe);
  assert.ok(f.ended(), 'the response was ended');
  assert.equal(f.headers()['Content-Length'], String(body.total));
  const sent = f.body();
  assert.equal(sent.byteLength, body.total);
  assert.deepEqual(JSON.parse(sent.toString()), JSON.parse(Buffer.concat(jsonListChunks(head, items, true)).toString()));
  assert.ok(f.writes.length >= Math.floor(body.total / STREAM_SLICE_BYTES), `${f.writes.length} writes`);
  for (const w of f.writes) assert.ok(w.byteLength <= STREAM_SLICE_BYTES + 1024, `a write of ${w.byteLength} bytes`);
  assert.ok(writesAtFirstTick >= 1 && writesAtFirstTick < f.writes.length, `an immediate scheduled before the body ran after ${writesAtFirstTick} of ${f.writes.length} writes`);
  assert.ok(ticks > 0, 'timers ran while the body was written');
  assert.ok(f.drains() > 0, 'the writer waited for drain');
  assert.ok(f.maxQueued() <= 1024 * 1024 + STREAM_SLICE_BYTES, `${f.maxQueued()} bytes queued at once`);
});

void test('a big body built whole is cut into slices without changing its bytes; small bodies are one write', async () => {
  const big = Buffer.alloc(5 * STREAM_SLICE_BYTES + 123, 7);
  big[big.length - 1] = 9;
  const f = fakeContext();
  await writeChunks(f.ctx, 200, 'application/yaml', [big]);
  assert.ok(f.writes.length >= 5);
  assert.ok(f.writes.every((w) => w.byteLength <= STREAM_SLICE_BYTES));
  assert.ok(f.body().equals(big));

  const small = fakeContext();
  await writeChunks(small.ctx, 201, 'application/json', [Buffer.from('{"a":'), Buffer.from('1}\n')]);
  assert.equal(small.writes.length, 0, 'one end() and no separate writes');
  assert.equal(small.body().toString(), '{"a":1}\n');
  assert.equal(small.status(), 201);
});

void test('a client that goes away mid-body stops the stream instead of writing the rest', async () => {
  const f = fakeContext();
  const res = f.ctx.res as unknown as Record<string, unknown>;
  const write = res['write'] as (b: Uint8Array) => boolean;
  res['write'] = (b: Uint8Array) => {
    const ok = write(b);
    if (f.writes.length === 2) res['destroyed'] = true;
    return ok;
  };
  const body = await jsonListBody(head, Array.from({ length: 3000 }, (_, i) => cached(i, 300)), true);
  await writeBody(f.ctx, 200, 'application/json', body);
  assert.equal(f.writes.length, 2, 'no write after the socket was destroyed');
});
