/**
 * Single-owner guard for a sqlite store. The writer thread keeps the revision counter in memory and watches
 * are fanned out in-process, so two stores writing one database (two servers on one data dir, or one process
 * opening it twice) would hand out duplicate revisions and miss each other's events.
 *
 * The guard is a kernel file lock, not a pid file: `<db>-lock` is a small (empty) SQLite database that the
 * owner opens on the main thread with `locking_mode=EXCLUSIVE` and `BEGIN EXCLUSIVE`, which makes SQLite's
 * unix VFS take a POSIX (fcntl) write lock on it and keep it until the connection closes. The kernel drops a
 * process's fcntl locks when its last file descriptor for the file closes — on close() or when the process
 * dies in any way, SIGKILL included, before it is reaped — so a restart after kill -9 or a reboot never finds
 * a stale lock, and a pid reused by an unrelated process means nothing. SQLite also tracks its locks per
 * inode across all connections of the process (worker threads included), so a second open in this process is
 * refused the same way; no in-process bookkeeping is needed.
 *
 * POSIX locks belong to the process and vanish when *any* descriptor of the file is closed, so nothing but
 * SQLite may open the lock file while it is held (SQLite defers closing its own descriptors while a lock on
 * the inode is held). The file is never deleted either: an unlinked lock file lets the next owner lock a new
 * inode while someone still holds the old one.
 *
 * Why a new name rather than the `<db>.lock` pid file of earlier versions: that file holds text, which SQLite
 * refuses ("not a database"), and replacing it would mean unlink-and-recreate, which races with another
 * starting process exactly as above. A leftover old-style `<db>.lock` (a pid) is ignored, and removed once the
 * new lock is held so it does not mislead an operator.
 *
 * A dying owner releases its lock only when its last thread has exited (a thread inside fsync can delay that
 * a little after kill() returned), so a busy lock is retried for a short while before the open is refused.
 */
import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StorageUnavailableError } from '../interface.ts';

/** How long a lock held by someone else is retried by default before the open is refused. */
export const DEFAULT_LOCK_WAIT_MS = 2000;
const RETRY_EVERY_MS = 20;

/** The lock file of the database at `dbPath`. */
export function storeLockPath(dbPath: string): string {
  return `${resolve(dbPath)}-lock`;
}

/**
 * Takes the lock (retrying a busy one for up to `waitMs`) or throws StorageUnavailableError; resolves with the
 * release function (idempotent), which closes the lock's connection and so drops the kernel lock.
 */
export async function acquireStoreLock(dbPath: string, opts: { waitMs?: number } = {}): Promise<() => void> {
  const path = resolve(dbPath);
  const lockPath = storeLockPath(path);
  const deadline = Date.now() + (opts.waitMs ?? DEFAULT_LOCK_WAIT_MS);
  let db: Database.Database | undefined;
  for (;;) {
    try {
      db = tryLock(lockPath);
    } catch (err) {
      throw new StorageUnavailableError(`cannot lock the database ${path} (lock file ${lockPath}): ${(err as Error).message}`);
    }
    if (db) break;
    if (Date.now() >= deadline) {
      throw new StorageUnavailableError(`another Keelson is using the data directory ${dirname(path)} (the store ${path} is locked)`);
    }
    await new Promise((r) => setTimeout(r, RETRY_EVERY_MS));
  }
  removeOldPidFile(`${path}.lock`);
  const held = db;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.close();
  };
}

/** The held connection, or undefined when someone else holds the lock; throws on any other failure. */
function tryLock(lockPath: string): Database.Database | undefined {
  const db = new Database(lockPath, { timeout: 0 });
  try {
    // MEMORY: no `-journal` file next to it (OFF is refused in better-sqlite3's defensive mode).
    db.pragma('journal_mode = MEMORY');
    db.pragma('locking_mode = EXCLUSIVE');
    // Takes SQLite's exclusive lock (an fcntl write lock) now; the transaction stays open until close.
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db.close();
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return undefined;
    throw err;
  }
}

/** Earlier versions' `<db>.lock` held the owner's pid as text; it guards nothing any more. */
function removeOldPidFile(oldPath: string): void {
  try {
    if (statSync(oldPath).size > 32) return;
    if (/^\s*\d+\s*$/.test(readFileSync(oldPath, 'utf8'))) unlinkSync(oldPath);
  } catch {
    // None there (the usual case), or not ours to remove.
  }
}
