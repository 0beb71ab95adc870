/**
 * Which object revisions an unchanged write was already prepared for, and found to change nothing.
 *
 * An update whose input is the current object itself (server-side apply hands it over for a no-op) goes
 * through defaulting, the strategy's update preparation, validation and two canonical encodings only to be
 * dropped by the no-op check. Those steps are a function of the stored object and the request's strategy
 * context, so once they produced exactly the current object for one revision, they will again: the update loop
 * then skips them (admission still runs, as in kube). The verdict is per storage key and revision, and per
 * sub-resource, dry-run and user (what strategies may look at); any write moves the revision on.
 */
import type { OpContext } from './rest.ts';

interface Verdict {
  readonly revision: number;
  readonly context: string;
  /** Warnings the strategy gave for the write (kube repeats them on every update, no-op or not). */
  readonly warnings: readonly string[];
}

/** Keys kept before the table starts over. */
const MAX_ENTRIES = 4096;

/** What a strategy can see of the request, as one string. */
export function verdictContext(ctx: OpContext): string {
  const u = ctx.user;
  return `${ctx.subresource}\0${ctx.dryRun ? 1 : 0}\0${u?.username ?? ''}\0${u?.uid ?? ''}\0${(u?.groups ?? []).join(',')}`;
}

export class NoopUpdates {
  private readonly verdicts = new Map<string, Verdict>();

  /** The strategy's warnings when `key` at `revision` is known to prepare to itself, else undefined. */
  lookup(key: string, revision: number, context: string): readonly string[] | undefined {
    const v = this.verdicts.get(key);
    return v && v.revision === revision && v.context === context ? v.warnings : undefined;
  }

  remember(key: string, revision: number, context: string, warnings: readonly string[]): void {
    if (this.verdicts.size >= MAX_ENTRIES) this.verdicts.clear();
    this.verdicts.set(key, { revision, context, warnings: [...warnings] });
  }
}
