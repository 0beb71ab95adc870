/**
 * One informer per deletable resource (kube's GraphBuilder monitors), feeding the collector's graph, plus a
 * read of their local copies by group and kind (owner lookups that need no registry call).
 *
 * A monitor whose first list fails is retried with backoff (50 ms doubling to 5 s) until it lists or the set is
 * stopped; `synced()` resolves when every monitor started so far has listed once.
 */
import type { KObject, ObjectMeta } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import { Informer } from '../../client/informer.ts';
import type { Logger } from '../../registry/system-context.ts';
import { groupOf } from './graph.ts';
import { storageLocation } from './resources.ts';

export interface MonitorHandler {
  onUpsert(def: ResourceDef, obj: KObject): void;
  onDelete(obj: KObject): void;
}

interface Monitor {
  readonly def: ResourceDef;
  readonly informer: Informer;
  synced: Promise<void>;
  /** Pending retry: the timer and how to end its wait early (stop). */
  retry?: { timer: NodeJS.Timeout; wake: () => void };
  stopped: boolean;
}

/**
 * The part of an object the collector reads (identity, version, owners, finalizers, deletion state): what a
 * monitor keeps per object. Labels, annotations and timestamps were ≈ 150 bytes per object in every
 * monitor's copy. The common fields go in one literal so the copy has a single fixed layout; the rarer
 * ones are added only when present.
 */
export function collectorView(obj: KObject): KObject {
  const m = obj.metadata;
  const meta: ObjectMeta = m.namespace === undefined
    ? { name: m.name, uid: m.uid, resourceVersion: m.resourceVersion }
    : { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion };
  if (m.ownerReferences !== undefined) meta.ownerReferences = m.ownerReferences;
  if (m.finalizers !== undefined) meta.finalizers = m.finalizers;
  if (m.deletionTimestamp !== undefined) meta.deletionTimestamp = m.deletionTimestamp;
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: meta };
}

export class Monitors {
  /** By storage location. */
  private readonly byLocation = new Map<string, Monitor>();
  /** By `group/kind`: the kind's objects whatever the version a reference names. */
  private readonly byKind = new Map<string, Monitor>();
  private stopped = false;

  constructor(private readonly opts: { registry: RestRegistry; handler: MonitorHandler; log?: Logger }) {}

  /** Starts watching `def` unless its storage is watched already. */
  add(def: ResourceDef): void {
    const where = storageLocation(def);
    if (this.stopped || this.byLocation.has(where)) return;
    const storage = this.opts.registry.lookup(def.group, def.version, def.resource);
    if (!storage) return;
    const { handler, log } = this.opts;
    // The graph needs identities, owners, finalizers and deletion state (kube's GC uses metadata informers).
    // A full copy of every object of every kind doubled the server's memory per object.
    const informer = new Informer({ storage, transform: collectorView, ...(log ? { log } : {}) });
    informer.addHandler({
      onAdd: (obj) => handler.onUpsert(def, obj),
      onUpdate: (_old, obj) => handler.onUpsert(def, obj),
      onDelete: (obj) => handler.onDelete(obj),
    });
    const m: Monitor = { def, informer, stopped: false, synced: Promise.resolve() };
    m.synced = this.startWithRetry(m);
    this.byLocation.set(where, m);
    const kindKey = `${def.group}/${def.kind}`;
    if (!this.byKind.has(kindKey)) this.byKind.set(kindKey, m);
  }

  /** Stops watching the storage of `def`. */
  remove(def: ResourceDef): void {
    const where = storageLocation(def);
    const m = this.byLocation.get(where);
    if (!m) return;
    this.stopMonitor(m);
    this.byLocation.delete(where);
    for (const [k, v] of this.byKind) if (v === m) this.byKind.delete(k);
  }

  /** Resolves once every monitor added so far has listed (never rejects; failures retry). */
  async synced(): Promise<void> {
    await Promise.all([...this.byLocation.values()].map((m) => m.synced));
  }

  /** The local copy of an object by reference coordinates (undefined: not watched, not synced, or not there). */
  cached(apiVersion: string, kind: string, namespace: string, name: string): KObject | undefined {
    const m = this.byKind.get(`${groupOf(apiVersion)}/${kind}`);
    if (!m || !m.informer.hasSynced()) return undefined;
    return m.informer.get(m.def.namespaced ? namespace : '', name);
  }

  stop(): void {
    this.stopped = true;
    for (const m of this.byLocation.values()) this.stopMonitor(m);
  }

  private stopMonitor(m: Monitor): void {
    m.stopped = true;
    if (m.retry) {
      clearTimeout(m.retry.timer);
      m.retry.wake();
    }
    m.informer.stop();
  }

  private async startWithRetry(m: Monitor): Promise<void> {
    for (let failures = 0; !m.stopped; failures++) {
      try {
        await m.informer.start();
        return;
      } catch (err) {
        if (m.stopped) return;
        const delay = Math.min(50 * 2 ** failures, 5000);
        this.opts.log?.(`garbage collector: cannot list ${m.def.resource}.${m.def.group} (retry in ${delay} ms): ${(err as Error)?.message ?? String(err)}`);
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, delay);
          timer.unref();
          m.retry = { timer, wake };
        });
        m.retry = undefined;
      }
    }
  }
}
