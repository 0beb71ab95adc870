/**
 * Watches one file for changes as kube's filesystem.WatchUntil does: file-system notifications (on the
 * directory, so editors' and kubelet's rename-into-place writes are seen) plus a periodic check. Calls are
 * serialized: `onChange` never runs twice at once, and a change seen while it runs triggers one more call.
 *
 * Invariant: after `stop()` no watcher, timer or further call remains.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface FileWatchOptions {
  readonly file: string;
  /** Periodic check (kube: 1 minute). */
  readonly intervalMs: number;
  readonly onChange: () => Promise<void>;
  readonly log: (line: string) => void;
}

export interface FileWatch {
  /** Runs a check now (and waits for it), as a notification would. */
  poke(): Promise<void>;
  stop(): void;
}

export function watchFile(o: FileWatchOptions): FileWatch {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          try {
            await o.onChange();
          } catch (e) {
            o.log(`watching ${o.file}: ${(e as Error).message}`);
          }
        } while (again && !stopped);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  let watcher: FSWatcher | undefined;
  const base = path.basename(o.file);
  try {
    watcher = watch(path.dirname(o.file), { persistent: false }, (_event, name) => {
      if (name === null || name === base || String(name) === base) void run();
    });
    watcher.on('error', (e) => o.log(`watching ${o.file}: ${e.message}`));
  } catch (e) {
    o.log(`watching ${o.file}: ${(e as Error).message}; relying on the periodic check`);
  }
  const timer = setInterval(() => void run(), o.intervalMs);
  timer.unref();
  return {
    poke: run,
    stop() {
      stopped = true;
      clearInterval(timer);
      watcher?.close();
    },
  };
}
