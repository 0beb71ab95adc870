/**
 * What every verb handler knows about the request: the storage, the resource definition, the kind it
 * serves, and the namespace/name from the URL (parsed from the path itself — for list/watch kube's
 * RequestInfo puts a `metadata.name` field selector into `name`, which must not be mistaken for a path name).
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { OpContext, RestStorage } from '../../registry/rest.ts';
import type { RequestContext } from '../../request/context.ts';
import type { SchemaNode } from '../../machinery/json/scan.ts';
import type { RenderScope } from '../negotiation/render.ts';
import { managerFromUserAgent } from '../params.ts';
import { errors } from '../../machinery/errors.ts';

export interface HandlerScope {
  readonly storage: RestStorage;
  /** The main resource's definition (the sub-resource's parent). */
  readonly def: ResourceDef;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  /** Kind and apiVersion of objects read and written at this path (e.g. autoscaling/v1 Scale for /scale). */
  readonly kind: string;
  readonly apiVersion: string;
  /** Namespace the request addresses: '' for cluster-scoped resources and for all-namespaces lists. */
  readonly namespace: string;
  /** Object name from the path; '' for collections. */
  readonly name: string;
  readonly render: RenderScope;
  /** Is (apiVersion, kind) served anywhere? For kube's wording of foreign-kind decode errors. */
  readonly isKnownKind: (apiVersion: string, kind: string) => boolean;
  /** Field structure of `kind` (built-in kinds) for strict field validation; undefined otherwise. */
  readonly fieldSchema?: SchemaNode;
  /** Each watch frame sent (group, version, kind of the watched objects, frame bytes), for metrics. */
  readonly onWatchEvent?: (group: string, version: string, kind: string, bytes: number) => void;
}

/**
 * Optional ResourceDef extensions the handlers read (see the report; the catalog may add them):
 * `returnDeletedObject` — kube's per-resource ReturnDeletedObject; `topLevelFields` — the kind's top-level
 * JSON fields besides apiVersion/kind/metadata, enabling `unknown field "x"` for strict field validation.
 */
export type ResourceDefExtensions = ResourceDef & { returnDeletedObject?: boolean; topLevelFields?: readonly string[] };

const topLevelCache = new WeakMap<ResourceDef, ReadonlySet<string>>();

/** How strict decoding checks unknown fields for this endpoint: the full schema, else top-level names. */
export function strictChecks(s: HandlerScope): { schema?: SchemaNode; topLevelFields?: ReadonlySet<string> } {
  if (s.fieldSchema) return { schema: s.fieldSchema };
  // Sub-resources serve another kind (Scale): the main kind's names do not apply.
  const set = s.kind === s.def.kind ? topLevelFieldsOf(s.def) : undefined;
  return set ? { topLevelFields: set } : {};
}

/** The kind's top-level field set, when the definition carries one. */
export function topLevelFieldsOf(def: ResourceDef): ReadonlySet<string> | undefined {
  const names = (def as ResourceDefExtensions).topLevelFields;
  if (!names) return undefined;
  let set = topLevelCache.get(def);
  if (!set) {
    set = new Set(names);
    topLevelCache.set(def, set);
  }
  return set;
}

const REQUEST = Symbol('request');
type Lazy = { [REQUEST]: RequestContext };

/**
 * The lazy members of an OpContext, as own accessors with shared getter functions: a getter written in the
 * object literal is a new closure per request, which gave every OpContext a hidden class of its own (allocated
 * in old space), and that kept the request's objects alive past scavenges (BENCHMARKS.md, issue 16).
 * Own and enumerable, so a spread copy (`{ ...ctx, subresource: '' }`) still reads them, as before.
 */
const LAZY_MEMBERS: PropertyDescriptorMap = {
  // Created on first use (admission, audit): most reads never need one.
  auditAnnotations: { enumerable: true, get(this: Lazy) { return (this[REQUEST].auditAnnotations ??= {}); } },
  // Lazy as well: reading ctx.signal creates the request's AbortController (see server/listener.ts).
  signal: { enumerable: true, get(this: Lazy) { return this[REQUEST].signal; } },
};

/** Builds the registry's OpContext for this request. */
export function opContext(ctx: RequestContext, s: HandlerScope, o: { dryRun?: boolean; fieldManager?: string; namespace?: string } = {}): OpContext {
  const op = {
    namespace: o.namespace ?? s.namespace,
    user: ctx.user,
    dryRun: o.dryRun ?? false,
    ...(o.fieldManager !== undefined ? { fieldManager: o.fieldManager } : {}),
    subresource: s.subresource,
    ...(s.name ? { name: s.name } : {}),
    warnings: ctx.warnings,
    ...(ctx.unsafeMalformedObjectDeletion ? { unsafeMalformedObjectDeletion: true } : {}),
    [REQUEST]: ctx,
  };
  return Object.defineProperties(op, LAZY_MEMBERS) as unknown as OpContext;
}

/** The `fieldManager` parameter, or kube's inference from the User-Agent. */
export function fieldManagerFor(ctx: RequestContext, given: string): string {
  if (given) return given;
  const ua = ctx.req.headers['user-agent'];
  return managerFromUserAgent(Array.isArray(ua) ? ua[0] : ua);
}

/**
 * rest.EnsureObjectNamespaceMatchesRequestNamespace: an empty namespace in the body takes the request's, a
 * cluster-scoped request clears it, a different one is a 400.
 */
export function ensureNamespace(obj: KObject, expected: string): void {
  const got = obj.metadata.namespace ?? '';
  if (got === expected) return;
  if (got === '') {
    obj.metadata.namespace = expected;
    return;
  }
  if (expected === '') {
    delete obj.metadata.namespace;
    return;
  }
  throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** The namespace kube expects in bodies: the request's for namespaced kinds (never for `namespaces`). */
export function expectedNamespace(s: HandlerScope): string {
  if (!s.def.namespaced) return '';
  return s.namespace;
}

/** handlers/rest.go checkName: the body's name (and namespace, if set) must match the URL (PUT, PATCH). */
export function checkName(obj: KObject, name: string, namespace: string): void {
  const objName = obj.metadata.name ?? '';
  if (objName !== name) {
    throw errors.badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  }
  const objNs = obj.metadata.namespace ?? '';
  if (namespace && objNs && objNs !== namespace) {
    throw errors.badRequest(`the namespace of the object (${objNs}) does not match the namespace on the request (${namespace})`);
  }
}

/**
 * Dedups metadata.ownerReferences (same entry twice) and warns as kube does since 1.20.
 * `afterAdmission` picks kube's second wording (used by PATCH, which dedups only after mutation).
 */
export function dedupOwnerReferences(obj: KObject, warnings: string[], afterAdmission = false): void {
  const { out, dups } = ownerReferenceDuplicates(obj);
  if (!dups.length) return;
  obj.metadata.ownerReferences = out;
  warnings.push(`.metadata.ownerReferences contains duplicate entries${afterAdmission ? ' after mutating admission happens' : ''}; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${dups.join(', ')}`);
}

function ownerReferenceDuplicates(obj: KObject): { out: NonNullable<KObject['metadata']['ownerReferences']>; dups: string[] } {
  const refs = obj.metadata.ownerReferences;
  if (!Array.isArray(refs) || refs.length < 2) return { out: refs ?? [], dups: [] };
  const out: typeof refs = [];
  const dups: string[] = [];
  for (const r of refs) {
    const same = out.some((o) => o.uid === r.uid && JSON.stringify(o) === JSON.stringify(r));
    if (same) dups.push(String(r.uid));
    else out.push(r);
  }
  return { out, dups };
}

/** Whether {@link dedupOwnerReferences} would change the object (read-only: frozen objects are fine). */
export function hasDuplicateOwnerReferences(obj: KObject): boolean {
  return ownerReferenceDuplicates(obj).dups.length > 0;
}
