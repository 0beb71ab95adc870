/**
 * Remembers server-side applies that changed nothing, so the same apply against the same revision of the same
 * object is answered without merging again (the common `kubectl apply --server-side` of an unchanged file).
 *
 * `apply()` is a function of the live object, the config and the request's options; the clock only matters
 * when something changes. So when one apply returned the live object exactly (values and managedFields), an
 * apply of byte-identical config by the same manager, with the same options, onto the same revision (uid and
 * resourceVersion) returns it again. Any write to the object gives it a new resourceVersion and ends the match;
 * a different schema view (a custom resource's CRD changed) does too.
 */
import type { StructNode } from '../schema-view.ts';

/** The request's side of an apply: everything `apply()` reads besides the live object. */
export interface ApplyRequestIdentity {
  /** The object's storage key or namespace/name: which object. */
  readonly object: string;
  readonly manager: string;
  readonly force: boolean;
  readonly subresource: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** The apply view passed to `apply()` (custom resources); undefined for built-in kinds. */
  readonly view: StructNode | undefined;
  /** The request body as sent. */
  readonly body: Uint8Array;
}

/** The live object's revision: uid and resourceVersion. */
export interface LiveRevision {
  readonly uid: string;
  readonly resourceVersion: string;
}

interface Entry {
  readonly live: LiveRevision;
  readonly force: boolean;
  readonly view: StructNode | undefined;
  readonly body: Uint8Array;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

/** Entries kept before the memo starts over (one per object and manager; a no-op apply is cheap to learn again). */
const MAX_ENTRIES = 4096;

export class NoopApplyMemo {
  private readonly entries = new Map<string, Entry>();

  private static key(r: ApplyRequestIdentity): string {
    return `${r.object}\0${r.manager}\0${r.subresource}\0${r.apiVersion}\0${r.kind}`;
  }

  /** Whether this apply onto this revision is known to leave the object exactly as it is. */
  isNoop(r: ApplyRequestIdentity, live: LiveRevision | undefined): boolean {
    const e = live ? this.sameRequest(r) : undefined;
    return e !== undefined && e.live.uid === live!.uid && e.live.resourceVersion === live!.resourceVersion;
  }

  /**
   * Whether this very request (body bytes, manager, options, view) was remembered as a no-op onto some revision:
   * its body decoded then without findings, so it would again, and the decoding can wait until an apply needs it.
   */
  knowsBody(r: ApplyRequestIdentity): boolean {
    return this.sameRequest(r) !== undefined;
  }

  /** The entry remembered for this object and manager, when it was for these body bytes and options. */
  private sameRequest(r: ApplyRequestIdentity): Entry | undefined {
    const e = this.entries.get(NoopApplyMemo.key(r));
    return e !== undefined && e.force === r.force && e.view === r.view && bytesEqual(e.body, r.body) ? e : undefined;
  }

  /**
   * Records an apply that returned the live object exactly as it was. Only bodies that decoded without strict
   * findings (duplicate keys) are remembered: a remembered body is never decoded again (see knowsBody).
   */
  rememberNoop(r: ApplyRequestIdentity, live: LiveRevision | undefined): void {
    if (!live || !live.uid || !live.resourceVersion) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(NoopApplyMemo.key(r), { live, force: r.force, view: r.view, body: Uint8Array.from(r.body) });
  }

  /** Forgets what this object and manager applied (the apply changed something or failed). */
  forget(r: ApplyRequestIdentity): void {
    this.entries.delete(NoopApplyMemo.key(r));
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The live object's revision, when it has both a uid and a resourceVersion. */
export function liveRevision(live: unknown): LiveRevision | undefined {
  const meta = (live as { metadata?: { uid?: unknown; resourceVersion?: unknown } } | undefined)?.metadata;
  const uid = meta?.uid;
  const rv = meta?.resourceVersion;
  return typeof uid === 'string' && uid !== '' && typeof rv === 'string' && rv !== '' ? { uid, resourceVersion: rv } : undefined;
}
