/**
 * What the policy plugins watch (kube's apiserver admission/plugin/policy/generic policy_source.go): the policies
 * and bindings of one kind pair through informers, the namespaces (for namespaceSelector and `namespaceObject`),
 * and one informer per paramKind in use (any served kind: ConfigMaps, custom resources, …). Every change marks
 * the hooks dirty; the next request recomputes them (policies compiled once per generation), so configuration
 * changes apply as soon as the watch delivers them.
 */
import { Informer } from '../../client/informer.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { GroupVersionKind, KObject } from '../../machinery/objects.ts';
import type { GroupVersionResource } from '../../registry/admission.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { systemContext } from '../../registry/system-context.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import type { MatchDeps } from './matching.ts';

type J = Record<string, unknown>;
export const spec = (o: KObject): J => (o['spec'] as J | undefined) ?? {};

/** A watched paramKind: its informer and scope. */
export interface ParamSource {
  readonly kind: GroupVersionKind;
  readonly namespaced: boolean;
  readonly informer: Informer;
  readonly started: Promise<void>;
}

export interface PolicyHook<C> {
  readonly policy: KObject;
  readonly bindings: readonly KObject[];
  readonly compiled: C;
  readonly params?: ParamSource;
  /** kube's ConfigurationError: the paramKind could not be resolved. */
  readonly configError?: string;
}

export interface SourceDeps {
  readonly registry: RestRegistry;
  readonly resources: () => readonly ResourceDef[];
  readonly log: (line: string) => void;
}

/** Served kinds and their equivalents (kube's RESTMapper and EquivalentResourceMapper over the catalog). */
export class ResourceMapper {
  constructor(private readonly resources: () => readonly ResourceDef[]) {}

  /** The storage-serving def of a kind in a group version (no sub-resources). */
  forKind(gvk: GroupVersionKind): ResourceDef | undefined {
    return this.resources().find((d) => d.group === gvk.group && d.version === gvk.version && d.kind === gvk.kind && !d.virtual);
  }

  forResource(gvr: GroupVersionResource): ResourceDef | undefined {
    return this.resources().find((d) => d.group === gvr.group && d.version === gvr.version && d.resource === gvr.resource);
  }

  equivalents(gvr: GroupVersionResource, subresource: string): GroupVersionResource[] {
    const self = this.forResource(gvr);
    if (!self) return [];
    return this.resources()
      .filter((d) => d.storagePrefix === self.storagePrefix && (!subresource || (d.subresources ?? []).some((s) => s.name === subresource)))
      .map((d) => ({ group: d.group, version: d.version, resource: d.resource }));
  }

  kindFor(gvr: GroupVersionResource, subresource: string): GroupVersionKind | undefined {
    const d = this.forResource(gvr);
    if (!d) return undefined;
    if (subresource) {
      const sub = (d.subresources ?? []).find((s) => s.name === subresource);
      if (!sub) return undefined;
      return sub.kind ?? { group: d.group, version: d.version, kind: d.kind };
    }
    return { group: d.group, version: d.version, kind: d.kind };
  }
}

/** Namespaces from an informer, with a live read for one not seen yet (kube's namespace matcher). */
export class Namespaces {
  readonly informer: Informer | undefined;
  readonly #storage: RestStorage | undefined;
  constructor(registry: RestRegistry, log: (l: string) => void) {
    this.#storage = registry.lookup('', 'v1', 'namespaces');
    this.informer = this.#storage ? new Informer({ storage: this.#storage, log }) : undefined;
  }

  async get(name: string): Promise<KObject> {
    const cached = this.informer?.get('', name);
    if (cached) return cached;
    if (!this.#storage) throw errors.notFound({ kind: 'namespaces', name });
    return (await this.#storage.get(systemContext(), name, { resourceVersion: '' })).object;
  }

  /** The cached namespace only (kube's lister for namespaceObject); undefined when not there. */
  cached(name: string): KObject | undefined {
    return this.informer?.get('', name);
  }
}

export function matchDeps(ns: Namespaces, mapper: ResourceMapper): MatchDeps {
  return {
    namespaceLabels: async (name) => ((await ns.get(name)).metadata.labels ?? {}),
    equivalents: (r, sub) => mapper.equivalents(r, sub),
    kindFor: (r, sub) => mapper.kindFor(r, sub),
  };
}

/** How often a policy whose paramKind is unknown looks again (a CRD may have been created since). */
const RETRY_UNRESOLVED_MS = 1000;

export class PolicySource<C> {
  readonly #policies: Informer | undefined;
  readonly #bindings: Informer | undefined;
  readonly #params = new Map<string, ParamSource>();
  readonly #compiled = new Map<string, { key: string; compiled: C }>();
  readonly mapper: ResourceMapper;
  #hooks: PolicyHook<C>[] = [];
  #dirty = true;
  #retryAt = 0;

  constructor(
    private readonly deps: SourceDeps,
    kinds: { readonly group: string; readonly version: string; readonly policies: string; readonly bindings: string },
    private readonly compile: (policy: KObject) => C,
    private readonly bindingPolicy: (binding: KObject) => string = (b) => String(spec(b)['policyName'] ?? ''),
  ) {
    this.mapper = new ResourceMapper(deps.resources);
    const p = deps.registry.lookup(kinds.group, kinds.version, kinds.policies);
    const b = deps.registry.lookup(kinds.group, kinds.version, kinds.bindings);
    const dirty = { onAdd: () => this.#markDirty(), onUpdate: () => this.#markDirty(), onDelete: () => this.#markDirty() };
    if (p && b) {
      this.#policies = new Informer({ storage: p, log: deps.log });
      this.#bindings = new Informer({ storage: b, log: deps.log });
      this.#policies.addHandler(dirty);
      this.#bindings.addHandler(dirty);
    }
  }

  /** False when the kinds are not served (the API is off): the plugin then has nothing to do. */
  get served(): boolean {
    return this.#policies !== undefined;
  }

  #markDirty(): void {
    this.#dirty = true;
  }

  async start(): Promise<void> {
    await Promise.all([this.#policies?.start(), this.#bindings?.start()]);
  }

  stop(): void {
    this.#policies?.stop();
    this.#bindings?.stop();
    for (const p of this.#params.values()) p.informer.stop();
  }

  /** The current hooks: each policy that has bindings, its compiled form and its param source. */
  hooks(): readonly PolicyHook<C>[] {
    if (!this.#dirty && !(this.#retryAt > 0 && Date.now() >= this.#retryAt)) return this.#hooks;
    this.#dirty = false;
    this.#retryAt = 0;
    const byPolicy = new Map<string, KObject[]>();
    for (const b of this.#bindings?.list() ?? []) {
      const name = this.bindingPolicy(b);
      if (!name) continue;
      let list = byPolicy.get(name);
      if (!list) byPolicy.set(name, (list = []));
      list.push(b);
    }
    const hooks: PolicyHook<C>[] = [];
    const usedParams = new Set<string>();
    for (const [name, bindings] of [...byPolicy].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const policy = this.#policies!.get('', name);
      if (!policy) continue;
      bindings.sort((x, y) => ((x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1));
      const key = `${policy.metadata.uid}/${policy.metadata.resourceVersion}`;
      let c = this.#compiled.get(name);
      if (!c || c.key !== key) {
        c = { key, compiled: this.compile(policy) };
        this.#compiled.set(name, c);
      }
      const hook: { -readonly [K in keyof PolicyHook<C>]: PolicyHook<C>[K] } = { policy, bindings, compiled: c.compiled };
      const paramKind = spec(policy)['paramKind'] as { apiVersion?: string; kind?: string } | undefined;
      if (paramKind) {
        const apiVersion = paramKind.apiVersion ?? '';
        const slash = apiVersion.indexOf('/');
        const gvk = { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1), kind: paramKind.kind ?? '' };
        const k = `${gvk.group}/${gvk.version}/${gvk.kind}`;
        usedParams.add(k);
        const src = this.#paramSource(gvk, k);
        if (src) hook.params = src;
        else {
          hook.configError = `failed to find resource referenced by paramKind: '${gvk.group}/${gvk.version}, Kind=${gvk.kind}'`;
          this.#retryAt = Date.now() + RETRY_UNRESOLVED_MS;
        }
      }
      hooks.push(hook);
    }
    for (const name of this.#compiled.keys()) if (!byPolicy.has(name)) this.#compiled.delete(name);
    for (const [k, p] of this.#params) {
      if (!usedParams.has(k)) {
        p.informer.stop();
        this.#params.delete(k);
      }
    }
    this.#hooks = hooks;
    return hooks;
  }

  #paramSource(gvk: GroupVersionKind, key: string): ParamSource | undefined {
    const known = this.#params.get(key);
    if (known) return known;
    const def = this.mapper.forKind(gvk);
    const storage = def && this.deps.registry.lookup(def.group, def.version, def.resource);
    if (!def || !storage) return undefined;
    const informer = new Informer({ storage, log: this.deps.log });
    // Param changes are read from the informer at admission time; nothing to recompute.
    const started = informer.start().catch((e: unknown) => this.deps.log(`params ${key}: ${(e as Error).message}`));
    const src: ParamSource = { kind: gvk, namespaced: def.namespaced, informer, started };
    this.#params.set(key, src);
    return src;
  }
}

/** kube's CollectParams: the params a binding selects ([null] when the policy or binding uses none). */
const NO_PARAMS: Array<KObject | null> = [null];

export function collectParams(
  paramKind: { apiVersion?: string; kind?: string } | undefined,
  source: ParamSource | undefined,
  paramRef: { name?: string; namespace?: string; selector?: Record<string, unknown>; parameterNotFoundAction?: string } | undefined,
  namespace: string,
  selectorMatches: (sel: Record<string, unknown>, labels: Record<string, string> | undefined) => boolean,
): Array<KObject | null> | Promise<Array<KObject | null>> {
  if (!paramKind || !paramRef) return NO_PARAMS;
  if (source && !source.informer.hasSynced()) return waitSynced(source, paramKind).then(() => collectParams(paramKind, source, paramRef, namespace, selectorMatches));
  return collectSynced(paramKind, source, paramRef, namespace, selectorMatches);
}

async function waitSynced(source: ParamSource, paramKind: { apiVersion?: string; kind?: string }): Promise<void> {
  const synced = await Promise.race([source.started.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1000).unref())]);
  if (!synced || !source.informer.hasSynced()) throw new Error(`paramKind kind \`${paramKind.apiVersion ?? ''}, Kind=${paramKind.kind ?? ''}\` not yet synced to use for admission`);
}

function collectSynced(
  paramKind: { apiVersion?: string; kind?: string },
  source: ParamSource | undefined,
  paramRef: { name?: string; namespace?: string; selector?: Record<string, unknown>; parameterNotFoundAction?: string },
  namespace: string,
  selectorMatches: (sel: Record<string, unknown>, labels: Record<string, string> | undefined) => boolean,
): Array<KObject | null> {
  const kindText = `${paramKind.apiVersion ?? ''}, Kind=${paramKind.kind ?? ''}`;
  if (!source) throw new Error(`paramKind kind \`${kindText}\` not known`);
  let paramsNamespace = '';
  if (source.namespaced) {
    paramsNamespace = paramRef.namespace || namespace;
    if (!paramsNamespace) throw new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  }
  if (paramRef.namespace && !source.namespaced) throw new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  let params: KObject[];
  if (paramRef.name) {
    if (paramRef.selector) throw new Error('paramRef.name and paramRef.selector are mutually exclusive');
    const p = source.informer.get(paramsNamespace, paramRef.name);
    params = p ? [p] : [];
  } else if (paramRef.selector) {
    params = source.informer.list().filter((o) => (o.metadata.namespace ?? '') === paramsNamespace && selectorMatches(paramRef.selector!, o.metadata.labels));
  } else {
    throw new Error('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') throw new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
  return params;
}

export function isNotFound(e: unknown): boolean {
  return e instanceof StatusError && e.code === 404;
}
