/**
 * NamespaceLifecycle (kube's apiserver admission/plugin/namespace/lifecycle), a mutating plugin on create, update
 * and delete:
 * - `default`, `kube-system` and `kube-public` may not be deleted (403 `this namespace may not be deleted`);
 * - namespaced objects (access reviews aside) may only be created or updated in a namespace that exists (the
 *   namespace's NotFound otherwise), and not created in one that is terminating (403 with the
 *   NamespaceTerminating cause);
 * - deletes of other objects always pass. A namespace just deleted is looked up live for a while, so a create
 *   racing its termination does not slip through a stale cache.
 */
import { errors } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import { systemContext } from '../../registry/system-context.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);
/** kube's forceLiveLookupTTL. */
const FORCE_LIVE_LOOKUP_MS = 30_000;

const isNamespace = (a: AdmissionAttributes) => a.kind.group === '' && a.kind.kind === 'Namespace';
const isAccessReview = (a: AdmissionAttributes) => a.kind.group === 'authorization.k8s.io' && a.kind.kind === 'LocalSubjectAccessReview';

export function namespaceLifecycle(ctx: PluginContext): AdmissionPlugin {
  const forceLive = new Map<string, number>();

  async function lookup(name: string): Promise<KObject | undefined> {
    const storage = ctx.registry.lookup('', 'v1', 'namespaces');
    if (!storage) return undefined;
    const live = (forceLive.get(name) ?? 0) > ctx.now().getTime();
    const get = async (resourceVersion: string) => {
      try {
        return (await storage.get(systemContext(), name, { resourceVersion })).object;
      } catch (e) {
        if ((e as { code?: number }).code === 404) return undefined;
        throw e;
      }
    };
    // The cache first (cheap); a miss, or a namespace deleted moments ago, is confirmed with a consistent read.
    return (live ? undefined : await get('0')) ?? get('');
  }

  return {
    name: 'NamespaceLifecycle',
    operations: operations('CREATE', 'UPDATE', 'DELETE'),
    async admit(a) {
      if (a.operation === 'DELETE' && isNamespace(a) && IMMORTAL.has(a.name)) {
        throw errors.forbidden({ kind: a.resource.resource, name: a.name }, 'this namespace may not be deleted');
      }
      if (!a.namespace && !isNamespace(a)) return;
      if (isNamespace(a)) {
        if (a.operation === 'DELETE') forceLive.set(a.name, ctx.now().getTime() + FORCE_LIVE_LOOKUP_MS);
        return;
      }
      if (a.operation === 'DELETE' || isAccessReview(a)) return;
      const ns = await lookup(a.namespace);
      if (!ns) throw errors.notFound({ kind: 'namespaces', name: a.namespace });
      if (a.operation !== 'CREATE') return;
      if ((ns['status'] as { phase?: string } | undefined)?.phase !== 'Terminating') return;
      const err = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      err.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }];
      throw err;
    },
  };
}

registerPlugin('NamespaceLifecycle', namespaceLifecycle);
