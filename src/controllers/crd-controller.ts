/**
 * The CRD controller: kube's naming, establishing, API-approval and finalizer controllers plus the
 * handler's serving switch, folded into one queue keyed by CRD name (one at a time, so names granted to one
 * CRD are seen by the next).
 *
 * Per CRD, in order:
 *   1. names: spec.names against the accepted names of the group's other CRDs → status.acceptedNames and
 *      NamesAccepted (`PluralConflict`, `SingularConflict`, `ShortNamesConflict`, `KindConflict`,
 *      `ListKindConflict`, or `NoConflicts`); Established becomes True (`InitialNamesAccepted`) with them;
 *      protected groups get KubernetesAPIApprovalPolicyConformant;
 *   2. serving: once names are accepted its served versions go into the catalog (before Established is
 *      written, so a client that waited for the condition finds the API), rebuilt when generation or
 *      accepted names change, versions no longer served removed;
 *   3. deletion (deletionTimestamp + the cleanup finalizer): Terminating/InstanceDeletionInProgress, creates
 *      refused, every instance deleted, then the finalizer removed; once the CRD is gone its API is removed.
 * It watches CRDs through the registry, so a second server on the same etcd serves CRDs created elsewhere.
 * Serving runs on every replica; steps 1 and 3 (the writes) only while `leading` (the leader election lease's
 * holder, as kube's apiextensions controllers run once per cluster in effect): a replica that does not lead
 * serves what the stored status says.
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { StorageGVK } from '../api/resources/conversion.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { Informer } from '../client/informer.ts';
import { WorkQueue } from '../client/work-queue.ts';
import { isConflict, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { apiApprovalState, isProtectedCommunityGroup } from '../api/validation/apiextensions.ts';
import {
  CLEANUP_FINALIZER, CRD_GROUP, CRD_RESOURCE, crdSpec, crdStatus, findCondition, isConditionTrue, rfc3339, setCondition,
  type CrdNames,
} from '../apiextensions/crd.ts';
import { ConvertingRest } from '../registry/customresources/converting-rest.ts';
import { buildCustomResourceDefs, buildInstanceDeleterDef, type CrdServingState, type CustomResourceDef } from '../registry/customresources/resource-def.ts';

/** What the controller needs from the catalog (src/api/catalog.ts `Catalog`). */
export interface CrdCatalog {
  add(def: ResourceDef, storage?: StorageGVK): void;
  remove(def: ResourceDef): boolean;
  lookup(group: string, version: string, resource: string): ResourceDef | undefined;
}

export interface CrdControllerOptions {
  registry: RestRegistry;
  catalog: CrdCatalog;
  log?: Logger;
  now?: () => Date;
  /** Re-check of remaining instances while a CRD is terminating (default 1 s). */
  instanceRecheckMs?: number;
  /** Whether this replica does the naming, establishing and finalizing writes at start (default true). */
  leading?: boolean;
}

export interface RunningCrdController {
  stop(): Promise<void>;
  /** Leader election: start or stop the naming/establishing/finalizer work (serving goes on either way). */
  setLeading(leading: boolean): void;
  /** Resolves once the queue is empty (tests). */
  whenIdle(): Promise<void>;
}

interface Served {
  group: string;
  signature: string;
  defs: CustomResourceDef[];
  state: CrdServingState;
}

type Names = Partial<CrdNames>;

function sameNames(a: Names, b: Names): boolean {
  const norm = (n: Names) => JSON.stringify([n.plural ?? '', n.singular ?? '', n.kind ?? '', n.listKind ?? '', n.shortNames ?? [], n.categories ?? []]);
  return norm(a) === norm(b);
}

export class CrdController {
  private readonly informer: Informer;
  readonly queue: WorkQueue;
  private readonly served = new Map<string, Served>();
  /** Accepted names we wrote and the informer may not show yet (kube's mutation cache). */
  private readonly written = new Map<string, { rv: string; names: Names }>();
  /** When instance deletion began per terminating CRD (for the InstanceDeletionCheck condition). */
  private readonly deletionStarted = new Map<string, number>();
  /**
   * Storage-version defs put into the catalog only to delete a terminating CRD's instances when none of its
   * versions is served (or its defs could not be built): instances may still be stored.
   */
  private readonly deleters = new Map<string, CustomResourceDef>();
  private readonly storage: RestStorage;
  private readonly now: () => Date;
  private leading: boolean;

  constructor(private readonly opts: CrdControllerOptions) {
    this.leading = opts.leading ?? true;
    const storage = opts.registry.lookup(CRD_GROUP, 'v1', CRD_RESOURCE);
    if (!storage) throw new Error('the CRD controller needs customresourcedefinitions, which the registry does not serve');
    this.storage = storage;
    this.now = opts.now ?? (() => new Date());
    this.informer = new Informer({ storage, ...(opts.log ? { log: opts.log } : {}) });
    this.queue = new WorkQueue({ name: 'crd', process: (k) => this.sync(k), ...(opts.log ? { log: opts.log } : {}), baseDelayMs: 20, maxDelayMs: 5000 });
    this.informer.addHandler({
      onAdd: (o) => this.queue.add(o.metadata.name ?? ''),
      onUpdate: (_old, o) => this.queue.add(o.metadata.name ?? ''),
      onDelete: (o) => {
        this.queue.add(o.metadata.name ?? '');
        this.requeueGroup(crdSpec(o).group, o.metadata.name ?? '');
      },
    });
  }

  async start(): Promise<void> {
    await this.informer.start();
    await this.queue.whenIdle();
  }

  async stop(): Promise<void> {
    this.informer.stop();
    await this.queue.stop();
  }

  setLeading(leading: boolean): void {
    if (this.leading === leading) return;
    this.leading = leading;
    // A new leader looks at every CRD: names to accept, finalizers a former leader left half done.
    if (leading) for (const o of this.informer.list()) this.queue.add(o.metadata.name ?? '');
  }

  private requeueGroup(group: string, except: string): void {
    for (const o of this.informer.list()) if (crdSpec(o).group === group && o.metadata.name !== except) this.queue.add(o.metadata.name ?? '');
  }

  private acceptedNamesOf(o: KObject): Names {
    const w = this.written.get(o.metadata.name ?? '');
    if (w && Number(w.rv) >= Number(o.metadata.resourceVersion ?? 0)) return w.names;
    return crdStatus(o).acceptedNames ?? {};
  }

  /** Names the group's other CRDs hold: resources (plural, singular, short) and kinds (kind, listKind). */
  private namesInUse(crd: KObject): { resources: Set<string>; kinds: Set<string> } {
    const group = crdSpec(crd).group;
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const o of this.informer.list()) {
      if (o.metadata.name === crd.metadata.name || crdSpec(o).group !== group) continue;
      const n = this.acceptedNamesOf(o);
      for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
      for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
    }
    return { resources, kinds };
  }

  /** calculateNamesAndConditions; mutates `crd` (a private copy) and returns whether names were accepted. */
  private computeNames(crd: KObject, now: string): boolean {
    const spec = crdSpec(crd);
    const requested = spec.names;
    const accepted: Names = { ...(crdStatus(crd).acceptedNames ?? {}) };
    const next: Names = { ...accepted };
    const { resources, kinds } = this.namesInUse(crd);
    let cond: { status: 'True' | 'False'; reason: string; message: string } | undefined;
    const fresh = (want: string, have: string | undefined, used: Set<string>) => want === have || !used.has(want);
    const conflict = (reason: string, name: string) => {
      cond = { status: 'False', reason, message: `${JSON.stringify(name)} is already in use` };
    };
    if (fresh(requested.plural, accepted.plural, resources)) next.plural = requested.plural;
    else conflict('PluralConflict', requested.plural);
    if (fresh(requested.singular, accepted.singular, resources)) next.singular = requested.singular;
    else conflict('SingularConflict', requested.singular);
    if (JSON.stringify(requested.shortNames ?? []) !== JSON.stringify(accepted.shortNames ?? [])) {
      const mine = new Set(accepted.shortNames ?? []);
      const bad = (requested.shortNames ?? []).filter((s) => !mine.has(s) && resources.has(s));
      if (bad.length) {
        const msgs = bad.map((s) => `${JSON.stringify(s)} is already in use`);
        cond = { status: 'False', reason: 'ShortNamesConflict', message: msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]` };
      } else if (requested.shortNames) next.shortNames = requested.shortNames;
      else delete next.shortNames;
    }
    if (fresh(requested.kind, accepted.kind, kinds)) next.kind = requested.kind;
    else conflict('KindConflict', requested.kind);
    if (fresh(requested.listKind, accepted.listKind, kinds)) next.listKind = requested.listKind;
    else conflict('ListKindConflict', requested.listKind);
    if (requested.categories) next.categories = requested.categories;
    else delete next.categories;
    const namesCond = cond ?? { status: 'True' as const, reason: 'NoConflicts', message: 'no conflicts found' };
    const status = (crd['status'] ??= {}) as Record<string, unknown>;
    status['acceptedNames'] = next;
    setCondition(crd, { type: 'NamesAccepted', ...namesCond }, now);
    const est = findCondition(crd, 'Established');
    if (est?.status !== 'True') {
      if (namesCond.status === 'True') {
        setCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, now);
      } else if (!est) {
        setCondition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' }, now);
      }
    }
    if (isProtectedCommunityGroup(spec.group)) {
      const a = apiApprovalState(crd);
      const ok = a.state === 'approved';
      const reason = a.state === 'approved' ? 'ApprovedAnnotation' : a.state === 'bypassed' ? 'UnapprovedAnnotation' : a.state === 'missing' ? 'MissingAnnotation' : 'InvalidAnnotation';
      setCondition(crd, { type: 'KubernetesAPIApprovalPolicyConformant', status: ok ? 'True' : 'False', reason, message: a.reason }, now);
    }
    return namesCond.status === 'True' || isConditionTrue(crd, 'Established');
  }

  private async sync(name: string): Promise<void> {
    const crd = this.informer.get('', name);
    if (!crd) {
      this.unserve(name);
      this.dropDeleter(name);
      this.written.delete(name);
      this.deletionStarted.delete(name);
      return;
    }
    if (!this.leading) {
      if (isConditionTrue(crd, 'Established')) this.serve(crd);
      return;
    }
    const now = rfc3339(this.now());
    const desired = structuredClone(crd) as KObject;
    this.computeNames(desired, now);
    const statusChanged = JSON.stringify(desired['status']) !== JSON.stringify(crd['status']);
    if (isConditionTrue(desired, 'Established')) this.serve(desired);
    if (statusChanged) {
      const before = this.acceptedNamesOf(crd);
      const written = await this.writeStatus(name, (cur) => {
        this.computeNames(cur, now);
      });
      // Names this CRD gave up may be what another CRD of the group waits for (kube's naming controller
      // requeues the whole group after a status update).
      if (written && !sameNames(before, crdStatus(written).acceptedNames ?? {})) this.requeueGroup(crdSpec(crd).group, name);
      return; // the informer brings the update back
    }
    if (crd.metadata.deletionTimestamp && (crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)) await this.finalize(crd);
  }

  private async writeStatus(name: string, mutate: (cur: KObject) => void): Promise<KObject | undefined> {
    try {
      const res = await this.storage.guaranteedUpdate(systemContext({ subresource: 'status' }), name, (cur) => {
        if (!cur) throw Object.assign(new Error('gone'), { gone: true });
        mutate(cur);
        return cur;
      }, {});
      this.written.set(name, { rv: res.object.metadata.resourceVersion ?? '0', names: crdStatus(res.object).acceptedNames ?? {} });
      return res.object;
    } catch (e) {
      if (isNotFound(e) || (e as { gone?: boolean }).gone) return undefined;
      throw e;
    }
  }

  /** Puts (or refreshes) the CRD's served versions into the catalog. */
  private serve(crd: KObject): void {
    const name = crd.metadata.name ?? '';
    const status = crdStatus(crd);
    const terminating = !!crd.metadata.deletionTimestamp;
    const signature = JSON.stringify([crd.metadata.uid, crd.metadata.generation, status.acceptedNames]);
    const prev = this.served.get(name);
    if (prev && prev.signature === signature) {
      prev.state.terminating = terminating;
      return;
    }
    const state: CrdServingState = prev?.state ?? { terminating };
    state.terminating = terminating;
    let defs: CustomResourceDef[];
    try {
      defs = buildCustomResourceDefs(crd, state);
    } catch (e) {
      // A schema the engine cannot build passed validation only if the engine changed since: keep what is
      // served, say why, and do not retry in a loop (the next change of the CRD tries again).
      this.opts.log?.(`crd ${name}: cannot serve generation ${crd.metadata.generation ?? 0}: ${(e as Error).message}`);
      return;
    }
    const keep = new Set(defs.map((d) => `${d.group}/${d.version}/${d.resource}`));
    // The watch cache indexes selectable fields when it opens: a change of them (or of the storage prefix)
    // needs a fresh cache, so every old def goes first (as kube rebuilds a CRD's storage).
    const fieldsOf = (ds: readonly CustomResourceDef[]) => JSON.stringify(ds.map((d) => [d.storagePrefix, Object.keys(d.selectableFields ?? {}).sort()]).sort());
    const rebuild = prev !== undefined && fieldsOf(prev.defs.filter((d) => keep.has(`${d.group}/${d.version}/${d.resource}`))) !== fieldsOf(defs.filter((d) => prev.defs.some((o) => o.version === d.version)));
    for (const old of prev?.defs ?? []) {
      if (rebuild || !keep.has(`${old.group}/${old.version}/${old.resource}`)) {
        if (this.opts.catalog.lookup(old.group, old.version, old.resource) === old) this.opts.catalog.remove(old);
      }
    }
    const spec = crdSpec(crd);
    const storageVersion = spec.versions.find((v) => v.storage)?.name;
    for (const d of defs) {
      // Built-in resources win over a CRD claiming the same group/version/resource (kube serves the built-in).
      const existing = this.opts.catalog.lookup(d.group, d.version, d.resource);
      if (existing && !existing.custom) continue;
      this.opts.catalog.add(d, { group: d.group, version: storageVersion ?? d.version });
    }
    this.served.set(name, { group: spec.group, signature, defs, state });
  }

  private unserve(name: string): void {
    const prev = this.served.get(name);
    if (!prev) return;
    this.served.delete(name);
    for (const d of prev.defs) {
      // Only remove what is still ours (another CRD may have taken the names since).
      if (this.opts.catalog.lookup(d.group, d.version, d.resource) === d) this.opts.catalog.remove(d);
    }
  }

  /** kube's finalizer controller: delete every instance, then drop the cleanup finalizer. */
  private async finalize(crd: KObject): Promise<void> {
    const name = crd.metadata.name ?? '';
    const now = rfc3339(this.now());
    const served = this.served.get(name);
    if (served) served.state.terminating = true;
    const terminating = (reason: string, message: string, status: 'True' | 'False' = 'True') => this.writeStatus(name, (cur) => {
      setCondition(cur, { type: 'Terminating', status, reason, message }, now);
    });
    // Never established: no instance could have been created.
    if (!isConditionTrue(crd, 'Established')) {
      await terminating('NeverEstablished', 'resource was never established', 'False');
      await this.removeFinalizer(name);
      return;
    }
    // Only defs this CRD really serves (never a built-in resource it overlaps: kube's finalizer skips those);
    // behind a webhook def, its raw storage-version store, since deleting needs no conversion. With no
    // served def at all, instances may still be stored: the storage version's def deletes them.
    const ours = (served?.defs ?? []).filter((d) => this.opts.catalog.lookup(d.group, d.version, d.resource) === d);
    const def = served?.defs.length ? ours[0] : this.deleterFor(crd, served?.state ?? { terminating: true });
    const found = def && this.opts.registry.lookup(def.group, def.version, def.resource);
    const storage = found instanceof ConvertingRest ? found.unconverted : found;
    if (!storage) {
      await terminating('OverlappingBuiltInResource', 'instances overlap with built-in resources in storage', 'False');
      await this.removeFinalizer(name);
      return;
    }
    const started = this.deletionStarted.get(name);
    if (started === undefined) {
      this.deletionStarted.set(name, this.now().getTime());
      await terminating('InstanceDeletionInProgress', 'CustomResource deletion is in progress');
    }
    try {
      await storage.deleteCollection(systemContext(), {}, {});
    } catch (e) {
      await terminating('InstanceDeletionFailed', `could not issue all deletes: ${(e as Error).message}`);
      throw e;
    }
    const left = await storage.list(systemContext(), { limit: 1 });
    if (left.items.length > 0) {
      // Instances with finalizers of their own: check again; after a minute say so, as kube's poll does.
      if (this.now().getTime() - (started ?? this.now().getTime()) > 60_000 && findCondition(crd, 'Terminating')?.reason !== 'InstanceDeletionCheck') {
        await terminating('InstanceDeletionCheck', 'could not confirm zero CustomResources remaining: timed out waiting for the condition');
      }
      this.queue.addAfter(name, this.opts.instanceRecheckMs ?? 1000);
      return;
    }
    await terminating('InstanceDeletionCompleted', 'removed all instances', 'False');
    this.deletionStarted.delete(name);
    this.dropDeleter(name);
    await this.removeFinalizer(name);
  }

  /** The storage version's def in the catalog for deleting instances (undefined: a built-in holds its place). */
  private deleterFor(crd: KObject, state: CrdServingState): CustomResourceDef | undefined {
    const name = crd.metadata.name ?? '';
    const have = this.deleters.get(name);
    if (have && this.opts.catalog.lookup(have.group, have.version, have.resource) === have) return have;
    state.terminating = true; // creates stay refused while it is in the catalog
    const def = buildInstanceDeleterDef(crd, state);
    if (!def) return undefined;
    const existing = this.opts.catalog.lookup(def.group, def.version, def.resource);
    if (existing && !existing.custom) return undefined;
    this.opts.catalog.add(def, { group: def.group, version: def.version });
    this.deleters.set(name, def);
    return def;
  }

  private dropDeleter(name: string): void {
    const d = this.deleters.get(name);
    if (!d) return;
    this.deleters.delete(name);
    if (this.opts.catalog.lookup(d.group, d.version, d.resource) === d) this.opts.catalog.remove(d);
  }

  private async removeFinalizer(name: string): Promise<void> {
    for (let i = 0; i < 5; i++) {
      try {
        await this.storage.guaranteedUpdate(systemContext(), name, (cur) => {
          if (!cur) throw Object.assign(new Error('gone'), { gone: true });
          cur.metadata.finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
          if (cur.metadata.finalizers.length === 0) delete cur.metadata.finalizers;
          return cur;
        }, {});
        return;
      } catch (e) {
        if (isNotFound(e) || (e as { gone?: boolean }).gone) return;
        if (!isConflict(e)) throw e;
      }
    }
  }
}

/** Starts the controller; resolves once every CRD already stored is served (or refused with its reason). */
export async function startCrdController(opts: CrdControllerOptions): Promise<RunningCrdController> {
  const c = new CrdController(opts);
  try {
    await c.start();
  } catch (e) {
    await c.stop();
    throw e;
  }
  return {
    stop: () => c.stop(),
    setLeading: (leading) => c.setLeading(leading),
    whenIdle: () => c.queue.whenIdle(),
  };
}
