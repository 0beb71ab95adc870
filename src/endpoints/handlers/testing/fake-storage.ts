/**
 * Test doubles for the handler layer: an in-memory `RestStorage` with just enough API machinery (names,
 * uids, resourceVersions, conflicts, finalizers, a watch fan-out) to check what the HTTP layer sends and
 * answers, and a tiny HTTP server that mounts an Endpoint on 127.0.0.1:0 with a RequestContext built the way
 * the real chain builds it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type KObject } from '../../../machinery/objects.ts';
import { apiVersionOf, type ResourceDef } from '../../../api/types.ts';
import type {
  DeleteParams, DeleteResult, GetParams, ListParams, ListResult, OpContext, RestRegistry, RestStorage, UpdateFn,
  WatchParams, WriteParams,
} from '../../../registry/rest.ts';
import type { Endpoint, RequestContext, RequestInfo } from '../../../request/context.ts';
import type { CachedObject, ObjectEvent, ObjectWatch, ObjectWatchSink } from '../../../storage/cacher/types.ts';
import { respondError } from '../../respond.ts';
import { errors } from '../../../machinery/errors.ts';

/** Every call the fake saw, for assertions on what handlers pass down. */
export interface Call {
  method: string;
  ctx: OpContext;
  args: unknown[];
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}

export class FakeStorage implements RestStorage {
  readonly calls: Call[] = [];
  readonly objects = new Map<string, CachedObject>();
  readonly watchers = new Set<{ ns: string; name?: string; sink: ObjectWatchSink }>();
  rev = 100;
  /** Next guaranteedUpdate attempts fail with a conflict this many times (to test re-application). */
  conflicts = 0;

  constructor(readonly def: ResourceDef) {}

  private key(ns: string, name: string): string {
    return this.def.namespaced ? `${ns}/${name}` : name;
  }

  private notFound(name: string) {
    return errors.notFound({ kind: this.def.resource, ...(this.def.group ? { group: this.def.group } : {}), name });
  }

  /** Stores an object as the registry would (metadata filled, frozen, cached) and notifies watchers. */
  put(obj: KObject, type: 'ADDED' | 'MODIFIED' | 'DELETED' = 'ADDED'): CachedObject {
    const rev = ++this.rev;
    const o = structuredClone(obj);
    o.metadata.resourceVersion = String(rev);
    const key = this.key(o.metadata.namespace ?? '', o.metadata.name ?? '');
    deepFreeze(o);
    const co: CachedObject = {
      key,
      kv: { key, value: new Uint8Array(), createRevision: rev, modRevision: rev, version: 1 } as unknown as CachedObject['kv'],
      object: o,
      attrs: { name: o.metadata.name ?? '', namespace: o.metadata.namespace ?? '', labels: o.metadata.labels ?? {}, fields: {} },
      encoded: new Map(),
    };
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, co);
    const ev: ObjectEvent = { type, object: co, revision: rev, encoded: new Map() };
    for (const w of this.watchers) {
      if (w.ns && w.ns !== co.attrs.namespace) continue;
      if (w.name && w.name !== co.attrs.name) continue;
      w.sink.onEvent(ev);
    }
    return co;
  }

  async get(ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> {
    this.calls.push({ method: 'get', ctx, args: [name, params] });
    const co = this.objects.get(this.key(ctx.namespace, name));
    if (!co) throw this.notFound(name);
    return co;
  }

  private select(ctx: OpContext, params: ListParams): CachedObject[] {
    const nameSel = /metadata\.name=([^,]*)/.exec(params.fieldSelector ?? '')?.[1];
    return [...this.objects.values()]
      .filter((c) => !ctx.namespace || c.attrs.namespace === ctx.namespace)
      .filter((c) => nameSel === undefined || c.attrs.name === nameSel)
      .sort((a, b) => a.key.localeCompare(b.key));
  }

  async list(ctx: OpContext, params: ListParams): Promise<ListResult> {
    this.calls.push({ method: 'list', ctx, args: [params] });
    const all = this.select(ctx, params);
    const start = params.continue ? Number(params.continue) : 0;
    const items = params.limit ? all.slice(start, start + params.limit) : all.slice(start);
    const next = start + items.length;
    const more = next < all.length;
    return {
      items,
      resourceVersion: String(this.rev),
      ...(more ? { continue: String(next), remainingItemCount: all.length - next } : {}),
    };
  }

  async watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink): Promise<ObjectWatch> {
    this.calls.push({ method: 'watch', ctx, args: [params] });
    const nameSel = /metadata\.name=([^,]*)/.exec(params.fieldSelector ?? '')?.[1];
    const w = { ns: ctx.namespace, ...(nameSel !== undefined ? { name: nameSel } : {}), sink };
    if (params.resourceVersion === undefined || params.resourceVersion === '0' || params.sendInitialEvents) {
      for (const co of this.select(ctx, params)) sink.onEvent({ type: 'ADDED', object: co, revision: co.kv.modRevision, encoded: new Map() });
      if (params.sendInitialEvents && params.allowWatchBookmarks) {
        sink.onEvent({ type: 'BOOKMARK', revision: this.rev, initialEventsEnd: true, encoded: new Map() });
      }
    }
    this.watchers.add(w);
    return { dispose: () => this.watchers.delete(w) };
  }

  /** Ends every open watch, as the cache does on compaction or shutdown (`err` → an ERROR event). */
  closeWatchers(err?: Error): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      w.sink.onClose(err);
    }
  }

  /** Sends a BOOKMARK at the current revision to every watcher. */
  bookmark(): void {
    for (const w of this.watchers) w.sink.onEvent({ type: 'BOOKMARK', revision: this.rev, encoded: new Map() });
  }

  async create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    this.calls.push({ method: 'create', ctx, args: [obj, params] });
    const o = structuredClone(obj);
    if (!o.metadata.name && o.metadata.generateName) o.metadata.name = `${o.metadata.generateName}abcde`;
    const name = o.metadata.name ?? '';
    if (this.objects.has(this.key(ctx.namespace, name))) {
      throw errors.alreadyExists({ kind: this.def.resource, ...(this.def.group ? { group: this.def.group } : {}), name });
    }
    o.metadata.uid = randomUUID();
    o.metadata.creationTimestamp = '2026-11-22T00:00:00Z';
    if (ctx.dryRun) return { ...o, metadata: { ...o.metadata, resourceVersion: '' } };
    return this.put(o).object;
  }

  async update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }> {
    this.calls.push({ method: 'update', ctx, args: [name, obj, params] });
    const cur = this.objects.get(this.key(ctx.namespace, name));
    if (!cur) {
      const created = await this.create(ctx, obj, params);
      return { object: created, created: true };
    }
    if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== cur.object.metadata.resourceVersion) {
      throw errors.conflict({ kind: this.def.resource, name });
    }
    const next = structuredClone(obj);
    next.metadata.uid = cur.object.metadata.uid;
    if (ctx.dryRun) return { object: next, created: false };
    return { object: this.put(next, 'MODIFIED').object, created: false };
  }

  async guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: WriteParams & { allowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    this.calls.push({ method: 'guaranteedUpdate', ctx, args: [name, params] });
    for (;;) {
      const cur = this.objects.get(this.key(ctx.namespace, name));
      const next = await mutate(cur?.object);
      if (this.conflicts > 0) {
        this.conflicts--;
        continue;
      }
      if (!cur) return { object: await this.create(ctx, next, params), created: true };
      if (ctx.dryRun) return { object: next, created: false };
      return { object: this.put(next, 'MODIFIED').object, created: false };
    }
  }

  async delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
    this.calls.push({ method: 'delete', ctx, args: [name, params] });
    const cur = this.objects.get(this.key(ctx.namespace, name));
    if (!cur) throw this.notFound(name);
    if (cur.object.metadata.finalizers?.length) {
      const o = structuredClone(cur.object);
      o.metadata.deletionTimestamp = '2026-11-22T00:00:01Z';
      o.metadata.deletionGracePeriodSeconds = 0;
      return { object: ctx.dryRun ? o : this.put(o, 'MODIFIED').object, deleted: false };
    }
    if (ctx.dryRun) return { object: cur.object, deleted: true };
    return { object: this.put(cur.object, 'DELETED').object, deleted: true };
  }

  async deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams): Promise<KObject[]> {
    this.calls.push({ method: 'deleteCollection', ctx, args: [list, params] });
    const out: KObject[] = [];
    for (const co of this.select(ctx, list)) {
      out.push((await this.delete(ctx, co.attrs.name, params)).object);
    }
    return out;
  }
}

export class FakeRegistry implements RestRegistry {
  readonly storages = new Map<string, FakeStorage>();
  add(def: ResourceDef): FakeStorage {
    const s = new FakeStorage(def);
    this.storages.set(`${def.group}/${def.version}/${def.resource}`, s);
    return s;
  }
  lookup(group: string, version: string, resource: string): RestStorage | undefined {
    return this.storages.get(`${group}/${version}/${resource}`);
  }
}

export function resourceDef(over: Partial<ResourceDef> & Pick<ResourceDef, 'resource' | 'kind'>): ResourceDef {
  return {
    group: '', version: 'v1', singular: over.kind.toLowerCase(), listKind: `${over.kind}List`, namespaced: true,
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'], nameRule: 'dns1123-subdomain',
    storagePrefix: `/registry/${over.resource}/`, ...over,
  };
}

/** Just enough of kube's RequestInfo for routing to the resource endpoint. */
function requestInfo(url: URL, method: string): RequestInfo {
  const parts = url.pathname.split('/').filter(Boolean);
  const empty: RequestInfo = {
    isResourceRequest: false, path: url.pathname, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
  if (parts[0] !== 'api' && parts[0] !== 'apis') return empty;
  const core = parts[0] === 'api';
  const rest = parts.slice(core ? 2 : 3);
  if (rest.length === 0) return empty;
  const watchParam = url.searchParams.get('watch');
  const isWatch = watchParam !== null && watchParam !== '0' && watchParam.toLowerCase() !== 'false';
  return {
    ...empty,
    isResourceRequest: true,
    apiPrefix: parts[0],
    apiGroup: core ? '' : (parts[1] ?? ''),
    apiVersion: (core ? parts[1] : parts[2]) ?? '',
    verb: method === 'GET' ? (isWatch ? 'watch' : 'get') : method.toLowerCase(),
    parts: rest,
  };
}

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `endpoint` on 127.0.0.1:0 as the chain would (context, user, warnings, abort on disconnect). */
export async function serveEndpoint(endpoint: Endpoint): Promise<TestServer> {
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const ctx: RequestContext = {
      req, res, url, query: url.searchParams, info: requestInfo(url, req.method ?? 'GET'),
      user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      auditId: 'audit-1', warnings: [], signal: ac.signal, startTime: Date.now(),
    };
    Promise.resolve(endpoint(ctx)).then((handled) => {
      if (!handled) respondError(ctx, errors.notFound({ kind: 'path' }));
    }, (err: unknown) => respondError(ctx, err));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export { apiVersionOf };
