/**
 * The resource endpoint: every request RequestInfo marks as a resource request lands here, is routed to its
 * `RestStorage`, and dispatched to one handler per verb (src/endpoints/handlers/).
 *
 * Routing answers as kube-apiserver's router does for paths it has no route for:
 *   unknown resource or sub-resource, a namespaced item without a namespace, a cluster-scoped resource under
 *   /namespaces/<ns>/ → 404 `the server could not find the requested resource` (details {});
 *   a method the resource has no route for (verb not served) → 405 `the server does not allow this method on
 *   the requested resource` (details {}); `?watch` on a resource without watch →
 *   `watch is not supported on resources of kind "<resource>"`.
 * Namespace and name come from the path itself (RequestInfo's `name` may come from a field selector).
 */
import type { Catalog } from '../api/catalog.ts';
import { supportsProtobuf } from '../api/protobuf/codec.ts';
import { apiVersionOf, type ResourceDef, type Verb } from '../api/types.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import type { Endpoint, RequestContext } from '../request/context.ts';
import { signalDeprecatedUse, type DeprecatedUse } from '../features/deprecated-api.ts';
import { handleConnect, isConnect } from './handlers/connect.ts';
import { handleCreate } from './handlers/create.ts';
import { handleDelete } from './handlers/delete.ts';
import { handleDeleteCollection } from './handlers/deletecollection.ts';
import { handleGet } from './handlers/get.ts';
import { handleList } from './handlers/list.ts';
import { handlePatch } from './handlers/patch.ts';
import type { HandlerScope } from './handlers/scope.ts';
import { handleUpdate } from './handlers/update.ts';
import { handleWatch } from './handlers/watch.ts';
import { schemaForKind } from './negotiation/field-schema.ts';
import { customStrictSchema } from '../registry/customresources/resource-def.ts';
import type { SchemaNode } from '../machinery/json/scan.ts';
import { parseListQuery } from './params.ts';
import { respondError } from './respond.ts';
import { errors, StatusError } from '../machinery/errors.ts';

export interface ResourceEndpointOptions {
  readonly registry: RestRegistry;
  /** Used to word decode errors for kinds served elsewhere; optional so tests can omit it. */
  readonly catalog?: Pick<Catalog, 'lookupKind'>;
  /** Sink for apiserver_requested_deprecated_apis (Metrics.recordDeprecatedRequest); optional for tests. */
  readonly onDeprecatedRequest?: (use: DeprecatedUse) => void;
  /** Sink for apiserver_watch_events_total / _sizes (Metrics.recordWatchEvent); optional for tests. */
  readonly onWatchEvent?: (group: string, version: string, kind: string, bytes: number) => void;
}

/** Path segments kube treats as sub-resources of a namespace (not nested resources). */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export interface ParsedResourcePath {
  /** `/watch/` legacy prefix. */
  readonly legacyWatch: boolean;
  readonly namespaceInPath: boolean;
  readonly namespace: string;
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
  /** Segments past `<resource>/<name>/<subresource>` (sub-paths such as proxy): not served. */
  readonly extra: number;
}

/** Splits a resource path after `/api/<v>` or `/apis/<g>/<v>` the way kube's RequestInfoFactory does. */
export function parseResourcePath(pathname: string, apiPrefix: string): ParsedResourcePath | undefined {
  const segs = pathname.split('/').filter((p) => p !== '').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const skip = apiPrefix === 'api' ? 2 : 3;
  let parts = segs.slice(skip);
  let legacyWatch = false;
  if (parts[0] === 'watch') {
    legacyWatch = true;
    parts = parts.slice(1);
  }
  if (parts.length === 0) return undefined;
  let namespace = '';
  let namespaceInPath = false;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1] as string;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] as string)) {
      namespaceInPath = true;
      parts = parts.slice(2);
    }
  }
  return {
    legacyWatch,
    namespaceInPath,
    namespace: namespaceInPath ? namespace : '',
    resource: parts[0] as string,
    name: parts[1] ?? '',
    subresource: parts[2] ?? '',
    extra: Math.max(0, parts.length - 3),
  };
}

/** Distinct paths remembered by resourcePathOf; past this the memo starts over (paths are client-chosen). */
const PATH_MEMO_MAX = 4096;
const pathMemo = new Map<string, ParsedResourcePath | undefined>();

/** parseResourcePath, remembered per (prefix, path): clients repeat the same URLs. The results are frozen and shared. */
export function resourcePathOf(pathname: string, apiPrefix: string): ParsedResourcePath | undefined {
  const key = `${apiPrefix} ${pathname}`;
  const hit = pathMemo.get(key);
  if (hit !== undefined || pathMemo.has(key)) return hit;
  const p = parseResourcePath(pathname, apiPrefix);
  if (pathMemo.size >= PATH_MEMO_MAX) pathMemo.clear();
  pathMemo.set(key, p && Object.freeze(p));
  return p;
}

const notFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
const notAllowed = () => new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

function verbFor(method: string, p: ParsedResourcePath, ctx: RequestContext): Verb | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (p.name) return p.legacyWatch || ctx.info.verb === 'watch' ? 'watch' : 'get';
      return 'list';
    case 'POST': return 'create';
    case 'PUT': return 'update';
    case 'PATCH': return 'patch';
    case 'DELETE': return p.name ? 'delete' : 'deletecollection';
    default: return undefined;
  }
}

/** The raw path after `…/<name>/<subresource>` (a proxy's target path, trailing slash kept), '' when none. */
function restOfPath(pathname: string, subresource: string, name: string): string {
  const segs = pathname.split('/');
  for (let i = 2; i < segs.length; i++) {
    if (segs[i] !== subresource) continue;
    let prev = segs[i - 1]!;
    try {
      prev = decodeURIComponent(prev);
    } catch { /* keep it raw */ }
    if (prev === name) return i + 1 < segs.length ? `/${segs.slice(i + 1).join('/')}` : '';
  }
  return '';
}

function splitApiVersion(apiVersion: string): [string, string] {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
}

function fieldSchemaOf(def: ResourceDef, apiVersion: string, kind: string): { fieldSchema?: SchemaNode } {
  // Custom resources: the CRD schema's strict-decoding view (src/apiextensions); built-in kinds: the catalog's.
  const schema = (kind === def.kind ? customStrictSchema(def) : undefined) ?? schemaForKind(apiVersion, kind);
  return schema ? { fieldSchema: schema } : {};
}

type RenderParts = Pick<HandlerScope, 'render'> & { fieldSchema?: SchemaNode };
/**
 * The render options and strict-decoding schema of (def, apiVersion, kind, table): fixed for a def (a changed
 * CRD is a new def), so computed once instead of on every request.
 */
const renderParts = new WeakMap<ResourceDef, Map<string, RenderParts>>();

function renderPartsOf(def: ResourceDef, apiVersion: string, kind: string, group: string, table: boolean): RenderParts {
  let byKey = renderParts.get(def);
  if (!byKey) renderParts.set(def, (byKey = new Map()));
  const key = `${apiVersion}\0${kind}\0${table ? 1 : 0}`;
  let parts = byKey.get(key);
  if (!parts) {
    parts = {
      // A custom resource's own objects are JSON only, even when its kind shares a name with a meta/v1 kind;
      // its Scale (autoscaling/v1) has a protobuf form.
      render: { def, kind, apiVersion, group, protobuf: supportsProtobuf(apiVersion, kind) && !(def.custom && kind === def.kind), ...(table ? {} : { table: false }) },
      ...fieldSchemaOf(def, apiVersion, kind),
    };
    byKey.set(key, parts);
  }
  return parts;
}

export function createResourceEndpoint(opts: ResourceEndpointOptions): Endpoint {
  const { registry, catalog } = opts;
  const isKnownKind = (apiVersion: string, kind: string) => {
    if (!catalog) return true;
    const [g, v] = splitApiVersion(apiVersion);
    return catalog.lookupKind(g, v, kind) !== undefined;
  };

  async function serve(ctx: RequestContext): Promise<void> {
    const info = ctx.info;
    const p = resourcePathOf(ctx.url.pathname, info.apiPrefix);
    if (!p || (p.extra > 0 && p.subresource !== 'proxy')) throw notFound();
    const group = info.apiGroup;
    const version = info.apiVersion;
    const main = registry.lookup(group, version, p.resource);
    if (!main) throw notFound();
    const def: ResourceDef = main.def;
    let storage: RestStorage = main;
    let verbs: readonly Verb[] = def.verbs;
    let kind = def.kind;
    let apiVersion = apiVersionOf(def);
    // Virtual kinds that cannot be listed (reviews, bindings) have no Table form in kube: their REST is no
    // TableConvertor. Listable ones (componentstatuses) must have one.
    let table = !(def.virtual === true && !def.verbs.includes('list'));
    if (p.subresource) {
      const sub = def.subresources?.find((s) => s.name === p.subresource);
      if (!sub || !p.name) throw notFound();
      if (sub.table === false) table = false;
      storage = registry.lookup(group, version, `${p.resource}/${p.subresource}`) ?? main;
      verbs = sub.verbs;
      if (sub.kind) {
        kind = sub.kind.kind;
        apiVersion = apiVersionOf(sub.kind);
      }
    }
    // Scope: namespaced items need a namespace; cluster-scoped resources never live under one.
    if (def.namespaced && !p.namespaceInPath && p.name) throw notFound();
    if (!def.namespaced && p.namespaceInPath) throw notFound();
    if (p.extra > 0 && !isConnect(p.resource, p.subresource)) throw notFound();

    let verb = verbFor(ctx.req.method ?? 'GET', p, ctx);
    if (!verb) throw notAllowed();
    // Collection writes exist only under a namespace for namespaced kinds; item writes need a name.
    if (verb === 'create' && ((p.name && !p.subresource) || (def.namespaced && !p.namespaceInPath))) throw notAllowed();
    if ((verb === 'update' || verb === 'patch') && !p.name) throw notAllowed();
    if (verb === 'deletecollection' && def.namespaced && !p.namespaceInPath) throw notAllowed();

    if (def.deprecation) {
      if (def.deprecation.warning) ctx.warnings.push(def.deprecation.warning);
      signalDeprecatedUse(ctx, {
        group, version, resource: p.resource, subresource: p.subresource, removedRelease: def.deprecation.removedRelease ?? '',
      }, opts.onDeprecatedRequest);
    }

    const scope: HandlerScope = {
      storage, def, group, version, resource: p.resource, subresource: p.subresource, kind, apiVersion,
      namespace: def.namespaced ? p.namespace : '',
      name: p.name,
      isKnownKind,
      ...(opts.onWatchEvent ? { onWatchEvent: opts.onWatchEvent } : {}),
      ...renderPartsOf(def, apiVersion, kind, group, table),
    };

    if (p.subresource && isConnect(p.resource, p.subresource)) {
      if (!verbs.includes(verb)) throw notAllowed();
      return await handleConnect(ctx, { scope, registry, rest: restOfPath(ctx.url.pathname, p.subresource, p.name) });
    }
    if (verb === 'list' || verb === 'watch' || verb === 'deletecollection') {
      const q = parseListQuery(ctx.query, { forceWatch: verb === 'watch' || p.legacyWatch });
      if (verb === 'list' && q.watch) verb = 'watch';
      if (!verbs.includes(verb)) {
        if (verb === 'watch' && verbs.includes('list')) throw errors.methodNotSupported({ kind: p.resource, group }, 'watch');
        throw notAllowed();
      }
      if (verb === 'watch') return await handleWatch(ctx, scope, q);
      if (verb === 'list') return await handleList(ctx, scope, q);
      return await handleDeleteCollection(ctx, scope, q);
    }
    if (!verbs.includes(verb)) throw notAllowed();
    switch (verb) {
      case 'get': return await handleGet(ctx, scope);
      case 'create': return await handleCreate(ctx, scope);
      case 'update': return await handleUpdate(ctx, scope);
      case 'patch': return await handlePatch(ctx, scope);
      case 'delete': return await handleDelete(ctx, scope);
    }
  }

  const serveOrFail = async (ctx: RequestContext): Promise<boolean> => {
    try {
      await serve(ctx);
    } catch (err) {
      if (ctx.res.headersSent) {
        // A streamed body failed midway: nothing sensible can follow the bytes already sent.
        if (!ctx.res.writableEnded) ctx.res.destroy(err instanceof Error ? err : undefined);
      } else {
        respondError(ctx, err);
      }
    }
    return true;
  };
  return function resourceEndpoint(ctx: RequestContext): boolean | Promise<boolean> {
    return ctx.info.isResourceRequest ? serveOrFail(ctx) : false;
  };
}
