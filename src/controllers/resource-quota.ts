/**
 * kube-controller-manager's resourcequota controller, in process:
 * - a quota that is new, or whose spec.hard changed, gets `status.hard` (its spec.hard) and `status.used`
 *   (recounted from the objects of its namespace, under its scopes) at once;
 * - counted objects are watched for the changes that lower usage (kube's replenishment): a delete, a pod
 *   reaching a terminal phase, a service changing to or from NodePort/LoadBalancer, a claim whose allocated
 *   storage changed — each recounts the namespace's quotas that count that kind. Creates are not watched:
 *   admission charged them already, and a recount racing admitted-but-not-yet-stored objects would undercount;
 * - every quota is recounted on a full resync (kube's default 5 min);
 * - any resource can be counted with `count/<resource>[.<group>]`, custom resources included: a watch is
 *   started for a kind the first time a quota names it, and a CRD appearing recounts every quota.
 * Usage is computed with the evaluators admission uses (src/admission/plugins/resourcequota/evaluators.ts).
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { Informer, objectKey } from '../client/informer.ts';
import { WorkQueue } from '../client/work-queue.ts';
import {
  claimNeedsReplenish, evaluatorFor, groupResourcesFor, podCountsForQuota, quotaServiceType, usageOf,
} from '../admission/plugins/resourcequota/evaluators.ts';
import { add, equals, formatResourceList, mask, parseResourceList, type ResourceList } from '../admission/plugins/resourcequota/resource-list.ts';
import type { GcCatalog } from './garbage-collector/resources.ts';

type J = Record<string, any>;

/** kube-controller-manager's --resource-quota-sync-period default. */
export const DEFAULT_QUOTA_RESYNC_MS = 5 * 60_000;

export interface ResourceQuotaControllerOptions {
  readonly registry: RestRegistry;
  readonly catalog: GcCatalog;
  readonly log?: Logger;
  /** Full recount of every quota this often (default 5 min). */
  readonly resyncPeriodMs?: number;
  readonly now?: () => Date;
}

interface Monitor {
  readonly informer: Informer;
  readonly def: ResourceDef;
  synced: Promise<void>;
}

function grKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

/** DefaultUpdateFilter: the updates that can lower what an object is charged. */
function updateLowersUsage(gr: string, oldObj: KObject, newObj: KObject, now: Date): boolean {
  switch (gr) {
    case '/pods': return podCountsForQuota(oldObj, now) && !podCountsForQuota(newObj, now);
    case '/services': return quotaServiceType(oldObj) !== quotaServiceType(newObj);
    case '/persistentvolumeclaims': return claimNeedsReplenish(newObj, oldObj);
    default: return false;
  }
}

export class ResourceQuotaController {
  readonly queue: WorkQueue;
  private readonly quotas: Informer;
  private readonly storage: RestStorage;
  private readonly monitors = new Map<string, Monitor>();
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  private readonly now: () => Date;

  constructor(private readonly opts: ResourceQuotaControllerOptions) {
    const storage = opts.registry.lookup('', 'v1', 'resourcequotas');
    if (!storage) throw new Error('the quota controller needs resourcequotas, which the registry does not serve');
    this.storage = storage;
    this.now = opts.now ?? (() => new Date());
    const log = opts.log ? { log: opts.log } : {};
    this.quotas = new Informer({ storage, ...log });
    this.queue = new WorkQueue({ name: 'resourcequota', process: (key) => this.sync(key), concurrency: 2, ...log });
    this.quotas.addHandler({
      onAdd: (q) => this.queue.add(objectKey(q)),
      onUpdate: (old, cur) => {
        // Only spec.hard drives a recount here; status writes (admission's, ours) must not.
        if (!equals(parseResourceList((old as J)['spec']?.hard), parseResourceList((cur as J)['spec']?.hard))) this.queue.add(objectKey(cur));
      },
    });
  }

  async start(): Promise<void> {
    await this.quotas.start();
    this.unsubscribe = this.opts.catalog.onChange?.((c) => {
      if (c.type === 'removed') this.dropMonitor(c.def);
      this.enqueueAll();
    });
    this.timer = setInterval(() => this.enqueueAll(), this.opts.resyncPeriodMs ?? DEFAULT_QUOTA_RESYNC_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    this.quotas.stop();
    for (const m of this.monitors.values()) m.informer.stop();
    this.monitors.clear();
    await this.queue.stop();
  }

  private enqueueAll(): void {
    for (const q of this.quotas.list()) this.queue.add(objectKey(q));
  }

  /** Recounts the namespace's quotas that count `gr`. */
  private replenish(gr: { group: string; resource: string }, namespace: string): void {
    const ev = evaluatorFor(gr.group, gr.resource);
    for (const q of this.quotas.list()) {
      if (q.metadata.namespace !== namespace) continue;
      const hard = Object.keys(((q as J)['status'] ?? {})['hard'] ?? {});
      if (ev.matchingResources(hard).length) this.queue.add(objectKey(q));
    }
  }

  private findDef(group: string, resource: string): ResourceDef | undefined {
    const defs = this.opts.catalog.all().filter((d) => d.group === group && d.resource === resource && !d.virtual && d.namespaced
      && d.verbs.includes('list') && d.verbs.includes('watch'));
    return defs.find((d) => !d.storageVersion || d.storageVersion === d.version) ?? defs[0];
  }

  private monitor(group: string, resource: string): Monitor | undefined {
    const key = grKey(group, resource);
    const have = this.monitors.get(key);
    if (have || this.stopped) return have;
    const def = this.findDef(group, resource);
    const storage = def && this.opts.registry.lookup(def.group, def.version, def.resource);
    if (!def || !storage) return undefined;
    const informer = new Informer({ storage, ...(this.opts.log ? { log: this.opts.log } : {}) });
    informer.addHandler({
      onUpdate: (o, n) => {
        if (updateLowersUsage(key, o, n, this.now())) this.replenish({ group, resource }, n.metadata.namespace ?? '');
      },
      onDelete: (o) => this.replenish({ group, resource }, o.metadata.namespace ?? ''),
    });
    const m: Monitor = { informer, def, synced: Promise.resolve() };
    m.synced = informer.start().catch((err: unknown) => {
      this.opts.log?.(`resourcequota: watching ${key} failed: ${(err as Error).message}`);
      this.monitors.delete(key);
      informer.stop();
      throw err;
    });
    m.synced.catch(() => {});
    this.monitors.set(key, m);
    return m;
  }

  private dropMonitor(def: ResourceDef): void {
    const key = grKey(def.group, def.resource);
    const m = this.monitors.get(key);
    if (!m || (m.def.version !== def.version && this.findDef(def.group, def.resource))) return;
    m.informer.stop();
    this.monitors.delete(key);
  }

  private async sync(key: string): Promise<void> {
    const [namespace = '', name = ''] = key.split('/');
    const quota = this.quotas.get(namespace, name);
    if (!quota) return;
    const spec = ((quota as J)['spec'] ?? {}) as J;
    const status = ((quota as J)['status'] ?? {}) as J;
    const hard = parseResourceList(spec['hard']);
    const hardNames = [...hard.keys()];

    const kinds = new Map<string, { group: string; resource: string }>();
    for (const n of hardNames) for (const gr of groupResourcesFor(n)) kinds.set(grKey(gr.group, gr.resource), gr);
    let counted: ResourceList = new Map();
    const now = this.now();
    for (const gr of kinds.values()) {
      const m = this.monitor(gr.group, gr.resource);
      if (!m) continue;
      await m.synced;
      const objects = m.informer.list().filter((o) => o.metadata.namespace === namespace);
      counted = add(counted, usageOf(evaluatorFor(gr.group, gr.resource), quota, objects, now));
    }
    counted = mask(counted, hardNames);

    const oldUsed = parseResourceList(status['used']);
    const used = mask(new Map([...oldUsed, ...counted]), hardNames);
    const dirty = status['hard'] === undefined || status['used'] === undefined
      || !equals(hard, parseResourceList(status['hard'])) || !equals(used, oldUsed);
    if (!dirty) return;
    const next = structuredClone(quota) as J;
    next['status'] = { hard: formatResourceList(hard), used: formatResourceList(used) };
    await this.storage.update(systemContext({ namespace, subresource: 'status' }), name, next as KObject, {});
  }
}

export async function startResourceQuotaController(opts: ResourceQuotaControllerOptions): Promise<ResourceQuotaController> {
  const c = new ResourceQuotaController(opts);
  await c.start();
  return c;
}
