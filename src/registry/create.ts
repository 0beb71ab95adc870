/**
 * CREATE (POST, and PUT of a missing object when the kind allows it). Steps in kube-apiserver's order:
 * decode + defaults → mutating admission (src/registry/admission.ts) → system fields (uid, creationTimestamp,
 * generated name) → BeforeCreate (namespace match, strategy prepare, validation, warnings, canonicalize) →
 * validating admission → storage.
 * A generated name that collides is retried with a new one (RetryGenerateName: up to 8 attempts).
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef, StrategyContext } from '../api/types.ts';
import { errors, StatusError, type FieldError } from '../machinery/errors.ts';
import type { OpContext } from './rest.ts';
import { optionsObject } from './admission.ts';
import { dropUnknownFields } from '../apply/drop-unknown.ts';
import { rootNodeFor, unstructuredRoot, type StructNode } from '../apply/schema-view.ts';
import { customApplyRoot } from './customresources/resource-def.ts';
import { withResourceVersion } from './codec.ts';
import { normalizeValues } from '../api/canonical.ts';
import { protobufMessageFor } from '../api/protobuf/codec.ts';
import { managedFieldsFor, setManagedFields } from './managed-fields.ts';
import { clone, generateName, newUid, rfc3339 } from './object-utils.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';
import { hasSubresource, resetStatusOnCreate } from './strategy.ts';
import { nameValidator } from './validation/names.ts';
import { checkMetaTypes } from './validation/meta-types.ts';
import { validateObjectMeta } from './validation/object-meta.ts';

const MAX_NAME_GENERATION_ATTEMPTS = 8;

/** Custom resources: the CRD schema's apply view for managedFields (not for `scale`, which is a Scale). */
export function customView(def: ResourceDef, subresource: string): { view?: StructNode } {
  const view = subresource === 'scale' ? undefined : customApplyRoot(def);
  return view ? { view } : {};
}

export function strategyContext(ctx: OpContext): StrategyContext {
  const s: StrategyContext = { user: ctx.user, namespace: ctx.namespace, subresource: ctx.subresource, dryRun: ctx.dryRun };
  return ctx.allocation ? { ...s, allocation: ctx.allocation } : s;
}

/** EnsureObjectNamespaceMatchesRequestNamespace for the resource's scope. */
export function ensureNamespace(core: StoreCore, ctx: OpContext, obj: KObject): void {
  const expected = core.def.namespaced ? ctx.namespace : '';
  const actual = obj.metadata.namespace ?? '';
  if (actual === expected) return;
  if (actual === '') obj.metadata.namespace = expected;
  else if (expected === '') delete obj.metadata.namespace;
  else throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** How a write treats managedFields. */
export interface ManagedFieldsMode {
  /** The caller (server-side apply, the scale sub-resource) computed `metadata.managedFields`: store them as given. */
  readonly keepManagedFields?: boolean;
  /**
   * What the request itself set, decoded and defaulted, when mutating admission ran in between: the field
   * manager records the request's fields, not what admission plugins or webhooks added (kube runs it first).
   */
  readonly requested?: KObject;
}

/** CreateOptions as admission sees them. */
function createOptions(ctx: OpContext): Record<string, unknown> {
  return optionsObject('CreateOptions', { dryRun: ctx.dryRun ? ['All'] : undefined, fieldManager: ctx.fieldManager });
}

/**
 * The mutating admission phase of a create: the decoded, defaulted request object goes through the chain; the
 * result (and the pre-admission object, for managedFields) feeds prepareCreate. Without a chain, the input as is.
 */
export async function admitCreate(core: StoreCore, ctx: OpContext, input: KObject, mode: ManagedFieldsMode): Promise<{ input: KObject; mode: ManagedFieldsMode }> {
  const admission = core.admission();
  if (!admission) return { input, mode };
  const obj = decodedCopy(core, input);
  ensureNamespace(core, ctx, obj);
  core.strategy.defaults?.(obj);
  const requested = clone(obj);
  const attrs = core.admissionAttributes(ctx, { operation: 'CREATE', name: obj.metadata.name ?? '', object: obj, options: createOptions(ctx) });
  await admission.admit(attrs);
  return { input: attrs.object ?? obj, mode: { ...mode, requested } };
}

/** The validating admission phase of a create, on a copy of the object about to be stored. */
export async function validateCreate(core: StoreCore, ctx: OpContext, obj: KObject): Promise<void> {
  const admission = core.admission();
  if (!admission) return;
  await admission.validate(core.admissionAttributes(ctx, { operation: 'CREATE', name: obj.metadata.name ?? '', object: clone(obj), options: createOptions(ctx) }));
}

/**
 * The request object as decoding into kube's Go types leaves it: a copy with this endpoint's apiVersion and kind,
 * metadata present, and keys the kind does not declare dropped. Shared by create and update.
 */
export function decodedCopy(core: StoreCore, input: KObject): KObject {
  checkMetaTypes(core.def, input);
  const obj = clone(input);
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  obj.apiVersion = core.apiVersion();
  obj.kind = core.def.kind;
  dropUnknownFields(obj, rootNodeFor(obj.apiVersion, core.def.kind) ?? unstructuredRoot());
  // Decoding into Go types canonicalizes quantities: validation and comparisons see `512Mi`, never `0.5Gi`.
  normalizeValues(protobufMessageFor(obj.apiVersion, core.def.kind)?.fullName, obj);
  return obj;
}

/**
 * Everything before the storage write: returns the object to store. `input` is not modified.
 * `now` is shared by the timestamp and managedFields.
 */
export function prepareCreate(core: StoreCore, ctx: OpContext, input: KObject, now: Date, mode: ManagedFieldsMode = {}): KObject {
  const def = core.def;
  const obj = decodedCopy(core, input);
  const meta = obj.metadata;
  // FillObjectMetaSystemFields + name generation.
  meta.creationTimestamp = rfc3339(now);
  meta.uid = newUid();
  if (meta.generateName && !meta.name) meta.name = generateName(meta.generateName);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  ensureNamespace(core, ctx, obj);
  const strategy = core.strategy;
  if (strategy.tracksGeneration) meta.generation = 1;
  const sctx = strategyContext(ctx);
  // What the request sets, defaulted: the managedFields scope (the field manager runs before the strategy).
  const requested = mode.requested ? clone(mode.requested) : clone(obj);
  if (!mode.requested) strategy.defaults?.(requested);
  else Object.assign(requested.metadata, { name: meta.name, uid: meta.uid, creationTimestamp: meta.creationTimestamp });
  // The field manager runs before the strategy and validation (kube: in the handler), so a `[{}]` reset
  // never reaches validation and fields the strategy adds are nobody's.
  if (!mode.keepManagedFields) {
    setManagedFields(obj, managedFieldsFor({
      manager: ctx.fieldManager, apiVersion: core.apiVersion(), kind: def.kind, subresource: ctx.subresource,
      hasStatus: hasSubresource(def, 'status') && !core.strategy.allowStatusOnCreate, old: undefined, requested, now, ...customView(def, ctx.subresource),
    }));
  }
  if (hasSubresource(def, 'status') && !strategy.allowStatusOnCreate) resetStatusOnCreate(obj);
  strategy.prepareForCreate?.(obj, sctx);
  strategy.defaults?.(obj);
  const errs: FieldError[] = [
    ...validateObjectMeta(obj.metadata, def.namespaced, nameValidator(def.nameRule)),
    ...(strategy.validate?.(obj, sctx) ?? []),
  ];
  if (errs.length) throw errors.invalid(core.kind(obj.metadata.name ?? ''), errs);
  for (const w of strategy.warnings?.(obj, undefined) ?? []) ctx.warnings.push(w);
  strategy.canonicalize?.(obj);
  return obj;
}

/** TTL for kinds kube stores with a lease: events live an hour (--event-ttl default). */
function ttlFor(core: StoreCore): number | undefined {
  return core.def.storagePrefix === '/registry/events/' ? 3600 : undefined;
}

/** A canonical written object as readers will see it: resourceVersion from the write (none for 0). */
export function withRevision(canonical: KObject, modRevision: number): KObject {
  return withResourceVersion(canonical, modRevision > 0 ? String(modRevision) : undefined);
}

/** Writes a prepared object; AlreadyExists (with kube's message variants) when the key is taken. */
export async function writeCreate(core: StoreCore, ctx: OpContext, obj: KObject): Promise<{ ok: true; object: KObject } | { ok: false; error: StatusError }> {
  const name = obj.metadata.name!;
  const key = core.key({ ...ctx, namespace: obj.metadata.namespace ?? '' }, name);
  const ttl = ttlFor(core);
  // What kube's codec makes of the object is what is stored and answered (dry-run included).
  const canonical = core.canonical(obj);
  let res;
  try {
    res = await core.writer(ctx).create(key, core.encodeCanonical(canonical), ttl ? { ttlSeconds: ttl } : undefined);
  } catch (e) {
    throw toStatusError(e, { op: 'create', resource: core.def.resource, group: core.def.group });
  }
  // The object we wrote is the stored object: no need to parse it back (the watch cache does that once).
  if (res.succeeded) return { ok: true, object: withRevision(canonical, res.kv.modRevision) };
  let error = errors.alreadyExists(core.resource(name));
  if (obj.metadata.generateName) {
    const q = core.resource(name);
    error = new StatusError(409, 'AlreadyExists',
      `${q.group ? `${q.kind}.${q.group}` : q.kind} ${JSON.stringify(name)} already exists, the server was not able to generate a unique name for the object`,
      { name, ...(q.group ? { group: q.group } : {}), kind: q.kind, retryAfterSeconds: 1 });
  }
  if (res.current && core.decode(res.current).metadata.deletionTimestamp) {
    error = new StatusError(error.code, error.reason, `object is being deleted: ${error.message}`, error.details);
  }
  return { ok: false, error };
}

export async function createObject(core: StoreCore, ctx: OpContext, input: KObject, mode: ManagedFieldsMode = {}): Promise<KObject> {
  const generated = !!input.metadata?.generateName && !input.metadata?.name;
  const attempts = generated ? MAX_NAME_GENERATION_ATTEMPTS : 1;
  let lastError: StatusError | undefined;
  checkMetaTypes(core.def, input); // a body that does not decode fails before admission, as in kube
  const admitted = await admitCreate(core, ctx, input, mode);
  for (let i = 0; i < attempts; i++) {
    const now = core.now();
    const obj = prepareCreate(core, ctx, admitted.input, now, admitted.mode);
    await validateCreate(core, ctx, obj);
    if (!ctx.dryRun && admitted.input.metadata?.resourceVersion) {
      // etcd3 store's ErrResourceVersionSetOnCreate, which kube answers as a bare 500.
      throw new StatusError(500, '', 'resourceVersion should not be set on objects to be created');
    }
    const res = await writeCreate(core, ctx, obj);
    if (res.ok) return res.object;
    lastError = res.error;
  }
  throw lastError!;
}
