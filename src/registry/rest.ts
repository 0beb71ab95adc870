/**
 * The contract between HTTP handlers (src/endpoints) and the registry (src/registry): one `RestStorage` per
 * served resource. Handlers parse HTTP (paths, query strings, bodies, media types) and encode responses; the
 * registry owns every API-machinery rule (metadata, resourceVersion table, selectors, continue tokens,
 * optimistic concurrency, deletion lifecycle, dry-run) and throws `StatusError`s.
 */
import type { KObject, UserInfo } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { CachedObject, ObjectWatch, ObjectWatchSink } from '../storage/cacher/types.ts';
import type { Admission } from './admission.ts';

/** Who asks and how: built by the handler from the request. */
export interface OpContext {
  /** '' for cluster-scoped resources and for lists/watches across all namespaces. */
  readonly namespace: string;
  readonly user: UserInfo;
  readonly dryRun: boolean;
  /** `fieldManager` query parameter or the inferred one (User-Agent). */
  readonly fieldManager?: string;
  /** '' for the main resource; `status`, `scale`, … */
  readonly subresource: string;
  /** The object name in the URL, when there is one (named sub-resource creates such as `serviceaccounts/<name>/token`). */
  readonly name?: string;
  /** Warning headers collected while serving (deprecations, field validation warnings, …). */
  readonly warnings: string[];
  /** Aborted when the client goes away or the server shuts down. */
  readonly signal?: AbortSignal;
  /** The request's audit annotations; admission plugins and webhooks add theirs here. */
  readonly auditAnnotations?: Record<string, string>;
  /** The server runs with AllowUnsafeMalformedObjectDeletion: LIST reports corrupt objects (StoreReadError). */
  readonly unsafeMalformedObjectDeletion?: boolean;
  /** A Service write: what the services REST wrapper allocated (registry/services/pending.ts). */
  readonly allocation?: { spec?: unknown };
}

/** Query parameters of get, as strings (the registry validates them). */
export interface GetParams {
  readonly resourceVersion?: string;
}

export interface ListParams {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface WatchParams extends ListParams {
  readonly allowWatchBookmarks?: boolean;
  readonly sendInitialEvents?: boolean;
  readonly timeoutSeconds?: number;
}

export interface ListResult {
  readonly items: CachedObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface WriteParams {
  /** `fieldValidation` query parameter: Ignore | Warn | Strict (default Warn). */
  readonly fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  /**
   * The caller computed `metadata.managedFields` itself (server-side apply): the registry stores them as given
   * instead of recording the write as an `Update`. Scale writes take them on the Scale and map them to the parent.
   */
  readonly keepManagedFields?: boolean;
}

export interface DeleteParams {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { uid?: string; resourceVersion?: string };
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly orphanDependents?: boolean;
  /**
   * Unsafe delete of a corrupt object (KEP-3926). Set only by a handler that checked the gate
   * AllowUnsafeMalformedObjectDeletion and the caller's `unsafe-delete-ignore-read-errors` permission.
   */
  readonly ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
}

export interface DeleteResult {
  /** The object as deleted (removed now) or as it stays (terminating, waiting on finalizers). */
  readonly object: KObject;
  /** True when the object is gone from storage. */
  readonly deleted: boolean;
}

/** `mutate` receives the current object (undefined when missing) and returns the desired one. */
export type UpdateFn = (current: KObject | undefined) => KObject | Promise<KObject>;

export interface RestStorage {
  readonly def: ResourceDef;
  get(ctx: OpContext, name: string, params: GetParams): Promise<CachedObject>;
  list(ctx: OpContext, params: ListParams): Promise<ListResult>;
  watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch>;
  create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject>;
  /** PUT: full replacement; `obj.metadata.resourceVersion` guards it (409 when stale). */
  update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }>;
  /**
   * Read-modify-write with retries on conflict (PATCH and controllers): `mutate` may run more than once.
   * Creates when `mutate` accepts `undefined` and the strategy/caller allows it (`allowCreate`). `fromCache`:
   * the first attempt may start from the watch cache's current revision, and an update that changes nothing may
   * answer with it (`cached`, frozen: not to be changed; valid only while `cached.object === object`).
   * `unchanged` (with `fromCache`): says, without changing the frozen current object, that `mutate` would return
   * it exactly as it is, so `mutate` need not run.
   */
  guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: GuaranteedUpdateParams): Promise<{ object: KObject; created: boolean; cached?: CachedObject }>;
  delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult>;
  deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams): Promise<KObject[]>;
}

export type GuaranteedUpdateParams = WriteParams & { allowCreate?: boolean; fromCache?: boolean; unchanged?: (current: KObject) => boolean };

/**
 * The params for an inner guaranteedUpdate whose `mutate` a wrapper (RBAC escalation checks, Service
 * allocation, version conversion) wraps with work of its own: the caller's `unchanged` speaks only for the
 * caller's `mutate`, so the wrapped one always runs.
 */
export function forWrappedMutate(params: GuaranteedUpdateParams): GuaranteedUpdateParams {
  if (!params.unchanged) return params;
  const rest = { ...params };
  delete rest.unchanged;
  return rest;
}

/** Finds the storage serving a resource (and sub-resource) of a group version. */
export interface RestRegistry {
  lookup(group: string, version: string, resource: string): RestStorage | undefined;
  /** The admission chain writes go through, for requests the registry does not see (connect). */
  admission?(): Admission | undefined;
}
