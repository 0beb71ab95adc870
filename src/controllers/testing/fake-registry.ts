/**
 * A small in-memory RestRegistry for controller unit tests: just enough API machinery (resourceVersions,
 * watch from a revision, finalizers, namespace lifecycle with the `finalize` sub-resource, refusal to create
 * in a missing or terminating namespace) to exercise the controllers without the real registry.
 * Not a conformance reference: the API tests run the controllers against the real server.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef, Verb } from '../../api/types.ts';
import type { DeleteParams, ListParams, OpContext, RestRegistry, RestStorage, UpdateFn, WatchParams } from '../../registry/rest.ts';
import type { CachedObject, ObjectEvent, ObjectWatchSink } from '../../storage/cacher/types.ts';
import { errors, StatusError } from '../../machinery/errors.ts';

const ALL_VERBS: Verb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

export function fakeDef(resource: string, kind: string, namespaced: boolean, group = '', version = 'v1'): ResourceDef {
  return {
    group, version, resource, kind, singular: kind.toLowerCase(), listKind: `${kind}List`, namespaced, verbs: ALL_VERBS,
    nameRule: 'dns1123-subdomain', storagePrefix: `/registry/${group ? `${group}/` : ''}${resource}/`,
  };
}

interface Entry { def: ResourceDef; obj: KObject }
interface Watcher { def: ResourceDef; ns: string; name?: string; sink: ObjectWatchSink }

export class FakeRegistry implements RestRegistry {
  rv = 1;
  readonly objects = new Map<string, Entry>();
  private readonly watchers = new Set<Watcher>();
  private readonly storages = new Map<string, FakeStorage>();
  /** Calls made, for assertions: `verb resource ns/name`. */
  readonly calls: string[] = [];

  constructor(readonly defs: ResourceDef[]) {
    for (const d of defs) this.storages.set(`${d.group}/${d.version}/${d.resource}`, new FakeStorage(this, d));
  }

  lookup(group: string, version: string, resource: string): RestStorage | undefined {
    return this.storages.get(`${group}/${version}/${resource}`);
  }

  catalog() {
    return { all: () => this.defs };
  }

  key(def: ResourceDef, ns: string, name: string): string {
    return `${def.storagePrefix}${def.namespaced ? `${ns}/` : ''}${name}`;
  }

  /** Closes every watch with an error, as the cache does for a slow consumer. */
  closeWatches(err?: Error): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w);
      w.sink.onClose(err);
    }
  }

  write(def: ResourceDef, obj: KObject, type: 'ADDED' | 'MODIFIED' | 'DELETED'): KObject {
    const rv = ++this.rv;
    const stored = structuredClone(obj);
    stored.metadata.resourceVersion = String(rv);
    const key = this.key(def, stored.metadata.namespace ?? '', stored.metadata.name ?? '');
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, { def, obj: stored });
    const ev: ObjectEvent = { type, object: cached(key, stored), revision: rv, encoded: new Map() };
    for (const w of [...this.watchers]) {
      if (w.def.storagePrefix !== def.storagePrefix) continue;
      if (w.ns && w.ns !== stored.metadata.namespace) continue;
      if (w.name && w.name !== stored.metadata.name) continue;
      w.sink.onEvent(ev);
    }
    return structuredClone(stored);
  }

  addWatcher(w: Watcher): { dispose(): void } {
    this.watchers.add(w);
    return { dispose: () => { this.watchers.delete(w); } };
  }

  namespace(name: string): KObject | undefined {
    return this.objects.get(`/registry/namespaces/${name}`)?.obj;
  }
}

function cached(key: string, obj: KObject): CachedObject {
  const o = Object.freeze(structuredClone(obj));
  return {
    key, kv: { key, value: new Uint8Array(), createRevision: 0, modRevision: Number(obj.metadata.resourceVersion), version: 1 }, object: o,
    attrs: { name: o.metadata.name ?? '', namespace: o.metadata.namespace ?? '', labels: o.metadata.labels ?? {}, fields: {} }, encoded: new Map(),
  };
}

function nameFromSelector(sel?: string): string | undefined {
  const m = /^metadata\.name=(.*)$/.exec(sel ?? '');
  return m ? m[1] : undefined;
}

class FakeStorage implements RestStorage {
  constructor(private readonly reg: FakeRegistry, readonly def: ResourceDef) {}

  private q(name?: string) {
    return { kind: this.def.resource, ...(this.def.group ? { group: this.def.group } : {}), ...(name !== undefined ? { name } : {}) };
  }

  private items(ctx: OpContext, params: ListParams): KObject[] {
    const name = nameFromSelector(params.fieldSelector);
    return [...this.reg.objects.values()].filter((e) => e.def.storagePrefix === this.def.storagePrefix
      && (!ctx.namespace || e.obj.metadata.namespace === ctx.namespace) && (!name || e.obj.metadata.name === name)).map((e) => e.obj);
  }

  private current(ctx: OpContext, name: string): KObject | undefined {
    return this.reg.objects.get(this.reg.key(this.def, ctx.namespace, name))?.obj;
  }

  async get(ctx: OpContext, name: string) {
    const o = this.current(ctx, name);
    if (!o) throw errors.notFound(this.q(name));
    return cached(this.reg.key(this.def, ctx.namespace, name), o);
  }

  async list(ctx: OpContext, params: ListParams) {
    return { items: this.items(ctx, params).map((o) => cached('', o)), resourceVersion: String(this.reg.rv) };
  }

  async watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink) {
    const name = nameFromSelector(params.fieldSelector);
    return this.reg.addWatcher({ def: this.def, ns: ctx.namespace, ...(name ? { name } : {}), sink });
  }

  async create(ctx: OpContext, obj: KObject) {
    this.reg.calls.push(`create ${this.def.resource} ${ctx.namespace}/${obj.metadata.name}`);
    if (this.def.namespaced) {
      const ns = this.reg.namespace(ctx.namespace);
      if (!ns) throw errors.notFound({ kind: 'namespaces', name: ctx.namespace });
      if (ns.metadata.deletionTimestamp) {
        throw new StatusError(403, 'Forbidden', `${this.def.resource} "${obj.metadata.name}" is forbidden: unable to create new content in namespace ${ctx.namespace} because it is being terminated`,
          { name: obj.metadata.name ?? '', kind: this.def.resource, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${ctx.namespace} is being terminated`, field: 'metadata.namespace' }] });
      }
    }
    const name = obj.metadata.name ?? '';
    if (this.current(ctx, name)) throw errors.alreadyExists(this.q(name));
    const o = structuredClone(obj);
    o.metadata = { ...o.metadata, namespace: this.def.namespaced ? ctx.namespace : undefined!, uid: `uid-${this.reg.rv}`, creationTimestamp: new Date().toISOString() };
    if (!this.def.namespaced) delete o.metadata.namespace;
    if (this.def.resource === 'namespaces') {
      o.spec = { finalizers: ['kubernetes'] };
      o.status = { phase: 'Active' };
    }
    return this.reg.write(this.def, o, 'ADDED');
  }

  async update(ctx: OpContext, name: string, obj: KObject) {
    return this.guaranteedUpdate(ctx, name, () => obj, {});
  }

  async guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: { allowCreate?: boolean }) {
    this.reg.calls.push(`update ${this.def.resource}${ctx.subresource ? `/${ctx.subresource}` : ''} ${ctx.namespace}/${name}`);
    const cur = this.current(ctx, name);
    if (!cur && !params.allowCreate) throw errors.notFound(this.q(name));
    const next = structuredClone(await mutate(cur ? Object.freeze(structuredClone(cur)) : undefined));
    if (cur && JSON.stringify(next) === JSON.stringify(cur)) return { object: cur, created: false };
    if (!cur) return { object: await this.create(ctx, next), created: true };
    if (this.def.resource === 'namespaces' && next.metadata.deletionTimestamp
      && ((next.spec as { finalizers?: string[] }).finalizers ?? []).length === 0 && !(next.metadata.finalizers ?? []).length) {
      return { object: this.reg.write(this.def, next, 'DELETED'), created: false };
    }
    if (next.metadata.deletionTimestamp && !(next.metadata.finalizers ?? []).length && this.def.resource !== 'namespaces') {
      return { object: this.reg.write(this.def, next, 'DELETED'), created: false };
    }
    return { object: this.reg.write(this.def, next, 'MODIFIED'), created: false };
  }

  async delete(ctx: OpContext, name: string, _params: DeleteParams) {
    this.reg.calls.push(`delete ${this.def.resource} ${ctx.namespace}/${name}`);
    const cur = this.current(ctx, name);
    if (!cur) throw errors.notFound(this.q(name));
    const waits = (cur.metadata.finalizers ?? []).length > 0
      || (this.def.resource === 'namespaces' && ((cur.spec as { finalizers?: string[] }).finalizers ?? []).length > 0);
    if (waits) {
      const next = structuredClone(cur);
      next.metadata.deletionTimestamp ??= new Date().toISOString();
      if (this.def.resource === 'namespaces') next.status = { phase: 'Terminating' };
      return { object: this.reg.write(this.def, next, 'MODIFIED'), deleted: false };
    }
    return { object: this.reg.write(this.def, cur, 'DELETED'), deleted: true };
  }

  async deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams) {
    const out: KObject[] = [];
    for (const o of this.items(ctx, list)) out.push((await this.delete({ ...ctx, namespace: o.metadata.namespace ?? '' }, o.metadata.name ?? '', params)).object);
    return out;
  }
}

export function defaultFakeRegistry(): FakeRegistry {
  return new FakeRegistry([
    fakeDef('namespaces', 'Namespace', false),
    fakeDef('configmaps', 'ConfigMap', true),
    fakeDef('serviceaccounts', 'ServiceAccount', true),
    fakeDef('secrets', 'Secret', true),
    fakeDef('services', 'Service', true),
    fakeDef('deployments', 'Deployment', true, 'apps'),
  ]);
}
