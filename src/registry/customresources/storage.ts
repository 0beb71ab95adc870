/**
 * Storage for custom resources and their definitions, around the generic store the registry built:
 * - custom resources with webhook conversion are served through ConvertingRest over a store of the storage
 *   version, converting each object by its own apiVersion;
 * - CustomResourceDefinitions get CrdRest: the first delete adds the cleanup finalizer.
 */
import type { ResourceDef } from '../../api/types.ts';
import { GenericStore, type GenericStoreOptions } from '../generic-store.ts';
import type { RestStorage } from '../rest.ts';
import { ConvertingRest } from './converting-rest.ts';
import { CrdRest } from './crd-rest.ts';
import { CRD_GROUP, CRD_RESOURCE } from '../../apiextensions/crd.ts';
import type { CustomResourceDef } from './resource-def.ts';

export function customResourceStorage({ def, storage, storeOptions }: { def: ResourceDef; storage: RestStorage; storeOptions: GenericStoreOptions }): RestStorage {
  const crd = (def as Partial<CustomResourceDef>).crd;
  if (crd?.webhook && crd.storageDef) {
    const inner = new GenericStore({ ...storeOptions, def: crd.storageDef, converter: crd.storageDef.crd.converter });
    return new ConvertingRest(def, inner, crd.webhook);
  }
  if (def.group === CRD_GROUP && def.resource === CRD_RESOURCE) return new CrdRest(storage, storeOptions.now);
  return storage;
}
