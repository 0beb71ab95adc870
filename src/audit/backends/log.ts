/**
 * kube's log backend: one line per event (json or legacy) to the rotating file or to stdout (`-`). It answers
 * false when a write fails (full disk), so blocking-strict can refuse the request.
 */
import { encodeEvent, legacyLine } from '../format.ts';
import { pluginError, type AuditEvent, type Backend } from '../types.ts';
import type { RotatingFile } from './rotating-file.ts';

export type LogFormat = 'json' | 'legacy';
export const LOG_FORMATS: readonly LogFormat[] = ['legacy', 'json'];

export interface LogSink {
  write(line: string): void;
  close(): void;
}

/** Standard output: lines go through the process's stream (asynchronous, never throws for a full pipe). */
export const STDOUT_SINK: LogSink = {
  write: (line) => {
    process.stdout.write(line);
  },
  close: () => {},
};

export function fileSink(f: RotatingFile): LogSink {
  return { write: (line) => f.write(line), close: () => f.close() };
}

export class LogBackend implements Backend {
  readonly name = 'log';

  constructor(private readonly sink: LogSink, private readonly format: LogFormat, private readonly log: (line: string) => void) {}

  processEvents(events: readonly AuditEvent[]): boolean {
    let ok = true;
    for (const ev of events) {
      try {
        this.sink.write(this.format === 'legacy' ? legacyLine(ev) : encodeEvent(ev));
      } catch (err) {
        this.log(pluginError(this.name, err, 1));
        ok = false;
      }
    }
    return ok;
  }

  shutdown(): Promise<void> {
    this.sink.close();
    return Promise.resolve();
  }
}
