// @ts-check
/**
 * Range thread (plain JavaScript: starts without a TypeScript loader). Serves the pages of a large scan — the
 * watch cache filling from a big store — on its own read connection, so that SQLite's stepping and the Buffer
 * better-sqlite3 makes per value (most of a 100k-object restart's main-thread time) happen on another core
 * while the main thread decodes the previous page. Each page goes back as one transferred buffer of values
 * with their keys and revisions; the main thread splits it with cheap copies (range-thread.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const init = /** @type {import('./protocol.ts').RangeThreadInit} */ (workerData);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const db = new Database(init.path, { fileMustExist: true });
db.pragma('query_only = 1');
db.pragma('busy_timeout = 5000');
// Pages are read once, in key order: a small cache is enough.
db.pragma('cache_size = -2048');
const q = {
  meta: db.prepare(init.sql.meta),
  rangeCur: db.prepare(init.sql.rangeCur).raw(true),
  countCur: db.prepare(init.sql.countCur).pluck(),
  rangePast: db.prepare(init.sql.rangePast).raw(true),
  countPast: db.prepare(init.sql.countPast).pluck(),
};

/** The same revision rules as the main-thread reader (reader.ts checkRevision), inside the page's transaction. */
const readPage = db.transaction((/** @type {import('./protocol.ts').RangePageRequest} */ m) => {
  const meta = /** @type {{ revision: number, compacted: number }} */ (q.meta.get());
  const current = m.revision === 0 || m.revision === meta.revision;
  if (!current && m.revision > meta.revision) return { id: m.id, ok: false, error: 'future', requested: m.revision, current: meta.revision };
  if (!current && m.revision < meta.compacted) return { id: m.id, ok: false, error: 'compacted', requested: m.revision, compacted: meta.compacted };
  const revision = current ? meta.revision : m.revision;
  const count = /** @type {number} */ (current ? q.countCur.get(m.from, m.end) : q.countPast.get(m.from, m.end, revision));
  const rows = /** @type {[string, number, number, number, Uint8Array | null][]} */ (
    current ? q.rangeCur.all(m.from, m.end, m.limit) : q.rangePast.all(m.from, m.end, revision, m.limit));
  let total = 0;
  for (const r of rows) total += r[4] ? r[4].byteLength : 0;
  const values = new Uint8Array(total);
  const offsets = new Uint32Array(rows.length + 1);
  const nums = new Float64Array(rows.length * 3);
  const keys = new Array(rows.length);
  let at = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    keys[i] = r[0];
    nums[3 * i] = r[1];
    nums[3 * i + 1] = r[2];
    nums[3 * i + 2] = r[3];
    if (r[4]) {
      values.set(r[4], at);
      at += r[4].byteLength;
    }
    offsets[i + 1] = at;
  }
  return { id: m.id, ok: true, keys, values, offsets, nums, more: m.limit > 0 && count > m.limit, count, revision };
});

/**
 * The page after the last one answered, read while the main thread decodes that one: scans ask for their pages
 * in order, each starting right after the previous page's last key at the same revision. A page at a fixed
 * revision reads the same whenever it is read, so answering it early changes nothing.
 */
/** @type {{ from: string, end: string, limit: number, revision: number, reply: ReturnType<typeof readPage> } | undefined} */
let ahead;

/** @param {import('./protocol.ts').RangePageRequest} m */
function answer(m) {
  const a = ahead;
  ahead = undefined;
  const r = a && a.from === m.from && a.end === m.end && a.limit === m.limit && a.revision === m.revision
    ? { ...a.reply, id: m.id }
    : readPage(m);
  if (r.ok) port.postMessage(r, [r.values.buffer, r.offsets.buffer, r.nums.buffer]);
  else port.postMessage(r);
  if (r.ok && r.more && r.keys.length > 0) {
    const next = { type: /** @type {const} */ ('range'), id: 0, from: `${r.keys[r.keys.length - 1]}\0`, end: m.end, limit: m.limit, revision: r.revision };
    try {
      ahead = { ...next, reply: readPage(next) };
    } catch {
      // Read again when asked, and fail then if it still fails.
    }
  }
}

port.on('message', (/** @type {import('./protocol.ts').RangePageRequest | { type: 'stop' }} */ m) => {
  if (m.type === 'stop') {
    db.close();
    port.close();
    return;
  }
  try {
    answer(m);
  } catch (err) {
    port.postMessage({ id: m.id, ok: false, error: 'sqlite', message: err instanceof Error ? err.message : String(err) });
  }
});
