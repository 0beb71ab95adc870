/**
 * Starting and stopping the sqlite store's threads. Both are plain-JS modules started without the parent's
 * flags: a worker does not get the parent's TypeScript loader hooks anyway, and re-running `--import tsx` in
 * each thread would add most of a second to every open.
 */
import { Worker } from 'node:worker_threads';
import { StorageUnavailableError } from '../interface.ts';
import type { CheckpointerInit, FromWorker, WorkerInit } from './protocol.ts';

const WRITER = new URL('./worker.mjs', import.meta.url);
const CHECKPOINTER = new URL('./checkpointer.mjs', import.meta.url);

/** Starts the writer and waits until it has opened (or created) the database; terminates it on failure. */
export async function startWriter(init: WorkerInit): Promise<{ worker: Worker; revision: number }> {
  const worker = new Worker(WRITER, { workerData: init, execArgv: [] });
  try {
    const ready = await new Promise<{ revision: number }>((resolve, reject) => {
      const onError = (err: Error): void => reject(new StorageUnavailableError(`cannot open ${init.path}: ${err.message}`));
      worker.once('error', onError);
      worker.once('message', (m: FromWorker) => {
        worker.off('error', onError);
        if (m.type === 'ready') resolve(m);
        else reject(new StorageUnavailableError(`cannot open ${init.path}: ${m.type === 'fatal' ? m.message : m.type}`));
      });
    });
    return { worker, revision: ready.revision };
  } catch (err) {
    await worker.terminate();
    throw err;
  }
}

/**
 * Starts the WAL checkpointer thread without waiting for it: until it runs (or if it fails) the writer's own
 * rare automatic checkpoint still bounds the WAL.
 */
export function startCheckpointer(init: CheckpointerInit): Worker {
  const w = new Worker(CHECKPOINTER, { workerData: init, execArgv: [] });
  w.on('error', () => {}); // a failed checkpointer only costs the writer an occasional inline checkpoint
  return w;
}

export async function stopCheckpointer(w: Worker): Promise<void> {
  if (w.threadId < 0) return; // already exited
  await new Promise<void>((resolve) => {
    w.once('exit', () => resolve());
    w.postMessage({ type: 'stop' });
    setTimeout(() => void w.terminate(), 5000).unref();
  });
}
