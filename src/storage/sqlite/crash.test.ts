/**
 * Crash safety: a child writes continuously and is SIGKILLed mid-stream; after reopening, every write it
 * acknowledged (printed) is present with its value, and the integrity check is clean. Several rounds on the
 * same database, so recovery after a crash is itself crashed into.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'keelson-crash-'));
const path = join(dir, 'keelson.db');
const writer = fileURLToPath(new URL('./testdata/crash-writer.ts', import.meta.url));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Acked {
  creates: Map<string, { revision: number; length: number }>;
  counter: number;
  maxRevision: number;
}

/** Runs the writer for ~1 s after it is ready (bounded), SIGKILLs it, then reads its acknowledgements. */
function runAndKill(round: number, acked: Acked): Promise<void> {
  const ackFile = join(dir, `acks-${round}.txt`);
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, path, String(round), ackFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let killTimer: NodeJS.Timeout | undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (chunk.includes('ready')) killTimer ??= setTimeout(() => child.kill('SIGKILL'), 1000);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (killTimer) clearTimeout(killTimer);
      if (signal !== 'SIGKILL') {
        reject(new Error(`writer exited on its own (code ${code}): ${stderr}`));
        return;
      }
      for (const line of readFileSync(ackFile, 'utf8').split('\n')) {
        const [kind, a, b, c] = line.split(' ');
        if (kind === 'create') acked.creates.set(a!, { revision: Number(b), length: Number(c) });
        else if (kind === 'counter') acked.counter = Math.max(acked.counter, Number(a));
        if (kind === 'create' || kind === 'counter') acked.maxRevision = Math.max(acked.maxRevision, Number(b));
      }
      resolve();
    });
  });
}

void it('every acknowledged write survives SIGKILL; integrity holds; revisions keep growing (3 rounds)', async () => {
  const acked: Acked = { creates: new Map(), counter: 0, maxRevision: 0 };
  for (let round = 1; round <= 3; round++) {
    const before = acked.creates.size;
    await runAndKill(round, acked);
    assert.ok(acked.creates.size > before + 50, `round ${round}: the writer acknowledged only ${acked.creates.size - before} creates`);
    console.log(`# round ${round}: ${acked.creates.size - before} creates acknowledged, counter ${acked.counter}`);
    const store = await openSqliteStore({ path });
    try {
      assert.deepEqual(await store.checkIntegrity!(), [], `round ${round}: integrity`);
      assert.ok((await store.currentRevision()) >= acked.maxRevision, 'no acknowledged revision is lost');
      const all = await store.range('/registry/crash/r');
      const stored = new Map(all.items.map((kv) => [kv.key, kv]));
      for (const [key, a] of acked.creates) {
        const kv = stored.get(key);
        assert.ok(kv, `round ${round}: acknowledged ${key} (revision ${a.revision}) is missing`);
        assert.equal(kv.modRevision, a.revision, `${key} revision`);
        const text = new TextDecoder().decode(kv.value);
        assert.equal(text.length, a.length);
        assert.ok(text.startsWith(`${key}=`));
      }
      const counter = Number(new TextDecoder().decode((await store.get('/registry/crash/counter'))!.value));
      // The write in flight at the kill may or may not have committed; an acknowledged one must have.
      assert.ok(counter === acked.counter || counter === acked.counter + 1, `counter ${counter}, last acknowledged ${acked.counter}`);
      acked.counter = counter;
    } finally {
      await store.close();
    }
  }
});
