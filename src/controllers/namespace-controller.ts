/**
 * Watches namespaces and drives the deleter for each one with a deletionTimestamp. While content remains
 * (objects waiting on finalizers), the namespace is synced again with backoff (100 ms doubling to 5 s), as
 * kube's controller requeues on ResourcesRemainingError.
 */
import type { KObject } from '../machinery/objects.ts';
import type { Informer } from '../client/informer.ts';
import type { NamespaceDeleter } from './namespace-deleter.ts';
import type { Logger } from '../registry/system-context.ts';
import { WorkQueue } from '../client/work-queue.ts';

export interface NamespaceControllerOptions {
  namespaces: Informer;
  deleter: NamespaceDeleter;
  log?: Logger;
  /** First wait while content remains; doubles up to `maxRequeueMs`. */
  requeueMs?: number;
  maxRequeueMs?: number;
}

export class NamespaceController {
  readonly queue: WorkQueue;
  private readonly waits = new Map<string, number>();

  constructor(private readonly opts: NamespaceControllerOptions) {
    this.queue = new WorkQueue({ name: 'namespace', process: (k) => this.sync(k), concurrency: 2, baseDelayMs: 50, maxDelayMs: 5000, ...(opts.log ? { log: opts.log } : {}) });
    opts.namespaces.addHandler({
      onAdd: (ns) => { if (ns.metadata.deletionTimestamp) this.queue.add(ns.metadata.name ?? ''); },
      // Only transitions that matter: our own status writes must not wake us again (no hot loop).
      onUpdate: (old, ns) => {
        if (!ns.metadata.deletionTimestamp) return;
        if (!old.metadata.deletionTimestamp || finalizersOf(old) !== finalizersOf(ns)) this.queue.add(ns.metadata.name ?? '');
      },
    });
  }

  private async sync(name: string) {
    const out = await this.opts.deleter.delete(name);
    if (out.finalized || out.remaining === 0) {
      this.waits.delete(name);
      return;
    }
    const wait = Math.min(this.waits.get(name) ?? this.opts.requeueMs ?? 100, this.opts.maxRequeueMs ?? 5000);
    this.waits.set(name, wait * 2);
    return { requeueAfterMs: wait };
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}

function finalizersOf(ns: KObject): string {
  const spec = ns.spec as { finalizers?: string[] } | undefined;
  return JSON.stringify([spec?.finalizers ?? [], ns.metadata.finalizers ?? []]);
}
