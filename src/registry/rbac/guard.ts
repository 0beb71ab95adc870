/**
 * Privilege-escalation prevention for RBAC writes (kube's pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased/storage.go), as a RestStorage wrapper the registry puts around the four kinds.
 *
 * Roles and ClusterRoles: members of `system:masters`, and callers the request authorizer allows to
 * `escalate` the resource (name: the request's, '' on create), write anything. Others may only write rules
 * they already hold at that scope (the namespace of a Role, cluster-wide for a ClusterRole); setting or
 * changing an aggregationRule needs `*` on everything.
 * Bindings: `system:masters`, or callers allowed to `bind` the referenced role (name = roleRef.name, in the
 * binding's namespace), or who hold every permission of that role at the binding's scope.
 *
 * The check runs on the final object: before create, and inside updates' read-modify-write (PUT, PATCH and
 * server-side apply) on the object about to be written, dry-run included; refusals write nothing. An update
 * that only touches ownerReferences/finalizers is not checked (the garbage collector must finish deletions).
 */
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import type { DeleteParams, GetParams, ListParams, OpContext, RestRegistry, RestStorage, UpdateFn, WatchParams, WriteParams } from '../rest.ts';
import { forWrappedMutate } from '../rest.ts';
import type { ObjectWatchSink } from '../../storage/cacher/types.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { covers, escalationMessage } from './validation/covers.ts';
import type { PolicyRule } from './validation/rules.ts';
import { bindingInfo, type RoleRef } from './validation/subjects.ts';
import { isOnlyMutatingGCFields } from './gc-fields.ts';
import { RBAC_GROUP, registryRulesFor, roleReferenceRules } from './registry-rules.ts';

export interface RbacGuardOptions {
  /** The request chain's authorizer (with the system:masters bypass), got lazily: it exists after the registry. */
  readonly authorizer: () => Authorizer | undefined;
}

const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

type Kind = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';
const KINDS = new Set<string>(['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings']);

/** For `RegistryOptions.wrapStorage`: guards the four RBAC kinds, returns every other storage as is. */
export function rbacStorageGuard(opts: RbacGuardOptions): (def: ResourceDef, storage: RestStorage, registry: RestRegistry) => RestStorage {
  return (def, storage, registry) => (def.group === RBAC_GROUP && KINDS.has(def.resource) ? new RbacGuard(storage, registry, opts, def.resource as Kind) : storage);
}

const isMaster = (u: UserInfo): boolean => u.groups.includes('system:masters');

export class RbacGuard implements RestStorage {
  private readonly isRole: boolean;

  constructor(private readonly inner: RestStorage, private readonly registry: RestRegistry, private readonly opts: RbacGuardOptions, private readonly kind: Kind) {
    this.isRole = kind === 'roles' || kind === 'clusterroles';
  }

  get def(): ResourceDef {
    return this.inner.def;
  }

  get(ctx: OpContext, name: string, params: GetParams) {
    return this.inner.get(ctx, name, params);
  }

  list(ctx: OpContext, params: ListParams) {
    return this.inner.list(ctx, params);
  }

  watch(ctx: OpContext, params: WatchParams, sink: ObjectWatchSink) {
    return this.inner.watch(ctx, params, sink);
  }

  delete(ctx: OpContext, name: string, params: DeleteParams) {
    return this.inner.delete(ctx, name, params);
  }

  deleteCollection(ctx: OpContext, list: ListParams, params: DeleteParams) {
    return this.inner.deleteCollection(ctx, list, params);
  }

  async create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    if (!(await this.trusted(ctx, ''))) await this.check(ctx, obj, undefined, false);
    return this.inner.create(ctx, obj, params);
  }

  async update(ctx: OpContext, name: string, obj: KObject, params: WriteParams): Promise<{ object: KObject; created: boolean }> {
    if (!(await this.trusted(ctx, name))) {
      const old = await this.inner.get(ctx, name, {}).then((c) => c.object, (e: unknown) => {
        if (e instanceof StatusError && e.code === 404) return undefined;
        throw e;
      });
      await this.check(ctx, obj, old, true);
    }
    return this.inner.update(ctx, name, obj, params);
  }

  async guaranteedUpdate(ctx: OpContext, name: string, mutate: UpdateFn, params: WriteParams & { allowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    if (await this.trusted(ctx, name)) return this.inner.guaranteedUpdate(ctx, name, mutate, params);
    return this.inner.guaranteedUpdate(ctx, name, async (current) => {
      const next = await mutate(current);
      await this.check(ctx, next, current, true);
      return next;
    }, forWrappedMutate(params));
  }

  /** EscalationAllowed (masters) for every kind; RoleEscalationAuthorized (`escalate`) for roles only. */
  private async trusted(ctx: OpContext, name: string): Promise<boolean> {
    if (isMaster(ctx.user)) return true;
    if (!this.isRole) return false;
    // kube's RoleEscalationAuthorized asks with APIVersion "*".
    return this.allowed(ctx.user, { verb: 'escalate', apiGroup: RBAC_GROUP, apiVersion: '*', resource: this.kind, name, namespace: ctx.namespace });
  }

  /** Asks the request authorizer (masters bypass and every mode count); any failure means no. */
  private async allowed(user: UserInfo, a: Pick<Attributes, 'verb' | 'apiGroup' | 'apiVersion' | 'resource' | 'name' | 'namespace'>): Promise<boolean> {
    try {
      const authorizer = this.opts.authorizer();
      if (!authorizer) return false;
      return (await authorizer.authorize({ user, isResourceRequest: true, path: '', subresource: '', ...a })).kind === 'allow';
    } catch {
      return false;
    }
  }

  private async check(ctx: OpContext, obj: KObject, old: KObject | undefined, updating: boolean): Promise<void> {
    if (updating && isOnlyMutatingGCFields(obj, old)) return;
    const name = obj.metadata?.name ?? '';
    if (this.isRole) {
      const owner = await this.confirmNoEscalation(ctx, name, (obj as Record<string, unknown>)['rules']);
      if (this.kind === 'clusterroles' && (hasAggregationRule(obj) || (updating && hasAggregationRule(old)))) {
        if (!covers(owner.rules, FULL_AUTHORITY).covered) throw this.forbidden(name, 'must have cluster-admin privileges to use the aggregationRule');
      }
      return;
    }
    // Bindings: roleRef as the binding carries it (validation runs later and rejects bad ones).
    const namespace = this.kind === 'rolebindings' ? ctx.namespace : '';
    const ref: RoleRef = bindingInfo(obj, this.kind === 'rolebindings' ? 'RoleBinding' : 'ClusterRoleBinding').roleRef;
    if (await this.bindingAuthorized(ctx.user, ref, namespace)) return;
    const rules = await roleReferenceRules(this.registry, ref, namespace);
    await this.confirmNoEscalation(ctx, name, rules);
  }

  /** kube's BindingAuthorized: `bind` on the referenced role, by name, in the binding's namespace. */
  private bindingAuthorized(user: UserInfo, ref: RoleRef, namespace: string): Promise<boolean> | boolean {
    const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
    if (!resource) return false;
    // kube asks with the roleRef's apiGroup after defaulting (empty reads as rbac.authorization.k8s.io).
    return this.allowed(user, { verb: 'bind', apiGroup: ref.apiGroup || 'rbac.authorization.k8s.io', apiVersion: '', resource, name: ref.name, namespace });
  }

  /** kube's ConfirmNoEscalation: the caller's rules at ctx.namespace must cover `rules`; returns those rules. */
  private async confirmNoEscalation(ctx: OpContext, name: string, rules: unknown): Promise<{ rules: readonly PolicyRule[] }> {
    const wanted = Array.isArray(rules) ? (rules as PolicyRule[]) : [];
    const owner = await registryRulesFor(this.registry, ctx.user, ctx.namespace);
    const { covered, missing } = covers(owner.rules, wanted);
    if (!covered) throw this.forbidden(name, escalationMessage(ctx.user, missing, owner.errors));
    return owner;
  }

  private forbidden(name: string, why: string): StatusError {
    return errors.forbidden({ kind: this.kind, group: RBAC_GROUP, ...(name ? { name } : {}) }, why);
  }
}

function hasAggregationRule(obj: KObject | undefined): boolean {
  const rule = obj ? (obj as Record<string, unknown>)['aggregationRule'] : undefined;
  if (!rule || typeof rule !== 'object') return false;
  const selectors = (rule as Record<string, unknown>)['clusterRoleSelectors'];
  return Array.isArray(selectors) && selectors.length > 0;
}
