/**
 * Snapshots of an embedded data directory (`keelson snapshot save|restore`).
 *
 * A snapshot is one SQLite file: the store's database as of one read transaction (`VACUUM INTO` on a read-only
 * connection, so it is consistent while a server writes: WAL readers see one commit boundary and never block
 * the writer), plus two tables of our own: `keelson_snapshot` (format, revision, time) and
 * `keelson_snapshot_files` (every other file of the data directory: the PKI, the service account key, the
 * admin kubeconfig), so a restored directory serves with the same certificates and keys and existing
 * kubeconfigs and service account tokens keep working.
 *
 * Restore checks the file (SQLite's integrity check, our format marker, the store's tables), refuses a
 * non-empty directory unless forced and a directory a running server holds (the store lock), writes the
 * database and files, then opens the restored store and runs its own integrity check.
 */
import { chmodSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import Database from 'better-sqlite3';
import { StorageError } from '../interface.ts';
import { acquireStoreLock } from './lock.ts';
import { openSqliteStore } from './sqlite-store.ts';

/** The store's file inside a data directory (../factory.ts SQLITE_FILE). */
const DB_FILE = 'keelson.db';
const FORMAT = 'keelson-snapshot/v1';
/** The database and its SQLite companions are the snapshot's body, not files to carry. */
const DB_FILES = new Set([DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, `${DB_FILE}-lock`, `${DB_FILE}.lock`, `${DB_FILE}-journal`]);

export class SnapshotError extends StorageError {
  override name = 'SnapshotError';
}

export interface SnapshotSummary {
  readonly revision: number;
  readonly keys: number;
  readonly files: readonly string[];
  readonly bytes: number;
}

/** Regular files under `dir` (relative, `/`-separated), the database files and `skip` excluded. */
function carriedFiles(dir: string, skip: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (resolve(p) === skip) continue;
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !(d === dir && DB_FILES.has(e.name)) && !e.name.includes('.snapshot-tmp-')) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

function storeFacts(db: Database.Database): { revision: number; keys: number } {
  const revision = (db.prepare("SELECT value FROM meta WHERE name = 'revision'").get() as { value: number } | undefined)?.value ?? 0;
  const keys = (db.prepare('SELECT count(*) AS n FROM current').get() as { n: number }).n;
  return { revision: Number(revision), keys: Number(keys) };
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a snapshot of `dataDir` to `file` (refused when `file` exists, unless `force`). */
export function saveSnapshot(dataDir: string, file: string, opts: { force?: boolean } = {}): SnapshotSummary {
  const dir = resolve(dataDir);
  const dbPath = join(dir, DB_FILE);
  const out = resolve(file);
  if (!existsSync(dbPath)) throw new SnapshotError(`no Keelson store in ${dir} (${DB_FILE} is missing)`);
  if (existsSync(out) && !opts.force) throw new SnapshotError(`${out} already exists (pass --force to overwrite it)`);
  const tmp = `${out}.snapshot-tmp-${process.pid}`;
  rmSync(tmp, { force: true });
  try {
    const src = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      src.pragma('busy_timeout = 5000');
      src.prepare('VACUUM INTO ?').run(tmp);
    } finally {
      src.close();
    }
    const snap = new Database(tmp);
    let summary: SnapshotSummary;
    try {
      const facts = storeFacts(snap);
      const files = carriedFiles(dir, out);
      let bytes = 0;
      snap.exec('CREATE TABLE keelson_snapshot (name TEXT PRIMARY KEY, value TEXT NOT NULL)');
      snap.exec('CREATE TABLE keelson_snapshot_files (path TEXT PRIMARY KEY, mode INTEGER NOT NULL, content BLOB NOT NULL)');
      const put = snap.prepare('INSERT INTO keelson_snapshot_files (path, mode, content) VALUES (?, ?, ?)');
      const meta = snap.prepare('INSERT INTO keelson_snapshot (name, value) VALUES (?, ?)');
      snap.transaction(() => {
        for (const f of files) {
          const p = join(dir, f);
          const content = readFileSync(p);
          bytes += content.byteLength;
          put.run(f, statSync(p).mode & 0o777, content);
        }
        meta.run('format', FORMAT);
        meta.run('revision', String(facts.revision));
        meta.run('created', new Date().toISOString());
      })();
      summary = { ...facts, files, bytes };
    } finally {
      snap.close();
    }
    syncFile(tmp);
    renameSync(tmp, out);
    return summary;
  } catch (err) {
    rmSync(tmp, { force: true });
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(`cannot save a snapshot of ${dir}: ${(err as Error).message}`);
  }
}

/** Opens and checks a snapshot file; the caller closes the handle. */
function openChecked(file: string): Database.Database {
  if (!existsSync(file)) throw new SnapshotError(`${file} does not exist`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new SnapshotError(`${file} is not a Keelson snapshot: ${(err as Error).message}`);
  }
  try {
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new SnapshotError(`${file} is damaged (SQLite integrity check: ${String(check)})`);
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
    for (const t of ['keelson_snapshot', 'keelson_snapshot_files', 'log', 'current', 'meta']) {
      if (!tables.has(t)) throw new SnapshotError(`${file} is not a Keelson snapshot (no table ${t})`);
    }
    const format = (db.prepare("SELECT value FROM keelson_snapshot WHERE name = 'format'").get() as { value: string } | undefined)?.value;
    if (format !== FORMAT) throw new SnapshotError(`${file} has snapshot format ${JSON.stringify(format)}; this Keelson reads ${FORMAT}`);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof SnapshotError) throw err;
    // Not a database at all, or truncated: SQLite says so when it first reads a page.
    throw new SnapshotError(`${file} is not a Keelson snapshot: ${(err as Error).message}`);
  }
}

/** A file path from the snapshot, refused when it would land outside the data directory. */
function inside(dir: string, path: string): string {
  const p = resolve(dir, path);
  if (!p.startsWith(`${dir}${sep}`) || DB_FILES.has(relative(dir, p))) throw new SnapshotError(`the snapshot carries a file with a bad path ${JSON.stringify(path)}`);
  return p;
}

/**
 * Restores a snapshot into `dataDir`. Refused when the directory is not empty (unless `force`, which
 * replaces its contents) or a server is using it.
 */
export async function restoreSnapshot(file: string, dataDir: string, opts: { force?: boolean } = {}): Promise<SnapshotSummary> {
  const src = resolve(file);
  const dir = resolve(dataDir);
  const snap = openChecked(src);
  let files: { path: string; mode: number; content: Buffer }[];
  let facts: { revision: number; keys: number };
  try {
    files = snap.prepare('SELECT path, mode, content FROM keelson_snapshot_files ORDER BY path').all() as typeof files;
    facts = storeFacts(snap);
  } finally {
    snap.close();
  }
  const entries = existsSync(dir) ? readdirSync(dir) : [];
  if (entries.length > 0 && !opts.force) {
    throw new SnapshotError(`${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}); pass --force to replace its contents`);
  }
  mkdirSync(dir, { recursive: true });
  const dbPath = join(dir, DB_FILE);
  // A server on this directory holds the lock: restoring under it would corrupt what it serves.
  const release = await acquireStoreLock(dbPath, { waitMs: 500 });
  try {
    for (const e of readdirSync(dir)) {
      if (e !== `${DB_FILE}-lock`) rmSync(join(dir, e), { recursive: true, force: true });
    }
    const tmp = join(dir, `${DB_FILE}.snapshot-tmp-${process.pid}`);
    copyFileSync(src, tmp);
    const db = new Database(tmp);
    try {
      db.exec('DROP TABLE keelson_snapshot_files; DROP TABLE keelson_snapshot; VACUUM');
    } finally {
      db.close();
    }
    let bytes = 0;
    for (const f of files) {
      const p = inside(dir, f.path);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, f.content, { mode: f.mode });
      chmodSync(p, f.mode);
      bytes += f.content.byteLength;
    }
    syncFile(tmp);
    renameSync(tmp, dbPath);
    const summary = { ...facts, files: files.map((f) => f.path), bytes };
    release();
    // The restored store must open and pass its own invariants before we call it restored.
    const store = await openSqliteStore({ path: dbPath });
    try {
      const problems = await store.checkIntegrity!();
      if (problems.length) throw new SnapshotError(`the restored store in ${dir} fails its integrity check: ${problems.join('; ')}`);
    } finally {
      await store.close();
    }
    return summary;
  } finally {
    release();
  }
}
