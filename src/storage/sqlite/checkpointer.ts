/**
 * Background WAL checkpointer thread. SQLite's automatic checkpoint runs inside the committing transaction,
 * so every few thousand writes one commit would wait for the database file to be written and fsynced. Here a
 * separate connection copies the WAL into the database (PASSIVE: never blocks the writer or readers) on a
 * timer, so commits only ever pay for their own WAL fsync and the WAL restarts from the beginning once it
 * has been copied (bounded disk use). The writer keeps a high automatic-checkpoint threshold as a safety net.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export interface CheckpointerInit {
  readonly module: string;
  readonly path: string;
  readonly intervalMs: number;
}

const init = workerData as CheckpointerInit;
const db = new Database(init.path, { fileMustExist: true });
db.pragma('busy_timeout = 100');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or I/O trouble: the next tick (or the writer's own safety-net checkpoint) catches up.
  }
}, init.intervalMs);
parentPort!.on('message', (m: { type: string }) => {
  if (m.type !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort!.postMessage({ type: 'stopped' });
  parentPort!.close();
});
parentPort!.postMessage({ type: 'ready' });
