/**
 * Main-thread reads of the sqlite store over its own connection. WAL lets it read while the worker writes;
 * each read is one statement or one read transaction, so items, counts and the revision reported with them
 * come from one consistent snapshot. Reads are short and never fsync, so they run synchronously.
 */
import Database from 'better-sqlite3';
import { CompactedError, FutureRevisionError, type KeyValue, type RangeOptions, type RangeResult, type WatchEvent } from '../interface.ts';
import { stringPrefixEnd } from '../memory/backend-support.ts';
import type { HistoryPage } from '../memory/watch-hub.ts';
import type { RangeSql } from './protocol.ts';
import { configureReader, MAX_KEY } from './schema.ts';

interface Row {
  key: string;
  rev: number;
  create_rev: number;
  version: number;
  value: Buffer | null;
}

/** A range row as an array (`Statement.raw`): a list of 10k+ rows skips building an object per row. */
type RangeRow = [key: string, rev: number, createRev: number, version: number, value: Buffer | null];

interface LogRow extends Row {
  deleted: number;
  prev_rev: number;
  p_value: Buffer | null;
  p_create_rev: number | null;
  p_version: number | null;
}

const EMPTY = new Uint8Array(0);
/** Revisions scanned per watch-replay page, so one page never blocks the event loop for long. */
const HISTORY_SCAN = 20_000;

const CUR_COLS = 'c.key, c.rev, c.create_rev, c.version';
const PAST_INNER = 'SELECT max(rev) AS r FROM log WHERE key >= ? AND key < ? AND rev <= ? GROUP BY key';

/**
 * The statements a value range runs, shared with the range thread (range-worker.mjs), which prepares the same
 * text on its own connection. Rows are [key, rev, create_rev, version, value].
 */
export const RANGE_SQL: RangeSql = {
  meta: "SELECT (SELECT value FROM meta WHERE name = 'revision') AS revision, (SELECT value FROM meta WHERE name = 'compacted') AS compacted",
  rangeCur: `SELECT ${CUR_COLS}, l.value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key >= ? AND c.key < ? ORDER BY c.key LIMIT ?`,
  countCur: 'SELECT count(*) AS n FROM current WHERE key >= ? AND key < ?',
  rangePast: `SELECT l.key, l.rev, l.create_rev, l.version, l.value FROM (${PAST_INNER}) m JOIN log l ON l.rev = m.r WHERE l.deleted = 0 ORDER BY l.key LIMIT ?`,
  countPast: `SELECT count(*) AS n FROM (${PAST_INNER}) m JOIN log l ON l.rev = m.r WHERE l.deleted = 0`,
};

/** Where a range over `prefix` starts and ends, and its row limit (-1: none), as SQL takes them. */
export function rangeBounds(prefix: string, opts: RangeOptions): { from: string; end: string; limit: number } {
  return {
    from: opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix,
    end: stringPrefixEnd(prefix) ?? MAX_KEY,
    limit: opts.limit && opts.limit > 0 ? opts.limit : -1,
  };
}

export class SqliteReader {
  private readonly db: Database.Database;
  private readonly q;

  constructor(path: string, cacheKiB?: number) {
    this.db = new Database(path, { fileMustExist: true });
    configureReader(this.db, cacheKiB);
    const db = this.db;
    const sql = RANGE_SQL;
    this.q = {
      meta: db.prepare<[], { revision: number; compacted: number }>(sql.meta),
      getCur: db.prepare<[string], Row>(`SELECT ${CUR_COLS}, l.value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key = ?`),
      getPast: db.prepare<[string, number], Row & { deleted: number }>(
        'SELECT key, rev, create_rev, version, value, deleted FROM log WHERE key = ? AND rev <= ? ORDER BY rev DESC LIMIT 1',
      ),
      rangeCur: rawRows(db.prepare<[string, string, number]>(sql.rangeCur)),
      rangeCurKeys: rawRows(db.prepare<[string, string, number]>(
        `SELECT ${CUR_COLS}, NULL AS value FROM current c WHERE c.key >= ? AND c.key < ? ORDER BY c.key LIMIT ?`,
      )),
      countCur: db.prepare<[string, string], { n: number }>(sql.countCur),
      rangePast: rawRows(db.prepare<[string, string, number, number]>(sql.rangePast)),
      rangePastKeys: rawRows(db.prepare<[string, string, number, number]>(
        `SELECT l.key, l.rev, l.create_rev, l.version, NULL AS value FROM (${PAST_INNER}) m JOIN log l ON l.rev = m.r WHERE l.deleted = 0 ORDER BY l.key LIMIT ?`,
      )),
      countPast: db.prepare<[string, string, number], { n: number }>(sql.countPast),
      history: db.prepare<[number, number, string, string, number], LogRow>(`
        SELECT l.key, l.rev, l.create_rev, l.version, l.value, l.deleted, l.prev_rev,
               p.value AS p_value, p.create_rev AS p_create_rev, p.version AS p_version
        FROM log l LEFT JOIN log p ON p.rev = l.prev_rev
        WHERE l.rev > ? AND l.rev <= ? AND l.key >= ? AND l.key < ? ORDER BY l.rev LIMIT ?`),
      expired: db.prepare<[number, number], { key: string; rev: number }>(
        'SELECT key, rev FROM current WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?',
      ),
    };
  }

  meta(): { revision: number; compacted: number } {
    return this.q.meta.get()!;
  }

  get(key: string, revision: number): KeyValue | undefined {
    return this.db.transaction(() => {
      const at = this.checkRevision(revision);
      if (at.current) return toKv(this.q.getCur.get(key));
      const row = this.q.getPast.get(key, at.revision);
      return row && !row.deleted ? toKv(row) : undefined;
    })();
  }

  range(prefix: string, opts: RangeOptions): RangeResult {
    const { from, end, limit } = rangeBounds(prefix, opts);
    return this.db.transaction((): RangeResult => {
      const at = this.checkRevision(opts.revision ?? 0);
      if (from >= end) return { items: [], more: false, count: 0, revision: at.revision };
      const count = at.current ? this.q.countCur.get(from, end)!.n : this.q.countPast.get(from, end, at.revision)!.n;
      if (opts.countOnly) return { items: [], more: false, count, revision: at.revision };
      const rows = at.current
        ? (opts.keysOnly ? this.q.rangeCurKeys : this.q.rangeCur).all(from, end, limit)
        : (opts.keysOnly ? this.q.rangePastKeys : this.q.rangePast).all(from, end, at.revision, limit);
      return { items: rows.map(rangeKv), more: limit > 0 && count > limit, count, revision: at.revision };
    })();
  }

  /** A page of watch replay: changes under `prefix` in (after, upTo]. Throws CompactedError below the compacted revision. */
  history(prefix: string, after: number, upTo: number, limit: number): HistoryPage {
    return this.db.transaction((): HistoryPage => {
      const { compacted } = this.meta();
      if (after < compacted) throw new CompactedError(after, compacted);
      const scanTo = Math.min(upTo, after + HISTORY_SCAN);
      const rows = this.q.history.all(after, scanTo, prefix, stringPrefixEnd(prefix) ?? MAX_KEY, limit);
      const events = rows.map(toEvent);
      const scannedTo = rows.length >= limit ? rows[rows.length - 1]!.rev : scanTo;
      return { events, scannedTo };
    })();
  }

  /** Keys whose TTL ran out, with the revision to guard their delete with. */
  expired(now: number, limit: number): { key: string; rev: number }[] {
    return this.q.expired.all(now, limit);
  }

  /** `PRAGMA integrity_check` plus the schema invariants (see schema.ts). Slow on big stores: diagnostics only. */
  integrity(): string[] {
    const db = this.db;
    return db.transaction((): string[] => {
      const problems: string[] = [];
      const ic = db.pragma('integrity_check') as { integrity_check: string }[];
      for (const r of ic) if (r.integrity_check !== 'ok') problems.push(`sqlite: ${r.integrity_check}`);
      const { revision, compacted } = this.meta();
      const maxRev = (db.prepare('SELECT max(rev) AS m FROM log').get() as { m: number | null }).m ?? 0;
      if (maxRev > revision) problems.push(`log revision ${maxRev} above meta revision ${revision}`);
      if (compacted > revision) problems.push(`compacted revision ${compacted} above revision ${revision}`);
      const badCur = db
        .prepare(`SELECT c.key FROM current c LEFT JOIN log l ON l.rev = c.rev
          WHERE l.rev IS NULL OR l.key != c.key OR l.deleted != 0 OR l.create_rev != c.create_rev OR l.version != c.version LIMIT 20`)
        .all() as { key: string }[];
      for (const r of badCur) problems.push(`current row of ${r.key} does not match its log row`);
      const badLatest = db
        .prepare(`SELECT m.key FROM (SELECT key, max(rev) AS r FROM log GROUP BY key) m JOIN log l ON l.rev = m.r
          LEFT JOIN current c ON c.key = m.key
          WHERE (l.deleted = 0 AND (c.rev IS NULL OR c.rev != m.r)) OR (l.deleted = 1 AND c.key IS NOT NULL) LIMIT 20`)
        .all() as { key: string }[];
      for (const r of badLatest) problems.push(`current state of ${r.key} disagrees with its newest log row`);
      const orphans = (db
        .prepare('SELECT count(*) AS n FROM log l LEFT JOIN log p ON p.rev = l.prev_rev WHERE l.prev_rev != 0 AND l.rev > ? AND (p.rev IS NULL OR p.key != l.key)')
        .get(compacted) as { n: number }).n;
      if (orphans > 0) problems.push(`${orphans} log rows above the compacted revision lost their previous value`);
      return problems;
    })();
  }

  close(): void {
    this.db.close();
  }

  private checkRevision(revision: number): { current: boolean; revision: number } {
    const meta = this.meta();
    if (revision === 0 || revision === meta.revision) return { current: true, revision: meta.revision };
    if (revision > meta.revision) throw new FutureRevisionError(revision, meta.revision);
    if (revision < meta.compacted) throw new CompactedError(revision, meta.compacted);
    return { current: false, revision };
  }
}

function rawRows<P extends unknown[]>(st: Database.Statement<P>): Database.Statement<P, RangeRow> {
  return st.raw(true) as unknown as Database.Statement<P, RangeRow>;
}

function rangeKv(r: RangeRow): KeyValue {
  return { key: r[0], value: r[4] ?? EMPTY, createRevision: r[2], modRevision: r[1], version: r[3] };
}

function toKv(r: Row | undefined): KeyValue | undefined {
  if (!r) return undefined;
  return { key: r.key, value: r.value ?? EMPTY, createRevision: r.create_rev, modRevision: r.rev, version: r.version };
}

function toEvent(r: LogRow): WatchEvent {
  const prevKv: KeyValue | undefined =
    r.prev_rev && r.p_value !== null
      ? { key: r.key, value: r.p_value, createRevision: r.p_create_rev!, modRevision: r.prev_rev, version: r.p_version! }
      : undefined;
  if (r.deleted) {
    return { type: 'delete', kv: { key: r.key, value: EMPTY, createRevision: 0, modRevision: r.rev, version: 0 }, prevKv: prevKv! };
  }
  const kv: KeyValue = { key: r.key, value: r.value ?? EMPTY, createRevision: r.create_rev, modRevision: r.rev, version: r.version };
  return prevKv ? { type: 'put', kv, prevKv } : { type: 'put', kv };
}
