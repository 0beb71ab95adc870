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
 *
 * The DDL and writer pragmas (WAL, synchronous=FULL, incremental auto_vacuum) live in worker.mjs, which
 * creates the database; this module holds what the main-thread readers need.
 */
import type Database from 'better-sqlite3';

/**
 * Page cache per connection (writer and main-thread reader), in KiB. Small on purpose: the OS page cache
 * holds the file anyway, most reads are answered by the watch cache, and a writer's work per commit is a few
 * B-tree descents whose interior pages stay cached even at this size. At 32 MiB each, both connections grew to
 * hold the same pages (≈ 25 MB of RSS at 10k 1-KiB objects) without faster writes (BENCHMARKS.md, "Memory per
 * object, second round").
 */
export const DEFAULT_CACHE_KIB = 2048;

/** Pragmas of a main-thread reader connection: never writes, waits briefly during checkpoints. */
export function configureReader(db: Database.Database, cacheKiB: number = DEFAULT_CACHE_KIB): void {
  db.pragma('query_only = 1');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = ${-Math.max(64, Math.floor(cacheKiB))}`);
}

/** Upper bound for a range over every key (empty prefix): above any valid UTF-8 key SQLite compares. */
export const MAX_KEY = '\u{10FFFF}\u{10FFFF}';
