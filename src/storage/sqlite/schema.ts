/**
 * The sqlite store's on-disk layout.
 *
 * - `log`: append-only revision log, one row per write (rev is the global revision). Tombstones have
 *   `deleted = 1` and an empty value. `prev_rev` points at the key's previous live row (0 = the write created it).
 * - `current`: the latest live row of each key (key → rev), plus its TTL deadline.
 * - `meta`: `revision` (highest revision ever committed — kept even when history is compacted away, so
 *   revisions stay monotonic across restarts) and `compacted` (reads and watches below it fail).
 *
 * Invariants (checked by `checkIntegrity`): every `current` row points at a live `log` row of the same key,
 * create_rev and version; a key is in `current` iff its newest `log` row is live; `meta.revision` ≥ every
 * log rev; rows above `compacted` find their `prev_rev` row (watch replay needs the previous value).
 */
import type Database from 'better-sqlite3';

export const SCHEMA_VERSION = 1;

/** Pragmas of the writer connection. auto_vacuum must be set before the first table exists. */
export function configureWriter(db: Database.Database, maxPageCount?: number): void {
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // Cap the WAL file after checkpoints so disk use stays bounded.
  db.pragma('journal_size_limit = 67108864');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -32768');
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
    INSERT OR IGNORE INTO meta (name, value) VALUES ('revision', 1), ('compacted', 0), ('schema', ${SCHEMA_VERSION});
  `);
}

/** Pragmas of a main-thread reader connection: never writes, waits briefly during checkpoints. */
export function configureReader(db: Database.Database): void {
  db.pragma('query_only = 1');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -32768');
}

/** Upper bound for a range over every key (empty prefix): above any valid UTF-8 key SQLite compares. */
export const MAX_KEY = '\u{10FFFF}\u{10FFFF}';
