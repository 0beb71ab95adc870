/**
 * Encryption at rest in the composition root: `--encryption-provider-config` is loaded before anything is opened
 * (a malformed file refuses the start), the store is wrapped so values are transformed between the registry's
 * codec and the backend, and storage keys are mapped back to the group/resource the configuration names.
 */
import type { Catalog } from '../api/catalog.ts';
import type { Store } from '../storage/interface.ts';
import type { GroupResource } from '../storage/value/config.ts';
import { EncryptionAtRest, type ResourceOfKey } from '../storage/value/encryption-at-rest.ts';
import { TransformingStore } from '../storage/value/transforming-store.ts';
import type { HealthCheck } from '../endpoints/health/checks.ts';
import type { ResolvedOptions } from './options.ts';

export async function openEncryption(o: ResolvedOptions): Promise<EncryptionAtRest | undefined> {
  if (!o.encryptionProviderConfig) return undefined;
  return EncryptionAtRest.open({
    file: o.encryptionProviderConfig,
    automaticReload: o.encryptionProviderConfigAutomaticReload,
    resyncMs: o.encryptionTuning?.resyncMs,
    kmsHealthyIntervalMs: o.encryptionTuning?.kmsHealthyIntervalMs,
    kmsUnhealthyIntervalMs: o.encryptionTuning?.kmsUnhealthyIntervalMs,
    log: o.log,
  });
}

/**
 * The group/resource of a storage key, from the catalog's storage prefixes (CRDs included as they come and go).
 * Kinds served by two groups from one prefix (events and events.k8s.io) are kube's core resource.
 */
export function resourceOfKey(catalog: () => Catalog | undefined): ResourceOfKey {
  let byPrefix: Map<string, GroupResource> | undefined;
  let subscribed: Catalog | undefined;
  const build = (c: Catalog): Map<string, GroupResource> => {
    const m = new Map<string, GroupResource>();
    for (const def of c.all()) {
      const cur = m.get(def.storagePrefix);
      if (!cur || (cur.group !== '' && def.group === '')) m.set(def.storagePrefix, { group: def.group, resource: def.resource });
    }
    return m;
  };
  return (key) => {
    const c = catalog();
    if (!c) return undefined;
    if (subscribed !== c) {
      subscribed = c;
      c.onChange(() => { byPrefix = undefined; });
      byPrefix = undefined;
    }
    byPrefix ??= build(c);
    // `/registry/<resource>/…` (built-in) or `/registry/<group>/<resource>/…` (CRDs, some groups).
    const a = key.indexOf('/', 1);
    const b = a < 0 ? -1 : key.indexOf('/', a + 1);
    const d = b < 0 ? -1 : key.indexOf('/', b + 1);
    return (d > 0 ? byPrefix.get(key.slice(0, d + 1)) : undefined) ?? (b > 0 ? byPrefix.get(key.slice(0, b + 1)) : undefined);
  };
}

export function encryptingStore(backend: Store, enc: EncryptionAtRest, catalog: () => Catalog | undefined): Store {
  return new TransformingStore(backend, enc.transformerForKey(resourceOfKey(catalog)));
}

/** kube's `kms-providers` check (registered with KMS v2 providers or automatic reload). */
export function kmsHealthChecks(enc: EncryptionAtRest | undefined): HealthCheck[] {
  if (!enc?.hasKmsCheck) return [];
  return [{
    name: 'kms-providers',
    check: () => {
      const err = enc.kmsHealth();
      if (err) throw new Error(err);
    },
  }];
}
