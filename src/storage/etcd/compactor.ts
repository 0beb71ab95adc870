/**
 * Periodic compaction of etcd history, as kube-apiserver does it (`--etcd-compaction-interval`, 5 min by
 * default): etcd keeps every revision forever unless someone compacts it.
 *
 * Several API servers may share one etcd; only one of them should compact per interval. They coordinate
 * through one key, `compact_rev_key` at the etcd root (the same key kube-apiserver uses, so mixed fleets
 * agree): each tick, a server does
 *   txn(version(compact_rev_key) == the version it saw last → put compact_rev_key = R, else get it)
 * where R is the revision it recorded on its previous tick. Only the server whose view is current wins
 * the put, and it then compacts at R. Everyone else just learns the key's version and tries next tick.
 * Compacting at the revision of the previous tick keeps at least one interval of history, which is what
 * watchers that fall behind and continue tokens need.
 *
 * Invariants: at most one tick runs at a time; `stop()` ends the timer and waits for a running tick.
 */
import type { Etcd3 } from 'etcd3';

export const COMPACT_REV_KEY = 'compact_rev_key';

export interface CompactorOptions {
  readonly client: Etcd3;
  /** Milliseconds between ticks. */
  readonly intervalMs: number;
  /** Told after each compaction this server performed (keeps the store's compacted revision fresh). */
  readonly onCompacted?: (revision: number) => void;
  /** Told about failures (etcd unreachable, …); the compactor keeps going. */
  readonly onError?: (err: unknown) => void;
}

export class Compactor {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Version of compact_rev_key this server last saw (0: the key does not exist yet). */
  private seenVersion = 0;
  /** Revision recorded at the previous tick: the next compaction target (0: none yet). */
  private lastRevision = 0;

  constructor(private readonly opts: CompactorOptions) {
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, this.opts.intervalMs);
    this.timer.unref();
  }

  /** One round of the protocol described above. Exposed for tests. */
  async tick(): Promise<void> {
    const key = Buffer.from(COMPACT_REV_KEY);
    const { client } = this.opts;
    try {
      const res = await client.kv.txn({
        compare: [{ key, target: 'Version', result: 'Equal', version: this.seenVersion }],
        success: [{ request_put: { key, value: Buffer.from(String(this.lastRevision)) } }],
        failure: [{ request_range: { key } }],
      });
      const current = Number(res.header.revision);
      if (!res.succeeded) {
        // Someone else compacted (or we restarted): adopt their view and compact next time it is ours.
        const kv = res.responses[0]?.response_range?.kvs[0];
        this.seenVersion = kv ? Number(kv.version) : 0;
        this.lastRevision = current;
        return;
      }
      this.seenVersion++;
      const target = this.lastRevision;
      this.lastRevision = current;
      if (target === 0) return; // first round: only record where history starts counting
      try {
        await client.kv.compact({ revision: target });
      } catch (err) {
        // Already compacted there by someone else: nothing to do.
        if (!String((err as Error).message).includes('required revision has been compacted')) throw err;
      }
      this.opts.onCompacted?.(target);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
