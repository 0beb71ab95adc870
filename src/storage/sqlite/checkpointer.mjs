// @ts-check
/**
 * Background WAL checkpointer thread (plain JavaScript: starts without a TypeScript loader). SQLite's
 * automatic checkpoint runs inside the committing transaction, so every few thousand writes one commit would
 * wait for the database file to be written and fsynced. Here a separate connection copies the WAL into the
 * database (PASSIVE: never blocks the writer or readers) on a timer, so commits only pay for their own WAL
 * fsync, and the WAL restarts from its beginning once copied (bounded disk use). The writer keeps a high
 * automatic-checkpoint threshold as a safety net should this thread fall behind or fail.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const init = /** @type {import('./protocol.ts').CheckpointerInit} */ (workerData);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const db = new Database(init.path, { fileMustExist: true });
db.pragma('busy_timeout = 100');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or I/O trouble: the next tick (or the writer's safety-net checkpoint) catches up.
  }
}, init.intervalMs);
port.on('message', (/** @type {{ type: string }} */ m) => {
  if (m.type !== 'stop') return;
  clearInterval(timer);
  db.close();
  port.postMessage({ type: 'stopped' });
  port.close();
});
port.postMessage({ type: 'ready' });
