/**
 * The file behind `--audit-log-path`, rotated as kube's lumberjack.Logger does: when a write would pass
 * `--audit-log-maxsize` megabytes (0 = lumberjack's 100), the file is renamed to `<name>-<UTC time>.<ext>`
 * (time as 2006-01-02T15-04-05.000) and a new one opened; then backups beyond `--audit-log-maxbackup`, older than
 * `--audit-log-maxage` days, are removed and, with `--audit-log-compress`, the rest gzipped. Writes are
 * synchronous so a blocking backend knows whether the line reached the file.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const MEGABYTE = 1024 * 1024;
/** lumberjack's defaultMaxSize (megabytes) when MaxSize is 0. */
const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RotationOptions {
  readonly maxSizeMB: number;
  readonly maxBackups: number;
  readonly maxAgeDays: number;
  readonly compress: boolean;
  /** For tests: the clock used for backup names and ages. */
  readonly now?: () => Date;
}

/** `2006-01-02T15-04-05.000` in UTC. */
function backupStamp(d: Date): string {
  return d.toISOString().slice(0, 23).replace(/:/g, '-');
}

function parseStamp(s: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)\.(\d{3})$/.exec(s);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;
  private readonly maxBytes: number;
  private readonly now: () => Date;

  constructor(readonly file: string, private readonly o: RotationOptions) {
    this.dir = path.dirname(file);
    const base = path.basename(file);
    this.ext = path.extname(base);
    this.prefix = `${base.slice(0, base.length - this.ext.length)}-`;
    this.maxBytes = (o.maxSizeMB > 0 ? o.maxSizeMB : DEFAULT_MAX_SIZE_MB) * MEGABYTE;
    this.now = o.now ?? (() => new Date());
  }

  /** kube's ensureLogFile: the directory (0700) and the file (0600) exist before serving starts. */
  ensure(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    closeSync(openSync(this.file, 'a', 0o600));
  }

  /** Appends `data` whole; throws the write's error (ENOSPC, EIO, …). */
  write(data: string | Uint8Array): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (buf.byteLength > this.maxBytes) throw new Error(`write length ${buf.byteLength} exceeds maximum file size ${this.maxBytes}`);
    if (this.fd === undefined) this.openExistingOrNew(buf.byteLength);
    else if (this.size + buf.byteLength > this.maxBytes) this.rotate();
    let off = 0;
    while (off < buf.byteLength) off += writeSync(this.fd!, buf, off, buf.byteLength - off);
    this.size += buf.byteLength;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openExistingOrNew(writeLen: number): void {
    let existing = -1;
    try {
      existing = statSync(this.file).size;
    } catch {
      // No file yet.
    }
    if (existing >= 0 && existing + writeLen < this.maxBytes) {
      this.fd = openSync(this.file, 'a', 0o600);
      this.size = fstatSync(this.fd).size;
      return;
    }
    if (existing >= 0) this.rotate();
    else this.openNew();
  }

  private openNew(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.fd = openSync(this.file, 'a', 0o600);
    this.size = 0;
  }

  /** Moves the current file aside, opens a fresh one, then prunes and compresses backups. */
  rotate(): void {
    this.close();
    try {
      renameSync(this.file, path.join(this.dir, `${this.prefix}${backupStamp(this.now())}${this.ext}`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    this.openNew();
    this.mill();
  }

  /** The backups, newest first. */
  backups(): { name: string; time: number; compressed: boolean }[] {
    const out: { name: string; time: number; compressed: boolean }[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(this.prefix)) continue;
      const compressed = name.endsWith(`${this.ext}.gz`);
      const stem = compressed ? name.slice(0, -(this.ext.length + 3)) : name.endsWith(this.ext) ? name.slice(0, name.length - this.ext.length) : undefined;
      if (stem === undefined) continue;
      const time = parseStamp(stem.slice(this.prefix.length));
      if (time !== undefined) out.push({ name, time, compressed });
    }
    return out.sort((a, b) => b.time - a.time);
  }

  private mill(): void {
    let files = this.backups();
    const remove: string[] = [];
    if (this.o.maxBackups > 0) {
      // A backup and its .gz twin count once.
      const kept = new Set<string>();
      files = files.filter((f) => {
        const key = f.compressed ? f.name.slice(0, -3) : f.name;
        if (kept.has(key)) return true;
        if (kept.size >= this.o.maxBackups) {
          remove.push(f.name);
          return false;
        }
        kept.add(key);
        return true;
      });
    }
    if (this.o.maxAgeDays > 0) {
      const cutoff = this.now().getTime() - this.o.maxAgeDays * DAY_MS;
      files = files.filter((f) => {
        if (f.time >= cutoff) return true;
        remove.push(f.name);
        return false;
      });
    }
    for (const name of remove) {
      try {
        unlinkSync(path.join(this.dir, name));
      } catch {
        // Already gone.
      }
    }
    if (!this.o.compress) return;
    for (const f of files) {
      if (f.compressed) continue;
      const src = path.join(this.dir, f.name);
      writeFileSync(`${src}.gz`, gzipSync(readFileSync(src)), { mode: 0o600 });
      unlinkSync(src);
    }
  }
}
