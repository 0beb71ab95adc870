/**
 * Knowing etcd's compacted revision.
 *
 * etcd has no API that returns it. We learn it three ways: our own `compact(rev)` calls, watches that etcd
 * cancels with a `compact_revision` (compactions done by other clients, e.g. another API server), and — when
 * asked — by probing: a read at revision r fails with "required revision has been compacted" exactly when
 * r < C (etcd keeps revision C itself readable after `compact(C)`). Starting from the best known value K
 * (always ≤ C), one read at K confirms it; if that read fails, a binary search between K and the current
 * revision finds C in O(log n) small count-only reads. Probing happens only on demand and on error paths.
 */

export interface CompactionProbe {
  /** True when a read at `revision` fails because it was compacted. */
  isCompacted(revision: number): Promise<boolean>;
  currentRevision(): Promise<number>;
}

export class CompactionTracker {
  /** Best known compacted revision: a lower bound of etcd's real one (0 = none seen). */
  private known = 0;

  constructor(private readonly probe: CompactionProbe) {}

  /** Records a compaction we did or learned about. */
  note(revision: number): void {
    if (revision > this.known) this.known = revision;
  }

  /** The last known value without asking etcd. */
  get lastKnown(): number {
    return this.known;
  }

  /** etcd's current compacted revision (0 when nothing was ever compacted), verified against etcd. */
  async lookup(): Promise<number> {
    const start = Math.max(this.known, 1);
    if (!(await this.probe.isCompacted(start))) return this.known;
    // Invariant: isCompacted(lo) is true, isCompacted(hi) is false (the current revision is always readable).
    let lo = start;
    let hi = await this.probe.currentRevision();
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await this.probe.isCompacted(mid)) lo = mid;
      else hi = mid;
    }
    this.note(hi);
    return this.known;
  }
}
