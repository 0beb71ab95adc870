/**
 * kube's registry-backed rule resolver for the RBAC write checks (pkg/registry/rbac/rest/storage_rbac.go wires
 * DefaultRuleResolver over the roles/bindings registries): fresh reads through the registry rather than the
 * authorizer's informer caches, so a role or binding written a moment ago already counts. Missing roles are
 * the registry's 404s (`clusterroles.rbac.authorization.k8s.io "x" not found`).
 */
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../rest.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { systemContext } from '../system-context.ts';
import { normalizeRules, type NormalRule } from './validation/rules.ts';
import { rulesFor, type RoleRules, type RuleSource } from './validation/resolver.ts';
import { appliesTo, bindingInfo, type BindingInfo, type RoleRef } from './validation/subjects.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

function storage(registry: RestRegistry, resource: string): RestStorage {
  const s = registry.lookup(RBAC_GROUP, 'v1', resource);
  if (!s) throw errors.internal(`${resource}.${RBAC_GROUP}/v1 is not served`);
  return s;
}

async function listAll(registry: RestRegistry, resource: string, namespace: string): Promise<KObject[]> {
  const r = await storage(registry, resource).list(systemContext({ namespace }), {});
  return r.items.map((c) => c.object);
}

/**
 * The rules a roleRef grants, read from the registry; throws the registry's error (404 for a missing role)
 * as kube's GetRoleReferenceRules does.
 */
export async function roleReferenceRules(registry: RestRegistry, ref: RoleRef, namespace: string): Promise<NormalRule[]> {
  let obj: KObject;
  if (ref.kind === 'ClusterRole') {
    obj = (await storage(registry, 'clusterroles').get(systemContext(), ref.name, {})).object;
  } else if (ref.kind === 'Role') {
    // kube's registry refuses a namespaced get without a namespace (a Role referenced by a cluster binding).
    if (!namespace) throw errors.badRequest('Namespace parameter required.');
    obj = (await storage(registry, 'roles').get(systemContext({ namespace }), ref.name, {})).object;
  } else {
    throw errors.internal(`unsupported role reference kind: "${ref.kind}"`);
  }
  return normalizeRules((obj as Record<string, unknown>)['rules']);
}

/** A RuleSource holding what one user's RulesFor needs, read now from the registry. */
async function snapshot(registry: RestRegistry, user: UserInfo, namespace: string): Promise<RuleSource> {
  const cluster = (await listAll(registry, 'clusterrolebindings', '')).map((o) => bindingInfo(o, 'ClusterRoleBinding'));
  const local = namespace ? (await listAll(registry, 'rolebindings', namespace)).map((o) => bindingInfo(o, 'RoleBinding')) : [];
  const resolved = new Map<string, RoleRules>();
  const key = (ref: RoleRef, ns: string) => `${ref.kind}\0${ns}\0${ref.name}`;
  const resolve = async (b: BindingInfo) => {
    const k = key(b.roleRef, b.namespace);
    if (resolved.has(k) || appliesTo(user, b) < 0) return;
    resolved.set(k, { error: 'pending' });
    try {
      resolved.set(k, await roleReferenceRules(registry, b.roleRef, b.namespace));
    } catch (e) {
      resolved.set(k, { error: e instanceof StatusError ? e.message.replace(/^Internal error occurred: /, '') : String(e) });
    }
  };
  await Promise.all([...cluster, ...local].map(resolve));
  return {
    clusterBindings: () => cluster,
    namespaceBindings: () => local,
    roleRules: (ref, ns) => resolved.get(key(ref, ns)) ?? { error: `${ref.kind} "${ref.name}" not resolved` },
  };
}

/** kube's DefaultRuleResolver.RulesFor over fresh registry reads. */
export async function registryRulesFor(registry: RestRegistry, user: UserInfo, namespace: string): Promise<{ rules: NormalRule[]; errors: string[] }> {
  return rulesFor(await snapshot(registry, user, namespace), user, namespace);
}
