/**
 * The ResourceQuota admission plugin (kube's apiserver admission/plugin/resourcequota), validating, on create
 * and update of namespaced objects (sub-resources aside, except a pod's `resize`):
 * - the requests of one namespace are checked one batch at a time, in arrival order, against the namespace's
 *   quotas; each admitted request's usage is added to `status.used` of every quota it counts against, and the
 *   changed quotas are written (status, guarded by their resourceVersion) before any request of the batch is
 *   answered — so concurrent requests can never together exceed a quota. A write lost to another writer reads
 *   the quota again and checks the undecided requests once more (three times at most);
 * - dry-run requests are checked but never charged;
 * - quotas come from a watch of all ResourceQuotas, a namespace without any is confirmed by a live list now and
 *   then (the watch may lag a just-created quota), and quotas this plugin just wrote are preferred over older
 *   copies from the watch.
 */
import { errors, StatusError } from '../../../machinery/errors.ts';
import type { KObject } from '../../../machinery/objects.ts';
import { Informer } from '../../../client/informer.ts';
import type { RestStorage } from '../../../registry/rest.ts';
import { systemContext } from '../../../registry/system-context.ts';
import type { AdmissionAttributes } from '../../../registry/admission.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../../types.ts';
import { parseQuotaConfiguration, type LimitedResource } from './config.ts';
import { checkRequest, type QuotaState } from './check.ts';
import { evaluatorFor, isIgnoredResource } from './evaluators.ts';
import { equals, formatResourceList, parseResourceList } from './resource-list.ts';

/** kube's liveTTL for namespaces the watch shows no quota in. */
const LIVE_LOOKUP_TTL_MS = 30_000;
/** kube gives up on a request after this long. */
const EVALUATION_TIMEOUT_MS = 10_000;
const RETRIES = 3;

type J = Record<string, any>;

function rvNewer(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) > BigInt(b);
}

export function quotaState(obj: KObject): QuotaState {
  const status = ((obj as J)['status'] ?? {}) as J;
  return { obj, name: obj.metadata.name ?? '', hard: parseResourceList(status['hard']), used: parseResourceList(status['used']) };
}

/** Reads quotas: the watch's copy, this plugin's own newer writes, a live list for namespaces that look empty. */
class QuotaAccessor {
  private readonly byNamespace = new Map<string, Map<string, KObject>>();
  private readonly written = new Map<string, KObject>();
  private readonly live = new Map<string, { expiry: number; items: KObject[] }>();
  private readonly liveInFlight = new Map<string, Promise<KObject[]>>();
  readonly informer: Informer;

  constructor(private readonly storage: RestStorage, private readonly now: () => Date, log: (l: string) => void) {
    this.informer = new Informer({ storage, log });
    const put = (o: KObject) => {
      const ns = o.metadata.namespace ?? '';
      let m = this.byNamespace.get(ns);
      if (!m) this.byNamespace.set(ns, (m = new Map()));
      m.set(o.metadata.name ?? '', o);
    };
    this.informer.addHandler({
      onAdd: put,
      onUpdate: (_o, n) => put(n),
      onDelete: (o) => {
        const ns = o.metadata.namespace ?? '';
        this.byNamespace.get(ns)?.delete(o.metadata.name ?? '');
        this.written.delete(`${ns}/${o.metadata.name ?? ''}`);
      },
    });
  }

  async quotas(namespace: string): Promise<QuotaState[]> {
    let items = [...(this.byNamespace.get(namespace)?.values() ?? [])];
    if (items.length === 0) items = await this.liveList(namespace);
    return items.map((o) => quotaState(this.newest(o)));
  }

  /** The stored copies of the named quotas (a consistent read after a lost write). */
  async fresh(namespace: string, names: readonly string[]): Promise<QuotaState[]> {
    const out: QuotaState[] = [];
    for (const name of names) {
      try {
        out.push(quotaState((await this.storage.get(systemContext({ namespace }), name, { resourceVersion: '' })).object));
      } catch (e) {
        if ((e as { code?: number }).code !== 404) throw e;
      }
    }
    return out;
  }

  async writeUsed(q: QuotaState): Promise<void> {
    const obj = structuredClone(q.obj) as J;
    obj['status'] = { ...(obj['status'] ?? {}), used: formatResourceList(q.used) };
    const ns = q.obj.metadata.namespace ?? '';
    const res = await this.storage.update(systemContext({ namespace: ns, subresource: 'status' }), q.name, obj as KObject, {});
    this.written.set(`${ns}/${q.name}`, res.object);
  }

  private newest(o: KObject): KObject {
    const key = `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
    const mine = this.written.get(key);
    if (!mine) return o;
    if (rvNewer(mine.metadata.resourceVersion, o.metadata.resourceVersion)) return mine;
    this.written.delete(key);
    return o;
  }

  private async liveList(namespace: string): Promise<KObject[]> {
    const cached = this.live.get(namespace);
    if (cached && cached.expiry > this.now().getTime()) return cached.items;
    let p = this.liveInFlight.get(namespace);
    if (!p) {
      p = (async () => {
        try {
          const res = await this.storage.list(systemContext({ namespace }), {});
          const items = res.items.map((c) => c.object);
          this.live.set(namespace, { expiry: this.now().getTime() + LIVE_LOOKUP_TTL_MS, items });
          if (this.live.size > 10_000) this.live.delete(this.live.keys().next().value!);
          return items;
        } finally {
          this.liveInFlight.delete(namespace);
        }
      })();
      this.liveInFlight.set(namespace, p);
    }
    return p;
  }
}

const DENY = Symbol('default deny');

interface Waiter {
  readonly attrs: AdmissionAttributes;
  result: typeof DENY | Error | null;
}

export function resourceQuota(ctx: PluginContext): AdmissionPlugin {
  const limited: readonly LimitedResource[] = parseQuotaConfiguration(ctx.config);
  const storage = ctx.registry.lookup('', 'v1', 'resourcequotas');
  if (!storage) throw new Error('ResourceQuota admission needs resourcequotas, which the registry does not serve');
  const accessor = new QuotaAccessor(storage, ctx.now, ctx.log);
  const pending = new Map<string, Array<{ waiter: Waiter; done: () => void }>>();
  const busy = new Set<string>();

  async function checkQuotas(quotas: readonly QuotaState[], waiters: Waiter[], retries: number): Promise<void> {
    const original = quotas;
    let changed = false;
    for (const w of waiters) {
      if (w.result !== DENY) continue;
      let next: readonly QuotaState[];
      try {
        next = checkRequest(quotas, w.attrs, limited, ctx.now());
      } catch (e) {
        w.result = e as Error;
        continue;
      }
      if (w.attrs.dryRun) {
        w.result = null;
        continue;
      }
      const mine = next.some((q, j) => !equals(q.used, quotas[j]!.used));
      if (mine) changed = true;
      else w.result = null;
      quotas = next;
    }
    if (!changed) return;
    const failed: string[] = [];
    let lastErr: Error | undefined;
    for (let i = 0; i < quotas.length; i++) {
      if (equals(original[i]!.used, quotas[i]!.used)) continue;
      try {
        await accessor.writeUsed(quotas[i]!);
      } catch (e) {
        failed.push(quotas[i]!.name);
        lastErr = e as Error;
      }
    }
    if (failed.length === 0) {
      for (const w of waiters) if (w.result === DENY) w.result = null;
      return;
    }
    if (retries > 0) {
      let again: QuotaState[] | undefined;
      try {
        again = await accessor.fresh(quotas[0]!.obj.metadata.namespace ?? '', failed);
      } catch (e) {
        lastErr = e as Error;
      }
      if (again) return checkQuotas(again, waiters, retries - 1);
    }
    for (const w of waiters) if (w.result === DENY) w.result = lastErr ?? null;
  }

  async function checkBatch(namespace: string, waiters: Waiter[]): Promise<void> {
    let quotas: QuotaState[];
    try {
      quotas = await accessor.quotas(namespace);
    } catch (e) {
      for (const w of waiters) w.result = e as Error;
      return;
    }
    if (quotas.length === 0 && limited.length === 0) {
      for (const w of waiters) w.result = null;
      return;
    }
    await checkQuotas(quotas, waiters, RETRIES);
  }

  async function drain(namespace: string): Promise<void> {
    busy.add(namespace);
    try {
      for (;;) {
        const batch = pending.get(namespace);
        if (!batch?.length) break;
        pending.delete(namespace);
        try {
          await checkBatch(namespace, batch.map((b) => b.waiter));
        } catch (e) {
          for (const b of batch) if (b.waiter.result === DENY) b.waiter.result = e as Error;
        } finally {
          for (const b of batch) b.done();
        }
      }
    } finally {
      busy.delete(namespace);
    }
  }

  async function evaluate(a: AdmissionAttributes): Promise<void> {
    const waiter: Waiter = { attrs: a, result: DENY };
    let timer: NodeJS.Timeout | undefined;
    const finished = new Promise<void>((resolve) => {
      let list = pending.get(a.namespace);
      if (!list) pending.set(a.namespace, (list = []));
      list.push({ waiter, done: resolve });
    });
    if (!busy.has(a.namespace)) void drain(a.namespace);
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), EVALUATION_TIMEOUT_MS);
    });
    try {
      if (await Promise.race([finished, timedOut]) === 'timeout') throw errors.internal('resource quota evaluation timed out');
    } finally {
      clearTimeout(timer);
    }
    const r = waiter.result;
    if (r === null) return;
    if (r === DENY) throw errors.internal('DEFAULT DENY');
    if (r instanceof StatusError) throw r;
    throw errors.internal(r.message);
  }

  return {
    name: 'ResourceQuota',
    operations: operations('CREATE', 'UPDATE'),
    async validate(a) {
      const isResize = a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === 'resize';
      if (a.subresource !== '' && !isResize) return;
      if (!a.namespace) return;
      if (a.operation === 'CREATE' && a.kind.group === '' && a.kind.kind === 'Namespace') return;
      if (isIgnoredResource(a.resource.group, a.resource.resource)) return;
      if (!evaluatorFor(a.resource.group, a.resource.resource).handles(a)) return;
      await evaluate(a);
    },
    async ready() {
      await accessor.informer.start();
    },
    stop() {
      accessor.informer.stop();
      return Promise.resolve();
    },
  };
}
