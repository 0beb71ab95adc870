/**
 * What every verb of the generic store shares: the resource, the backend to write to, the reader to read
 * through (watch cache or direct), and how errors name the resource.
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { Qualified } from '../machinery/errors.ts';
import type { CachedObject, ObjectCodec, ObjectEvent, ObjectReader } from '../storage/cacher/types.ts';
import type { KeyValue, Store } from '../storage/interface.ts';
import type { OpContext } from './rest.ts';
import type { Admission, AdmissionAttributes, AdmissionOperation } from './admission.ts';
import { DryRunStore } from './dry-run-store.ts';
import { NoopUpdates } from './noop-updates.ts';
import { canonicalObject, encodeCanonical, encodeObject, listPrefix, objectKey } from './codec.ts';
import { registryStrategy, type RegistryStrategy } from './strategy.ts';
import { withPolicy, type ClusterPolicy } from '../api/validation/cluster-policy.ts';

/** Converts between the served version and the storage version (src/api/resources/conversion.ts). */
export interface VersionConverter {
  toStorage(obj: KObject): KObject;
  fromStorage(obj: KObject): KObject;
}

export interface StoreCoreOptions {
  readonly def: ResourceDef;
  /** The backend every write goes to. */
  readonly store: Store;
  /** Reads and watches (a Cacher or a DirectReader over the same store and prefix). */
  readonly reader: ObjectReader;
  readonly codec: ObjectCodec;
  /** The admission chain writes go through (src/registry/admission.ts); none when absent (tests). */
  readonly admission?: () => Admission | undefined;
  /** kube-apiserver's --enable-garbage-collector (default true): deletes add orphan/foregroundDeletion finalizers. */
  readonly garbageCollection?: boolean;
  /** The WatchList feature (sendInitialEvents); default true. */
  readonly watchList?: boolean;
  /** Clock for timestamps (tests). */
  readonly now?: () => Date;
  /** When objects are stored in another version (events.k8s.io/v1 as core/v1 Events): applied around storage. */
  readonly converter?: VersionConverter;
  /** kube-apiserver --allow-privileged (default false): privileged containers pass validation. */
  readonly allowPrivileged?: boolean;
  /** Whether updates may start from the watch cache (RegistryOptions.updatesFromCache; default true). */
  readonly updatesFromCache?: boolean;
}

/** Strategies whose validation runs under a non-default cluster policy, per strategy object. */
const PRIVILEGED = new WeakMap<RegistryStrategy, RegistryStrategy>();
const ALLOW_PRIVILEGED: ClusterPolicy = Object.freeze({ allowPrivileged: true });

/** The strategy with its validation run under --allow-privileged=true (src/api/validation/cluster-policy.ts). */
function allowingPrivileged(s: RegistryStrategy): RegistryStrategy {
  let w = PRIVILEGED.get(s);
  if (!w) {
    w = { ...s };
    const { validate, validateUpdate } = s;
    if (validate) w.validate = (obj, ctx) => withPolicy(ALLOW_PRIVILEGED, () => validate.call(s, obj, ctx));
    if (validateUpdate) w.validateUpdate = (obj, old, ctx) => withPolicy(ALLOW_PRIVILEGED, () => validateUpdate.call(s, obj, old, ctx));
    PRIVILEGED.set(s, w);
  }
  return w;
}

export class StoreCore {
  readonly def: ResourceDef;
  readonly store: Store;
  readonly reader: ObjectReader;
  readonly codec: ObjectCodec;
  readonly garbageCollection: boolean;
  readonly watchList: boolean;
  readonly now: () => Date;
  readonly converter?: VersionConverter;
  readonly allowPrivileged: boolean;
  readonly updatesFromCache: boolean;
  /** Revisions an unchanged update was already prepared for (update.ts). */
  readonly noops = new NoopUpdates();
  private readonly dryRunStore: Store;
  private readonly admissionOf: () => Admission | undefined;
  /** Converted views of shared cache entries and events: one per revision, so encodings are still made once. */
  private readonly views = new WeakMap<CachedObject, CachedObject>();
  private readonly eventViews = new WeakMap<ObjectEvent, ObjectEvent>();

  constructor(opts: StoreCoreOptions) {
    this.def = opts.def;
    this.store = opts.store;
    this.reader = opts.reader;
    this.codec = opts.codec;
    this.admissionOf = opts.admission ?? (() => undefined);
    this.garbageCollection = opts.garbageCollection ?? true;
    this.watchList = opts.watchList ?? true;
    this.now = opts.now ?? (() => new Date());
    if (opts.converter) this.converter = opts.converter;
    this.allowPrivileged = opts.allowPrivileged ?? false;
    this.updatesFromCache = opts.updatesFromCache ?? true;
    this.dryRunStore = new DryRunStore(opts.store);
  }

  get strategy(): RegistryStrategy {
    const s = registryStrategy(this.def);
    return this.allowPrivileged ? allowingPrivileged(s) : s;
  }

  /** The store a write of this request goes to: the dry-run wrapper when `ctx.dryRun`. */
  writer(ctx: OpContext): Store {
    return ctx.dryRun ? this.dryRunStore : this.store;
  }

  key(ctx: OpContext, name: string): string {
    return objectKey(this.def, ctx.namespace, name);
  }

  prefix(ctx: OpContext): string {
    return listPrefix(this.def, ctx.namespace);
  }

  /** `configmaps "x"` / `deployments.apps "x"`: how NotFound, AlreadyExists and Conflict name things. */
  resource(name?: string): Qualified {
    const q: Qualified = { kind: this.def.resource, group: this.def.group };
    if (name !== undefined) q.name = name;
    return q;
  }

  /** `ConfigMap "x"` / `Deployment.apps "x"`: how Invalid names things. */
  kind(name?: string): Qualified {
    const q: Qualified = { kind: this.def.kind, group: this.def.group };
    if (name !== undefined) q.name = name;
    return q;
  }

  /** Stored bytes → the object in the served version. */
  decode(kv: KeyValue): KObject {
    const obj = this.codec.decode(kv);
    return this.converter ? this.converter.fromStorage(obj) : obj;
  }

  /** An object in the served version → stored bytes (storage version), in kube's JSON shape. */
  encode(obj: KObject): Uint8Array {
    return encodeObject(this.converter ? this.converter.toStorage(obj) : obj);
  }

  /** The object in kube's JSON shape, without resourceVersion (src/api/canonical.ts). */
  canonical(obj: KObject): KObject {
    return canonicalObject(obj);
  }

  /** Stored bytes of an object {@link canonical} returned. */
  encodeCanonical(canonical: KObject): Uint8Array {
    return this.converter ? encodeObject(this.converter.toStorage(canonical)) : encodeCanonical(canonical);
  }

  /** A reader's object as this resource serves it (itself when no conversion applies). */
  view(c: CachedObject): CachedObject {
    const conv = this.converter;
    if (!conv) return c;
    let v = this.views.get(c);
    if (!v) {
      v = { key: c.key, kv: c.kv, object: Object.freeze(conv.fromStorage(c.object)), attrs: c.attrs, encoded: new Map() };
      this.views.set(c, v);
    }
    return v;
  }

  viewEvent(e: ObjectEvent): ObjectEvent {
    if (!this.converter || !e.object) return e;
    let v = this.eventViews.get(e);
    if (!v) {
      v = { ...e, object: this.view(e.object), encoded: new Map() };
      this.eventViews.set(e, v);
    }
    return v;
  }

  /** The admission chain, when the server runs one. */
  admission(): Admission | undefined {
    return this.admissionOf();
  }

  /**
   * Admission attributes of a write to this resource (or its `ctx.subresource`): kind and resource are the
   * served ones; `options` is the request's Create/Update/DeleteOptions.
   */
  admissionAttributes(ctx: OpContext, a: { operation: AdmissionOperation; name: string; object?: KObject; oldObject?: KObject; options?: Record<string, unknown> }): AdmissionAttributes {
    const resource = { group: this.def.group, version: this.def.version, resource: this.def.resource };
    const sub = ctx.subresource ? this.def.subresources?.find((s) => s.name === ctx.subresource) : undefined;
    const kind = sub?.kind ?? { group: this.def.group, version: this.def.version, kind: this.def.kind };
    return {
      operation: a.operation, kind, resource, subresource: ctx.subresource,
      requestKind: kind, requestResource: resource, requestSubResource: ctx.subresource,
      name: a.name, namespace: this.def.namespaced ? ctx.namespace : '',
      object: a.object, oldObject: a.oldObject, options: a.options, dryRun: ctx.dryRun, user: ctx.user,
      warnings: ctx.warnings, auditAnnotations: ctx.auditAnnotations ?? {}, reinvocation: { requested: false, running: false },
    };
  }

  apiVersion(): string {
    return this.def.group ? `${this.def.group}/${this.def.version}` : this.def.version;
  }
}
