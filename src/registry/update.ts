/**
 * UPDATE (PUT) and guaranteed updates (PATCH, controllers): read → produce → BeforeUpdate → guarded write,
 * retried on a lost race with the value that beat us (the failed guard returns it; no extra read).
 *
 * Rules (kube's generic Store.Update + rest.BeforeUpdate):
 * - missing object → 404 unless create-on-update is allowed, then the create path runs;
 * - resourceVersion: empty → 422 `metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`
 *   unless unconditional updates are allowed; different from the stored one → 409 Conflict (no retry);
 * - generation, uid, creationTimestamp, deletionTimestamp and grace period are carried over; identity fields are
 *   validated immutable; generation +1 when the spec part changed (kinds that track generation);
 * - status sub-resource rules: main writes keep the stored status, `/status` writes keep everything else;
 * - a write that changes nothing is not written (the stored object and its resourceVersion come back);
 * - removing the last finalizer of an object being deleted (grace period 0) deletes it.
 */
import { isStale } from '../storage/value/transforming-store.ts';
import type { KObject } from '../machinery/objects.ts';
import { errors, type FieldError } from '../machinery/errors.ts';
import type { KeyValue } from '../storage/interface.ts';
import type { CachedObject } from '../storage/cacher/types.ts';
import type { OpContext, UpdateFn } from './rest.ts';
import { admitCreate, customView, decodedCopy, ensureNamespace, prepareCreate, strategyContext, validateCreate, withRevision, writeCreate, type ManagedFieldsMode } from './create.ts';
import { optionsObject, type AdmissionAttributes } from './admission.ts';
import { managedFieldsFor, setManagedFields } from './managed-fields.ts';
import { clone, comparable, jsonEqual, specPart } from './object-utils.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';
import { hasSubresource, keepSpecOnStatusUpdate, keepStatusOnUpdate } from './strategy.ts';
import { nameValidator } from './validation/names.ts';
import { checkMetaTypes } from './validation/meta-types.ts';
import { verdictContext } from './noop-updates.ts';
import { GoValueFieldError, validateObjectMeta, validateObjectMetaUpdate } from './validation/object-meta.ts';

/** Bound on lost races before giving up with a 409 (kube retries without bound; a bound keeps us honest). */
const MAX_ATTEMPTS = 32;

export interface UpdateLoopOptions extends ManagedFieldsMode {
  /** PUT semantics: a missing resourceVersion needs `strategy.allowUnconditionalUpdate`. Otherwise it is fine. */
  readonly requireResourceVersion: boolean;
  /** The caller allows create when missing (in addition to `strategy.allowCreateOnUpdate`). */
  readonly allowCreate: boolean;
  /** Never create, whatever the strategy says (sub-resource writes). */
  readonly neverCreate?: boolean;
  /** Hook for special REST (namespaces): adjust the object after the generic update preparation. */
  readonly afterPrepare?: (obj: KObject, old: KObject) => void;
  /** Decides whether an update that empties finalizers deletes the object (default: kube's rule). */
  readonly shouldDelete?: (obj: KObject, old: KObject) => boolean;
  /** False when the caller runs admission itself on other objects (the scale sub-resource admits Scales). */
  readonly admission?: boolean;
  /**
   * The first attempt takes the current object from the watch cache when the cache already holds the store's
   * latest revision (no store read, no decode), and a write that changes nothing answers with that cached
   * revision (`cached`, frozen and shared: callers must not change the answer). Any other case reads the store.
   */
  readonly fromCache?: boolean;
  /**
   * With `fromCache`: tells from the frozen current object, without changing it, that `produce` would hand it
   * back exactly as it is (server-side apply's memo); the loop then spares `produce`, its copy and the check.
   */
  readonly unchanged?: (current: KObject) => boolean;
}

/** What an update ends with; `cached` when it changed nothing and the current revision came from the cache. */
export interface UpdateResult {
  readonly object: KObject;
  readonly created: boolean;
  readonly cached?: CachedObject;
}

/**
 * Admission attributes whose `object` is the frozen current object, copied only when a plugin reads or replaces
 * it (most plugins never look at a Deployment or ConfigMap). A class with the accessor on its prototype keeps
 * the attributes a fast-property object for every plugin that reads them. `looked` says whether one did.
 */
class CopyOnReadAttributes implements AdmissionAttributes {
  readonly operation: AdmissionAttributes['operation'];
  readonly kind: AdmissionAttributes['kind'];
  readonly resource: AdmissionAttributes['resource'];
  readonly subresource: string;
  readonly requestKind: AdmissionAttributes['requestKind'];
  readonly requestResource: AdmissionAttributes['requestResource'];
  readonly requestSubResource: string;
  readonly name: string;
  readonly namespace: string;
  readonly oldObject: KObject | undefined;
  readonly options: AdmissionAttributes['options'];
  readonly dryRun: boolean;
  readonly user: AdmissionAttributes['user'];
  readonly warnings: string[];
  readonly auditAnnotations: Record<string, string>;
  readonly reinvocation: AdmissionAttributes['reinvocation'];
  #frozen: KObject;
  #copy: KObject | undefined;
  #replaced = false;

  constructor(base: AdmissionAttributes, frozen: KObject) {
    this.operation = base.operation;
    this.kind = base.kind;
    this.resource = base.resource;
    this.subresource = base.subresource;
    this.requestKind = base.requestKind;
    this.requestResource = base.requestResource;
    this.requestSubResource = base.requestSubResource;
    this.name = base.name;
    this.namespace = base.namespace;
    this.oldObject = base.oldObject;
    this.options = base.options;
    this.dryRun = base.dryRun;
    this.user = base.user;
    this.warnings = base.warnings;
    this.auditAnnotations = base.auditAnnotations;
    this.reinvocation = base.reinvocation;
    this.#frozen = frozen;
  }

  get object(): KObject | undefined {
    return this.#replaced ? this.#copy : (this.#copy ??= clone(this.#frozen));
  }

  set object(v: KObject | undefined) {
    this.#copy = v;
    this.#replaced = true;
  }

  get looked(): boolean {
    return this.#replaced || this.#copy !== undefined;
  }
}

/**
 * The current object from the watch cache when the cache has caught up with the store (kube's GuaranteedUpdate
 * with the cached object: a guarded write still fails on anything newer, and a no-op answers the latest
 * committed revision), else undefined: the caller reads the store.
 */
async function currentFromCache(core: StoreCore, key: string): Promise<CachedObject | undefined> {
  let c;
  try {
    c = await core.reader.current?.(key);
  } catch {
    return undefined; // the store read below reports what is wrong
  }
  return c ? core.view(c) : undefined;
}

/** UpdateOptions as admission sees them. */
function updateOptions(ctx: OpContext): Record<string, unknown> {
  return optionsObject('UpdateOptions', { dryRun: ctx.dryRun ? ['All'] : undefined, fieldManager: ctx.fieldManager });
}

/** kube's ShouldDeleteDuringUpdate. */
export function defaultShouldDelete(obj: KObject, old: KObject): boolean {
  if ((obj.metadata.finalizers ?? []).length > 0) return false;
  if (!old.metadata.deletionTimestamp) return false;
  const grace = old.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === 0;
}

/** BeforeUpdate for the generic store: returns the object to write. */
export function prepareUpdate(core: StoreCore, ctx: OpContext, input: KObject, old: KObject, now: Date, mode: ManagedFieldsMode = {}): KObject {
  const def = core.def;
  const obj = decodedCopy(core, input);
  ensureNamespace(core, ctx, obj);
  const meta = obj.metadata;
  const om = old.metadata;
  if (om.generation !== undefined) meta.generation = om.generation;
  else delete meta.generation;
  const sctx = strategyContext(ctx);
  const requested = clone(mode.requested ?? obj);
  if (!mode.requested) core.strategy.defaults?.(requested);
  else requested.metadata.generation = meta.generation;
  // The field manager runs before the strategy and validation (kube: in the handler), so a `[{}]` reset
  // never reaches validation and fields the strategy adds are nobody's.
  if (!mode.keepManagedFields) {
    setManagedFields(obj, managedFieldsFor({
      manager: ctx.fieldManager, apiVersion: core.apiVersion(), kind: def.kind, subresource: ctx.subresource,
      hasStatus: hasSubresource(def, 'status'), old, requested, now, ...customView(def, ctx.subresource),
    }));
  }
  if (hasSubresource(def, 'status')) {
    if (ctx.subresource === 'status') keepSpecOnStatusUpdate(obj, old);
    else if (ctx.subresource === '') keepStatusOnUpdate(obj, old);
  }
  const strategy = core.strategy;
  strategy.prepareForUpdate?.(obj, old, sctx);
  strategy.defaults?.(obj);
  if (!meta.uid) meta.uid = om.uid;
  if (om.creationTimestamp) meta.creationTimestamp = om.creationTimestamp;
  if (om.deletionTimestamp) meta.deletionTimestamp = om.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  }
  delete meta.selfLink;
  const errs: FieldError[] = [
    ...validateObjectMeta(meta, def.namespaced, nameValidator(def.nameRule)),
    ...validateObjectMetaUpdate(meta, om),
    ...((strategy.validateUpdate ? strategy.validateUpdate(obj, old, sctx) : strategy.validate?.(obj, sctx)) ?? []),
  ];
  if (errs.length) throw errors.invalid(core.kind(meta.name ?? ''), errs);
  if (strategy.tracksGeneration && ctx.subresource !== 'status') {
    const ignores = strategy.generationIgnores ?? [];
    // Compared as kube compares Go structs: in canonical form (an omitted zero value is no change).
    const after = core.canonical(obj);
    const before = core.canonical(old);
    const statusChanged = strategy.generationIncludesStatus === true && !jsonEqual(after['status'], before['status']);
    if (statusChanged || !jsonEqual(specPart(after, ignores), specPart(before, ignores))) meta.generation = (om.generation ?? 0) + 1;
  }
  for (const w of strategy.warnings?.(obj, old) ?? []) ctx.warnings.push(w);
  strategy.canonicalize?.(obj);
  return obj;
}

function missingResourceVersion(core: StoreCore, name: string) {
  // kube names the resource (plural) as the kind here, with uint64 0 printed as Go's %#v.
  return errors.invalid(core.resource(name), [new GoValueFieldError('FieldValueInvalid', 'metadata.resourceVersion', '0x0', 'must be specified for an update')]);
}

/**
 * The read-modify-write loop. `produce` gets a private copy of the current object (undefined when missing) and
 * returns the desired object; it may run more than once.
 */
export async function updateLoop(core: StoreCore, ctx: OpContext, name: string, produce: UpdateFn, opts: UpdateLoopOptions): Promise<UpdateResult> {
  const key = core.key(ctx, name);
  const writer = core.writer(ctx);
  const site = { op: 'update' as const, resource: core.def.resource, group: core.def.group };
  const fromCache = opts.fromCache && core.updatesFromCache ? await currentFromCache(core, key) : undefined;
  let kv: KeyValue | undefined = fromCache?.kv;
  if (!fromCache) {
    try {
      kv = await core.store.get(key);
    } catch (e) {
      throw toStatusError(e, site);
    }
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = core.now();
    if (!kv) {
      if (opts.neverCreate || (!opts.allowCreate && !core.strategy.allowCreateOnUpdate)) throw errors.notFound(core.resource(name));
      const desired = await produce(undefined);
      checkMetaTypes(core.def, desired);
      const input = clone(desired);
      if (input.metadata) delete input.metadata.resourceVersion;
      const admitted = opts.admission === false ? { input, mode: opts } : await admitCreate(core, ctx, input, opts);
      const obj = prepareCreate(core, ctx, admitted.input, now, admitted.mode);
      if (opts.admission !== false) await validateCreate(core, ctx, obj);
      const res = await writeCreate(core, ctx, obj);
      if (res.ok) return { object: res.object, created: true };
      // Someone created it meanwhile: update that one instead.
      try {
        kv = await core.store.get(key);
      } catch (e) {
        throw toStatusError(e, site);
      }
      continue;
    }
    // The cached revision is frozen and shared: it is read, compared and answered, never changed; the
    // strategy's preparation (which may move parts of the old object into the new one) gets a decoded copy.
    const cached = fromCache && fromCache.kv === kv ? fromCache : undefined;
    const existing = cached ? cached.object : core.decode(kv);
    const stored = kv;
    const old = cached ? (): KObject => core.decode(stored) : (): KObject => existing;
    // `produce` gets its own copy; what it returns is copied again by prepareUpdate before any change.
    const untouched = cached !== undefined && opts.unchanged?.(existing) === true;
    const given = untouched ? existing : clone(existing);
    const produced = untouched ? existing : await produce(given);
    // The stored object itself (untouched) passed these checks when it was written and is never changed below.
    if (!untouched) checkMetaTypes(core.def, produced);
    let input = produced;
    if (!untouched) {
      input = { ...produced };
      input.metadata = input.metadata && typeof input.metadata === 'object' ? { ...input.metadata } : {};
    }
    const givenRv = input.metadata.resourceVersion ?? '';
    if (givenRv === '') {
      if (opts.requireResourceVersion && !core.strategy.allowUnconditionalUpdate) throw missingResourceVersion(core, name);
      input.metadata.resourceVersion = existing.metadata.resourceVersion;
    } else if (givenRv !== existing.metadata.resourceVersion) {
      throw errors.conflict(core.resource(name));
    }
    // The current object handed back unchanged (a no-op server-side apply) may skip the preparation it had
    // for this revision already (noop-updates.ts); anything else, or an admission plugin that changes it, does not.
    const unchangedInput = produced === given && opts.keepManagedFields === true && !opts.afterPrepare && !ctx.allocation &&
      !isStale(kv.value) && (untouched || jsonEqual(produced, existing));
    const context = unchangedInput ? verdictContext(ctx) : '';
    const known = unchangedInput ? core.noops.lookup(key, kv.modRevision, context) : undefined;
    const admission = opts.admission === false ? undefined : core.admission();
    let mode: ManagedFieldsMode = opts;
    let admittedInput = input;
    let verdictPossible = unchangedInput;
    if (admission) {
      // Mutating admission sees the request decoded and defaulted, with the current object as oldObject.
      // A known no-op's request decodes and defaults to the current object itself: it is handed over as is.
      let requested: KObject;
      if (known) {
        requested = input;
      } else {
        requested = decodedCopy(core, input);
        ensureNamespace(core, ctx, requested);
        core.strategy.defaults?.(requested);
        verdictPossible &&= jsonEqual(requested, existing);
      }
      const plain = core.admissionAttributes(ctx, { operation: 'UPDATE', name, object: known ? requested : clone(requested), oldObject: existing, options: updateOptions(ctx) });
      const lazy = known && untouched ? new CopyOnReadAttributes(plain, existing) : undefined;
      const attrs = lazy ?? plain;
      await admission.admit(attrs);
      mode = { ...opts, requested: known ? existing : requested };
      if (lazy && !lazy.looked) {
        admittedInput = existing; // no plugin read the object, so none changed it
      } else {
        admittedInput = attrs.object ?? requested;
        verdictPossible &&= jsonEqual(admittedInput, existing);
      }
    }
    const warningsBefore = ctx.warnings.length;
    let obj: KObject;
    if (known && verdictPossible) {
      obj = existing;
      ctx.warnings.push(...known);
    } else {
      const prior = old();
      obj = prepareUpdate(core, ctx, admittedInput, prior, now, mode);
      opts.afterPrepare?.(obj, prior);
    }
    const prepared = ctx.warnings.slice(warningsBefore);
    if (admission) {
      // Validating plugins may not change the object; a frozen one cannot be changed, so it needs no copy.
      const validated = obj === existing && cached ? obj : clone(obj);
      await admission.validate(core.admissionAttributes(ctx, { operation: 'UPDATE', name, object: validated, oldObject: existing, options: updateOptions(ctx) }));
    }
    if ((opts.shouldDelete ?? defaultShouldDelete)(obj, existing)) {
      let del;
      try {
        del = await writer.delete(key, { expectedModRevision: kv.modRevision });
      } catch (e) {
        throw toStatusError(e, { ...site, op: 'delete' });
      }
      if (del.succeeded) return { object: obj, created: false };
      if (!del.current) return { object: obj, created: false }; // deleted by someone else: same outcome
      kv = del.current;
      continue;
    }
    // Compared in kube's JSON shape on both sides (an object stored by an earlier version may not be), so a
    // write that only differs in key order, zero values or quantity spelling is a no-op.
    // A value read with an encryption key that no longer writes is rewritten even then (kube's stale data).
    const unchanged: UpdateResult = cached ? { object: existing, created: false, cached } : { object: existing, created: false };
    if (obj === existing) return unchanged; // the known no-op
    const canonical = core.canonical(obj);
    if (!isStale(kv.value) && jsonEqual(comparable(canonical), comparable(core.canonical(existing)))) {
      // No-op: nothing but managedFields timestamps would change; kube skips the write.
      if (verdictPossible && jsonEqual(obj, existing)) core.noops.remember(key, kv.modRevision, context, prepared);
      return unchanged;
    }
    let res;
    try {
      res = await writer.update(key, core.encodeCanonical(canonical), { expectedModRevision: kv.modRevision });
    } catch (e) {
      throw toStatusError(e, site);
    }
    if (res.succeeded) return { object: withRevision(canonical, res.kv.modRevision), created: false };
    kv = res.current; // undefined: deleted meanwhile → 404, or created anew when allowed
  }
  throw errors.conflict(core.resource(name));
}
