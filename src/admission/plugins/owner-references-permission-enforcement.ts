/**
 * OwnerReferencesPermissionEnforcement (kube's plugin/pkg/admission/gc, off by default): changing the
 * ownerReferences of an existing object needs `delete` on it (a create needs nothing for that), and making an owner reference blocking (blockOwnerDeletion true,
 * new or turned on) needs `update` on the owner's `finalizers` sub-resource (in the object's namespace when the
 * owner is namespaced; for every resource the owner's kind maps to). pods/status is exempt. Refusals are kube's
 * 403s, with the authorizer's reason and error as kube prints them.
 */
import type { OwnerReference } from '../../machinery/objects.ts';
import type { Attributes } from '../../request/authorizer.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj } from './support.ts';

const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isObj(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : 1))) : x));

function changesOwners(a: AdmissionAttributes): boolean {
  const now = a.object?.metadata.ownerReferences ?? [];
  if (!a.oldObject) return now.length > 0;
  const before = a.oldObject.metadata.ownerReferences ?? [];
  if (before.length !== now.length) return true;
  return before.some((r, i) => canonical(r) !== canonical(now[i]));
}

/** Blocking references that are new, or were not blocking before (matched by uid). */
function newBlockingRefs(a: AdmissionAttributes): OwnerReference[] {
  const blocking = (a.object?.metadata.ownerReferences ?? []).filter((r) => r.blockOwnerDeletion === true);
  if (!blocking.length || !a.oldObject) return blocking;
  const old = new Map((a.oldObject.metadata.ownerReferences ?? []).map((r) => [r.uid, r]));
  return blocking.filter((r) => old.get(r.uid)?.blockOwnerDeletion !== true);
}

const goErr = (e: string | undefined) => e ?? '<nil>';

export function ownerReferencesPermissionEnforcementPlugin(ctx: PluginContext): AdmissionPlugin {
  const authorize = async (attrs: Attributes) => {
    try {
      return await ctx.authorizer().authorize(attrs);
    } catch (e) {
      return { kind: 'no-opinion' as const, reason: '', error: (e as Error).message };
    }
  };
  return {
    name: 'OwnerReferencesPermissionEnforcement',
    operations: operations('CREATE', 'UPDATE'),
    async validate(a) {
      if (a.resource.group === '' && a.resource.resource === 'pods' && a.subresource === 'status') return;
      if (!a.object || !changesOwners(a)) return;
      // Whoever may create an object could as well not have created it: only changes to existing objects need
      // `delete`. Blocking an owner's deletion is another matter, checked below for creates too.
      if (a.operation !== 'CREATE') {
        const del = await authorize({
          user: a.user, verb: 'delete', isResourceRequest: true, path: '', apiGroup: a.resource.group, apiVersion: a.resource.version,
          namespace: a.namespace, resource: a.resource.resource, subresource: a.subresource, name: a.name,
        });
        if (del.kind !== 'allow') {
          throw admissionForbidden(a, `cannot set an ownerRef on a resource you can't delete: ${del.reason ?? ''}, ${goErr(del.error)}`);
        }
      }
      for (const ref of newBlockingRefs(a)) {
        const slash = ref.apiVersion.indexOf('/');
        const group = slash >= 0 ? ref.apiVersion.slice(0, slash) : '';
        const version = slash >= 0 ? ref.apiVersion.slice(slash + 1) : ref.apiVersion;
        const mapping = ref.apiVersion.split('/').length > 2 ? undefined : ctx.lookupKind?.(group, version, ref.kind);
        if (!mapping) {
          const why = ref.apiVersion.split('/').length > 2
            ? `unexpected GroupVersion string: ${ref.apiVersion}`
            : `no matches for kind "${ref.kind}" in version "${ref.apiVersion}"`;
          throw admissionForbidden(a, `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${ref.apiVersion} Kind ${ref.kind}: ${why}`);
        }
        const d = await authorize({
          user: a.user, verb: 'update', isResourceRequest: true, path: '', apiGroup: group, apiVersion: version,
          namespace: mapping.namespaced ? a.namespace : '', resource: mapping.resource, subresource: 'finalizers', name: ref.name,
        });
        if (d.kind !== 'allow') {
          throw admissionForbidden(a, `cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${d.reason ?? ''}, ${goErr(d.error)}`);
        }
      }
    },
  };
}

registerPlugin('OwnerReferencesPermissionEnforcement', ownerReferencesPermissionEnforcementPlugin);
