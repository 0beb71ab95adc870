/**
 * The store's single-owner lock (lock.ts): a kernel lock on `<db>-lock` taken through SQLite. A second owner
 * — another process or this one — is refused with a message naming the data directory; a dead owner's lock
 * is gone at once; a pid file of earlier versions blocks nothing.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StorageUnavailableError } from '../interface.ts';
import { acquireStoreLock, storeLockPath } from './lock.ts';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite-store.ts';

const root = mkdtempSync(join(tmpdir(), 'keelson-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(root, `d${++n}`, 'keelson.db');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const holder = fileURLToPath(new URL('./testdata/restart-writer.ts', import.meta.url));

/** Opens a store that must be refused; one opened anyway is closed (its threads would keep the test alive). */
async function openRefused(opts: SqliteStoreOptions): Promise<void> {
  const s = await openSqliteStore(opts);
  await s.close();
  throw new Error(`a second owner opened ${opts.path}`);
}

/** The refusal a second owner gets. */
function inUse(path: string): (e: unknown) => boolean {
  const msg = `another Keelson is using the data directory ${dirname(path)} (the store ${path} is locked)`;
  return (e) => {
    assert.ok(e instanceof StorageUnavailableError, String(e));
    assert.equal(e.message, msg);
    return true;
  };
}

void it('a second open in this process is refused by the lock itself, also after waiting; close releases it', async () => {
  const path = freshPath();
  const s = await openSqliteStore({ path });
  try {
    await assert.rejects(openRefused({ path, lockWaitMs: 0 }), inUse(path));
    const t0 = performance.now();
    await assert.rejects(openRefused({ path }), inUse(path)); // the default wait, then refused
    assert.ok(performance.now() - t0 >= 1900, 'a busy lock is retried for about 2 s by default');
    assert.ok((await s.create('/still/mine', enc('x'))).succeeded, 'the refused opens did not disturb the owner');
  } finally {
    await s.close();
  }
  const again = await openSqliteStore({ path, lockWaitMs: 0 });
  try {
    assert.equal(new TextDecoder().decode((await again.get('/still/mine'))!.value), 'x');
  } finally {
    await again.close();
  }
  assert.ok(existsSync(storeLockPath(path)), 'the lock file stays (deleting it would let two owners lock different inodes)');
});

void it('SQLite refuses the lock to a worker thread of the owning process too', async () => {
  const path = freshPath();
  mkdirSync(dirname(path), { recursive: true });
  const release = await acquireStoreLock(path);
  try {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    const w = new Worker(
      `const Database = require(${JSON.stringify(sqlite)});
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new Database(workerData, { timeout: 0 });
       try { db.pragma('locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE'); parentPort.postMessage('locked'); }
       catch (e) { parentPort.postMessage(e.code); }
       db.close();`,
      { eval: true, workerData: storeLockPath(path) },
    );
    const answer = await new Promise((resolve, reject) => w.once('message', resolve).once('error', reject));
    await w.terminate();
    assert.equal(answer, 'SQLITE_BUSY');
  } finally {
    release();
  }
  // The worker's failed attempt closed its descriptor; SQLite kept that from dropping our lock until release.
  (await acquireStoreLock(path, { waitMs: 0 }))();
});

void it('a busy lock is retried: an open waiting while the owner closes gets the store', async () => {
  const path = freshPath();
  const first = await openSqliteStore({ path });
  const second = openSqliteStore({ path, lockWaitMs: 5000 });
  await new Promise((r) => setTimeout(r, 200));
  await first.close();
  const s = await second;
  await s.close();
});

void it('an old-style pid lock file never blocks, even naming a live process, and is removed', async () => {
  for (const pid of [String(process.pid), '1', `${process.ppid}\n`]) {
    const path = freshPath();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.lock`, pid);
    const s = await openSqliteStore({ path, lockWaitMs: 0 });
    try {
      assert.ok((await s.create('/x', enc('x'))).succeeded);
      assert.equal(existsSync(`${path}.lock`), false, 'the leftover pid file is cleaned up');
    } finally {
      await s.close();
    }
  }
  // Something else under that name is left alone.
  const path = freshPath();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.lock`, 'not a pid');
  const s = await openSqliteStore({ path, lockWaitMs: 0 });
  await s.close();
  assert.equal(existsSync(`${path}.lock`), true);
});

void it('a lock file that is not a database fails the open clearly instead of being replaced', async () => {
  const path = freshPath();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(storeLockPath(path), 'garbage that is long enough to have been a database header, but is not one');
  await assert.rejects(
    openRefused({ path, lockWaitMs: 0 }),
    (e: unknown) => e instanceof StorageUnavailableError && e.message.startsWith(`cannot lock the database ${path} (lock file ${storeLockPath(path)})`) && /not a database/.test(e.message),
  );
});

/** A child process that opens the store and keeps writing; resolves once it is open. */
async function startHolder(path: string, round: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', holder, path, String(round), '4'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.on('exit', () => clearTimeout(guard));
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith('ready ')) resolve();
      if (l.startsWith('refused ')) reject(new Error(l));
    });
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}: ${err}`)));
  });
  return child;
}

void it('another process holding the store is refused; the moment it is killed the store opens (3 rounds)', { timeout: 120_000 }, async () => {
  const path = freshPath();
  for (let round = 1; round <= 3; round++) {
    const child = await startHolder(path, round);
    const exited = new Promise((r) => child.on('exit', r));
    try {
      await assert.rejects(openRefused({ path, lockWaitMs: 300 }), inUse(path));
      assert.equal(child.exitCode, null, 'the holder was alive (and writing) all along');
    } finally {
      child.kill('SIGKILL');
    }
    // The kill is only sent: the child may still be tearing down, and is certainly not reaped yet.
    const t0 = performance.now();
    const s = await openSqliteStore({ path });
    const ms = performance.now() - t0;
    try {
      assert.deepEqual(await s.checkIntegrity!(), []);
      console.log(`# round ${round}: opened ${ms.toFixed(0)} ms after SIGKILL was sent`);
    } finally {
      await s.close();
      await exited;
    }
  }
});
