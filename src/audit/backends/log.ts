/**
 * kube's log backend: one line per event (json or legacy) to the rotating file or to stdout (`-`). It answers
 * false when a write fails (full disk), so blocking-strict can refuse the request.
 *
 * File writes are group-committed: the lines of every request in one turn of the event loop go to the file in
 * one write, and each caller's answer resolves after that write (so a blocking request still waits for its line,
 * but concurrent requests share the system call).
 */
import { encodeEvent, legacyLine } from '../format.ts';
import { pluginError, type AuditEvent, type Backend } from '../types.ts';
import type { RotatingFile } from './rotating-file.ts';

/** The largest group write (characters ≈ bytes for audit lines). */
const GROUP_WRITE_BYTES = 1024 * 1024;

export type LogFormat = 'json' | 'legacy';
export const LOG_FORMATS: readonly LogFormat[] = ['legacy', 'json'];

export interface LogSink {
  write(line: string): void;
  close(): void;
  /** Lines may be gathered and written together (a file); stdout's stream buffers by itself. */
  readonly grouped?: boolean;
}

/** Standard output: lines go through the process's stream (asynchronous, never throws for a full pipe). */
export const STDOUT_SINK: LogSink = {
  write: (line) => {
    process.stdout.write(line);
  },
  close: () => {},
};

export function fileSink(f: RotatingFile): LogSink {
  return { write: (line) => f.write(line), close: () => f.close(), grouped: true };
}

export class LogBackend implements Backend {
  readonly name = 'log';

  private pending: string[] = [];
  private pendingEvents = 0;
  private waiters: ((ok: boolean) => void)[] = [];
  private scheduled = false;

  constructor(private readonly sink: LogSink, private readonly format: LogFormat, private readonly log: (line: string) => void) {}

  private line(ev: AuditEvent): string {
    return this.format === 'legacy' ? legacyLine(ev) : encodeEvent(ev);
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    if (this.sink.grouped) {
      for (const ev of events) this.pending.push(this.line(ev));
      this.pendingEvents += events.length;
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
      return new Promise((resolve) => this.waiters.push(resolve));
    }
    let ok = true;
    for (const ev of events) {
      try {
        this.sink.write(this.line(ev));
      } catch (err) {
        this.log(pluginError(this.name, err, 1));
        ok = false;
      }
    }
    return ok;
  }

  private flush(): void {
    this.scheduled = false;
    const lines = this.pending;
    const waiters = this.waiters;
    const count = this.pendingEvents;
    this.pending = [];
    this.waiters = [];
    this.pendingEvents = 0;
    let ok = true;
    // Writes of at most 1 MiB (the smallest rotation size), so rotation still happens between whole lines.
    for (let i = 0; i < lines.length;) {
      let size = 0;
      let j = i;
      while (j < lines.length && (j === i || size + lines[j]!.length <= GROUP_WRITE_BYTES)) size += lines[j++]!.length;
      try {
        this.sink.write(j === i + 1 ? lines[i]! : lines.slice(i, j).join(''));
      } catch (err) {
        this.log(pluginError(this.name, err, count));
        ok = false;
        break;
      }
      i = j;
    }
    for (const w of waiters) w(ok);
  }

  shutdown(): Promise<void> {
    if (this.pending.length) this.flush();
    this.sink.close();
    return Promise.resolve();
  }
}
