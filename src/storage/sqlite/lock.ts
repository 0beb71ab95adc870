/**
 * Single-owner guard for a sqlite store. The writer thread keeps the revision counter in memory and watches
 * are fanned out in-process, so two stores writing one database (two servers on one data dir, or one process
 * opening it twice) would hand out duplicate revisions and miss each other's events. A `<db>.lock` file
 * holding the owner's pid keeps other processes out (a lock left by a dead process is taken over: that is
 * how a restart after SIGKILL works), and an in-process set keeps a second open in the same process out.
 */
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { resolve } from 'node:path';
import { StorageUnavailableError } from '../interface.ts';

const openHere = new Set<string>();

/** Takes the lock or throws StorageUnavailableError; returns the release function (idempotent). */
export function acquireStoreLock(dbPath: string): () => void {
  const path = resolve(dbPath);
  if (openHere.has(path)) throw new StorageUnavailableError(`the database ${path} is already open in this process`);
  const lockPath = `${path}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        throw new StorageUnavailableError(`cannot lock the database ${path}: ${(err as Error).message}`);
      }
      const owner = readOwner(lockPath);
      if (owner !== undefined && owner !== process.pid && alive(owner)) {
        throw new StorageUnavailableError(`the database ${path} is in use by process ${owner} (lock file ${lockPath})`);
      }
      // Left behind by a process that died (or by this process before it was restarted in place): take over.
      try {
        unlinkSync(lockPath);
      } catch {
        // Someone else removed it first; the retry settles who owns it.
      }
    }
  }
  openHere.add(path);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    openHere.delete(path);
    try {
      if (readOwner(lockPath) === process.pid) unlinkSync(lockPath);
    } catch {
      // Already gone.
    }
  };
}

function readOwner(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
