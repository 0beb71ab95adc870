/**
 * The sqlite store's writer thread. It owns the only write connection, so every fsync happens here and never
 * on the event loop. Each `write` message is one batch, committed as one transaction: guards are checked in
 * order inside it, revisions assigned consecutively, and the answer is posted only after COMMIT returned
 * (WAL + synchronous=FULL: the batch is on disk). If the batch fails as a whole (disk full, I/O error), it is
 * rolled back and retried one operation per transaction, so only the operations that really fail report an
 * error and nothing partial is ever visible.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { FromWorker, OpResult, StoredKv, ToWorker, WorkerInit, WriteOp } from './protocol.ts';
import { configureWriter } from './schema.ts';

const EMPTY = Buffer.alloc(0);

interface CurRow {
  rev: number;
  create_rev: number;
  version: number;
  value: Buffer;
}

function start(init: WorkerInit): void {
  const port = parentPort!;
  const post = (m: FromWorker): void => port.postMessage(m);
  let db: Database.Database;
  try {
    db = new Database(init.path);
    configureWriter(db, init.maxPageCount);
  } catch (err) {
    post({ type: 'fatal', message: (err as Error).message });
    return;
  }

  const q = {
    cur: db.prepare<[string], CurRow>('SELECT c.rev, c.create_rev, c.version, l.value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key = ?'),
    insLog: db.prepare('INSERT INTO log (rev, key, value, create_rev, version, deleted, prev_rev) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    insCur: db.prepare('INSERT INTO current (key, rev, create_rev, version, expires_at) VALUES (?, ?, ?, ?, ?)'),
    updCur: db.prepare('UPDATE current SET rev = ?, version = ?, expires_at = ? WHERE key = ?'),
    delCur: db.prepare('DELETE FROM current WHERE key = ?'),
    getMeta: db.prepare<[string], { value: number }>('SELECT value FROM meta WHERE name = ?'),
    setMeta: db.prepare('UPDATE meta SET value = ? WHERE name = ?'),
    compact: db.prepare(`
      DELETE FROM log WHERE rev <= @c
        AND key IN (SELECT DISTINCT key FROM log WHERE rev > @prev AND rev <= @c)
        AND (deleted = 1 OR rev < (SELECT max(n.rev) FROM log n WHERE n.key = log.key AND n.rev <= @c))`),
  };

  let revision = q.getMeta.get('revision')!.value;
  let compacted = q.getMeta.get('compacted')!.value;

  const stored = (r: CurRow): StoredKv => ({ value: r.value, createRev: r.create_rev, modRev: r.rev, version: r.version });

  /** Applies one operation inside the open transaction. */
  const apply = (o: WriteOp): OpResult => {
    const cur = q.cur.get(o.key);
    switch (o.op) {
      case 'create': {
        if (cur) return { ok: false, current: stored(cur) };
        const rev = ++revision;
        q.insLog.run(rev, o.key, buf(o.value), rev, 1, 0, 0);
        q.insCur.run(o.key, rev, rev, 1, o.expiresAt);
        return { ok: true, rev, createRev: rev, version: 1 };
      }
      case 'update': {
        if (!cur || cur.rev !== o.expected) return cur ? { ok: false, current: stored(cur) } : { ok: false };
        const rev = ++revision;
        q.insLog.run(rev, o.key, buf(o.value), cur.create_rev, cur.version + 1, 0, cur.rev);
        q.updCur.run(rev, cur.version + 1, o.expiresAt, o.key);
        return { ok: true, rev, createRev: cur.create_rev, version: cur.version + 1, prev: stored(cur) };
      }
      case 'delete': {
        if (!cur || (o.expected !== null && cur.rev !== o.expected)) return cur ? { ok: false, current: stored(cur) } : { ok: false };
        const rev = ++revision;
        q.insLog.run(rev, o.key, EMPTY, 0, 0, 1, cur.rev);
        q.delCur.run(o.key);
        return { ok: true, rev, createRev: 0, version: 0, prev: stored(cur) };
      }
    }
  };

  const runBatch = db.transaction((ops: readonly WriteOp[]): OpResult[] => {
    const results = ops.map(apply);
    q.setMeta.run(revision, 'revision');
    return results;
  });

  /** Commits the batch; on failure rolls back (revision too) and retries operation by operation. */
  const write = (ops: readonly WriteOp[]): OpResult[] => {
    const before = revision;
    try {
      return runBatch.immediate(ops);
    } catch (err) {
      revision = before;
      if (ops.length === 1) return [{ ok: 'error', message: describe(err) }];
    }
    return ops.map((o) => {
      const was = revision;
      try {
        return runBatch.immediate([o])[0]!;
      } catch (err) {
        revision = was;
        return { ok: 'error', message: describe(err) };
      }
    });
  };

  const compact = (target: number): void => {
    if (target <= compacted) return;
    db.transaction(() => {
      q.compact.run({ c: target, prev: compacted });
      q.setMeta.run(target, 'compacted');
    }).immediate();
    compacted = target;
    // Give freed pages back to the file system and keep the WAL short: bounded disk use.
    db.pragma('incremental_vacuum');
    db.pragma('wal_checkpoint(TRUNCATE)');
  };

  port.on('message', (m: ToWorker) => {
    switch (m.type) {
      case 'write':
        post({ type: 'written', id: m.id, results: write(m.ops), revision });
        return;
      case 'compact':
        try {
          compact(m.revision);
          post({ type: 'done', id: m.id });
        } catch (err) {
          post({ type: 'done', id: m.id, error: describe(err) });
        }
        return;
      case 'close':
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          // A checkpoint is an optimisation; closing must still happen.
        }
        db.close();
        post({ type: 'done', id: m.id });
        port.close();
        return;
    }
  });
  post({ type: 'ready', revision, compacted });
}

/** A Buffer view of the posted bytes (no copy): better-sqlite3 binds Buffers as BLOBs. */
function buf(v: Uint8Array): Buffer {
  return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}` : String(e.message ?? err);
}

start(workerData as WorkerInit);
