/**
 * The RBAC authorizer's in-memory state, fed by informers: roles by name, bindings by subject. A decision
 * looks up the bindings of the user's name and groups (one map lookup each) and resolves each binding's
 * roleRef at decision time, so role changes apply without re-indexing bindings.
 *
 * Invariants: every stored binding is listed under each of its `subjectKeys` exactly once, in the cluster
 * map (ClusterRoleBindings) or the map of its namespace (RoleBindings); `upsert*` replaces, `delete*`
 * removes. Missing roles resolve to the informer-lister errors kube reports
 * (`clusterrole.rbac.authorization.k8s.io "x" not found`).
 */
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import { normalizeRules, type NormalRule } from '../../registry/rbac/validation/rules.ts';
import type { RoleRules, RuleSource } from '../../registry/rbac/validation/resolver.ts';
import { bindingInfo, subjectKeys, userKeys, type BindingInfo, type RoleRef } from '../../registry/rbac/validation/subjects.ts';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

interface Indexed {
  readonly info: BindingInfo;
  readonly keys: readonly string[];
}

type BySubject = Map<string, Indexed[]>;

const EMPTY: readonly BindingInfo[] = Object.freeze([]);

export class RbacIndex implements RuleSource {
  /** Bumped by every change (the RBAC authorizer's decision cache is valid for one revision). */
  revision = 0;
  private readonly clusterRoles = new Map<string, readonly NormalRule[]>();
  /** `<namespace>/<name>` → rules. */
  private readonly roles = new Map<string, readonly NormalRule[]>();
  /** `c/<name>` or `n/<namespace>/<name>` → the indexed binding. */
  private readonly bindings = new Map<string, Indexed>();
  private readonly cluster: BySubject = new Map();
  private readonly namespaced = new Map<string, BySubject>();

  upsertClusterRole(obj: KObject): void {
    this.revision++;
    this.clusterRoles.set(obj.metadata.name ?? '', normalizeRules((obj as Record<string, unknown>)['rules']));
  }

  deleteClusterRole(obj: KObject): void {
    this.revision++;
    this.clusterRoles.delete(obj.metadata.name ?? '');
  }

  upsertRole(obj: KObject): void {
    this.revision++;
    this.roles.set(`${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`, normalizeRules((obj as Record<string, unknown>)['rules']));
  }

  deleteRole(obj: KObject): void {
    this.revision++;
    this.roles.delete(`${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`);
  }

  upsertBinding(obj: KObject, kind: BindingInfo['kind']): void {
    this.revision++;
    const info = bindingInfo(obj, kind);
    const id = bindingId(info);
    this.removeIndexed(id);
    const entry: Indexed = { info, keys: subjectKeys(info) };
    this.bindings.set(id, entry);
    const map = this.mapFor(info.namespace, true)!;
    for (const k of entry.keys) {
      const list = map.get(k);
      if (list) list.push(entry);
      else map.set(k, [entry]);
    }
  }

  deleteBinding(obj: KObject, kind: BindingInfo['kind']): void {
    this.revision++;
    this.removeIndexed(bindingId(bindingInfo(obj, kind)));
  }

  /** Counts, for tests and benchmarks. */
  size(): { roles: number; clusterRoles: number; bindings: number } {
    return { roles: this.roles.size, clusterRoles: this.clusterRoles.size, bindings: this.bindings.size };
  }

  clusterBindings(user: UserInfo): Iterable<BindingInfo> {
    return candidates(this.cluster, user);
  }

  namespaceBindings(user: UserInfo, namespace: string): Iterable<BindingInfo> {
    const map = this.namespaced.get(namespace);
    return map ? candidates(map, user) : EMPTY;
  }

  roleRules(ref: RoleRef, namespace: string): RoleRules {
    if (ref.kind === 'ClusterRole') return this.clusterRoles.get(ref.name) ?? { error: `clusterrole.${RBAC_GROUP} "${ref.name}" not found` };
    if (ref.kind === 'Role') return this.roles.get(`${namespace}/${ref.name}`) ?? { error: `role.${RBAC_GROUP} "${ref.name}" not found` };
    return { error: `unsupported role reference kind: "${ref.kind}"` };
  }

  private mapFor(namespace: string, create: boolean): BySubject | undefined {
    if (!namespace) return this.cluster;
    let m = this.namespaced.get(namespace);
    if (!m && create) this.namespaced.set(namespace, (m = new Map()));
    return m;
  }

  private removeIndexed(id: string): void {
    const old = this.bindings.get(id);
    if (!old) return;
    this.bindings.delete(id);
    const map = this.mapFor(old.info.namespace, false);
    if (!map) return;
    for (const k of old.keys) {
      const list = map.get(k);
      if (!list) continue;
      const i = list.indexOf(old);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) map.delete(k);
    }
    if (old.info.namespace && map.size === 0) this.namespaced.delete(old.info.namespace);
  }
}

function bindingId(b: BindingInfo): string {
  return b.namespace ? `n/${b.namespace}/${b.name}` : `c/${b.name}`;
}

/** Bindings under any of the user's keys, each once, in key order (user first, then groups). */
function candidates(map: BySubject, user: UserInfo): readonly BindingInfo[] {
  let first: Indexed[] | undefined;
  let out: BindingInfo[] | undefined;
  let seen: Set<Indexed> | undefined;
  for (const k of userKeys(user)) {
    const list = map.get(k);
    if (!list) continue;
    if (!first) {
      first = list;
      continue;
    }
    if (!out) {
      seen = new Set(first);
      out = first.map((e) => e.info);
    }
    for (const e of list) {
      if (seen!.has(e)) continue;
      seen!.add(e);
      out.push(e.info);
    }
  }
  if (out) return out;
  return first ? first.map((e) => e.info) : EMPTY;
}
