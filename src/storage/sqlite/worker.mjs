// @ts-check
/**
 * The sqlite store's writer thread (plain JavaScript so the thread starts without a TypeScript loader; its
 * messages are typed in protocol.ts, the layout is documented in schema.ts).
 *
 * It owns the only write connection, so every fsync happens here and never on the event loop. Each `write`
 * message is one batch, committed as one transaction: guards are checked in order inside it, revisions are
 * assigned consecutively, and the answer is posted only after COMMIT returned (WAL + synchronous=FULL: the
 * batch is on disk). If a batch fails as a whole (disk full, I/O error) it is rolled back and retried one
 * operation per transaction, so only the operations that really fail report an error and nothing partial is
 * ever visible.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @typedef {import('./protocol.ts').WorkerInit} WorkerInit */
/** @typedef {import('./protocol.ts').WriteOp} WriteOp */
/** @typedef {import('./protocol.ts').OpResult} OpResult */
/** @typedef {import('./protocol.ts').StoredKv} StoredKv */
/** @typedef {import('./protocol.ts').ToWorker} ToWorker */
/** @typedef {import('./protocol.ts').FromWorker} FromWorker */
/** @typedef {{ rev: number, create_rev: number, version: number, value: Buffer }} CurRow */

const EMPTY = Buffer.alloc(0);
const SCHEMA_VERSION = 1;
/** Revisions whose superseded history one compaction transaction removes. */
const COMPACT_CHUNK_REVISIONS = 5000;

/**
 * Writer pragmas and schema. auto_vacuum must be set before the first table exists.
 * @param {Database.Database} db
 * @param {number | undefined} maxPageCount
 * @param {number} cacheKiB page cache size (see DEFAULT_CACHE_KIB in schema.ts)
 */
function configure(db, maxPageCount, cacheKiB) {
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('journal_size_limit = 67108864'); // cap the WAL file after checkpoints: bounded disk use
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = ${-Math.max(64, Math.floor(cacheKiB))}`);
  // The checkpointer thread keeps the WAL short; this only triggers if it falls far behind (≈ 80 MB).
  db.pragma('wal_autocheckpoint = 20000');
  if (maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPageCount)}`);
  db.exec(`
    CREATE TABLE IF NOT EXISTS log (
      rev INTEGER PRIMARY KEY,
      key TEXT NOT NULL,
      value BLOB NOT NULL,
      create_rev INTEGER NOT NULL,
      version INTEGER NOT NULL,
      deleted INTEGER NOT NULL,
      prev_rev INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS log_key_rev ON log (key, rev);
    CREATE TABLE IF NOT EXISTS current (
      key TEXT PRIMARY KEY,
      rev INTEGER NOT NULL,
      create_rev INTEGER NOT NULL,
      version INTEGER NOT NULL,
      expires_at INTEGER
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS current_expiry ON current (expires_at) WHERE expires_at IS NOT NULL;
    CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
    INSERT OR IGNORE INTO meta (name, value) VALUES ('revision', 1), ('compacted', 0), ('compacted_rows', 0), ('schema', ${SCHEMA_VERSION});
  `);
}

/** @param {WorkerInit} init */
function start(init) {
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
  /** @param {FromWorker} m */
  const post = (m) => port.postMessage(m);
  /** @type {Database.Database} */
  let db;
  try {
    db = new Database(init.path);
    configure(db, init.maxPageCount, init.cacheKiB);
  } catch (err) {
    post({ type: 'fatal', message: describe(err) });
    return;
  }

  const q = {
    cur: db.prepare('SELECT c.rev, c.create_rev, c.version, l.value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key = ?'),
    insLog: db.prepare('INSERT INTO log (rev, key, value, create_rev, version, deleted, prev_rev) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    insCur: db.prepare('INSERT INTO current (key, rev, create_rev, version, expires_at) VALUES (?, ?, ?, ?, ?)'),
    updCur: db.prepare('UPDATE current SET rev = ?, version = ?, expires_at = ? WHERE key = ?'),
    delCur: db.prepare('DELETE FROM current WHERE key = ?'),
    getMeta: db.prepare('SELECT value FROM meta WHERE name = ?').pluck(),
    setMeta: db.prepare('UPDATE meta SET value = ? WHERE name = ?'),
    // History at or below @c keeps only each key's newest live row. Only keys written in (@from, @to] — a
    // slice of the revisions since the previous compaction — are looked at, so one chunk stays small.
    compact: db.prepare(`
      DELETE FROM log WHERE rev <= @c
        AND key IN (SELECT DISTINCT key FROM log WHERE rev > @from AND rev <= @to)
        AND (deleted = 1 OR rev < (SELECT max(n.rev) FROM log n WHERE n.key = log.key AND n.rev <= @c))`),
  };

  let revision = /** @type {number} */ (q.getMeta.get('revision'));
  let compacted = /** @type {number} */ (q.getMeta.get('compacted'));
  // Revisions up to here have had their superseded rows removed (lags `compacted` while a compaction runs or
  // after a crash in the middle of one; the next compaction starts from it, so nothing is left behind).
  let cleaned = /** @type {number} */ (q.getMeta.get('compacted_rows') ?? 0);

  /** @param {CurRow} r @returns {StoredKv} */
  const stored = (r) => ({ value: r.value, createRev: r.create_rev, modRev: r.rev, version: r.version });

  /**
   * Applies one operation inside the open transaction.
   * @param {WriteOp} o
   * @returns {OpResult}
   */
  const apply = (o) => {
    const cur = /** @type {CurRow | undefined} */ (q.cur.get(o.key));
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
      default:
        throw new Error(`unknown operation ${JSON.stringify(o)}`);
    }
  };

  const runBatch = db.transaction(
    /** @param {readonly WriteOp[]} ops */
    (ops) => {
      const results = ops.map(apply);
      q.setMeta.run(revision, 'revision');
      return results;
    },
  );

  /**
   * Commits the batch; on failure rolls back (the revision counter too) and retries operation by operation.
   * @param {readonly WriteOp[]} ops
   * @returns {OpResult[]}
   */
  const write = (ops) => {
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
        return runBatch.immediate([o])[0];
      } catch (err) {
        revision = was;
        return { ok: 'error', message: describe(err) };
      }
    });
  };

  /**
   * Compacts to `target` in chunks of revisions, yielding to queued write batches between chunks so a large
   * compaction never stalls commits for long. Reads below `target` fail from the first chunk on (the
   * compacted revision is recorded before any row goes).
   * @param {number} target
   */
  const compact = async (target) => {
    if (target <= compacted) return;
    q.setMeta.run(target, 'compacted'); // autocommit: its own small transaction
    compacted = target;
    for (let from = cleaned; from < target; ) {
      const to = Math.min(target, from + COMPACT_CHUNK_REVISIONS);
      db.transaction(() => {
        q.compact.run({ c: target, from, to });
        q.setMeta.run(to, 'compacted_rows');
      }).immediate();
      cleaned = from = to;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Give freed pages back to the file system and keep the WAL short: bounded disk use.
    db.pragma('incremental_vacuum');
    db.pragma('wal_checkpoint(TRUNCATE)');
  };
  /** Compactions run one after another. */
  let compactions = Promise.resolve();

  port.on('message', (/** @type {ToWorker} */ m) => {
    switch (m.type) {
      case 'write':
        post({ type: 'written', id: m.id, results: write(m.ops), revision });
        return;
      case 'compact':
        compactions = compactions.then(
          () => compact(m.revision).then(
            () => post({ type: 'done', id: m.id }),
            (err) => post({ type: 'done', id: m.id, error: describe(err) }),
          ),
        );
        return;
      case 'close':
        void compactions.then(() => closeDb(m.id));
        return;
    }
  });

  /**
   * Checkpoints, closes the database and ends the thread (after any running compaction).
   * @param {number} id
   */
  const closeDb = (id) => {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // A checkpoint is an optimisation; closing must still happen.
    }
    db.close();
    post({ type: 'done', id });
    port.close();
  };
  post({ type: 'ready', revision, compacted });
}

/**
 * A Buffer view of the posted bytes (no copy): better-sqlite3 binds Buffers as BLOBs.
 * @param {Uint8Array} v
 */
function buf(v) {
  return Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** @param {unknown} err */
function describe(err) {
  const e = /** @type {{ code?: string, message?: string }} */ (err);
  return e && e.code ? `${e.code}: ${e.message ?? ''}` : String((e && e.message) ?? err);
}

start(/** @type {WorkerInit} */ (workerData));
