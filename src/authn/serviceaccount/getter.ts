/**
 * Reads the objects token checks depend on (service accounts, secrets, pods, nodes) straight from the
 * registry as `system:apiserver`, as kube's ServiceAccountTokenGetter reads its informers/storage.
 * A missing object is `undefined`; other failures propagate.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import { isNotFound } from '../../machinery/errors.ts';
import { systemContext } from '../../registry/system-context.ts';

export interface ObjectGetter {
  get(resource: 'serviceaccounts' | 'secrets' | 'pods' | 'nodes', namespace: string, name: string): Promise<KObject | undefined>;
}

export function registryGetter(registry: RestRegistry): ObjectGetter {
  return {
    async get(resource, namespace, name) {
      if (!name || (resource !== 'nodes' && !namespace)) return undefined;
      const storage = registry.lookup('', 'v1', resource);
      if (!storage) return undefined;
      try {
        const hit = await storage.get(systemContext({ namespace: resource === 'nodes' ? '' : namespace }), name, {});
        return hit.object as KObject;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}
