/**
 * PartialObjectMetadata / PartialObjectMetadataList (meta.k8s.io v1 and v1beta1): the metadata-only views
 * controllers and `kubectl get` ask for with `Accept: application/json;as=PartialObjectMetadata...;g=meta.k8s.io;v=v1`.
 * Asking for the single form on a list (or the list form on one object) is kube's 406.
 */
import type { KObject, ListMeta } from '../../machinery/objects.ts';
import { StatusError } from '../../machinery/errors.ts';


export interface PartialObjectMetadata {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: KObject['metadata'];
}

export function partialObjectMetadata(obj: KObject, version: 'v1' | 'v1beta1'): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata };
}

export function partialObjectMetadataList(items: readonly KObject[], meta: ListMeta, version: 'v1' | 'v1beta1') {
  return {
    kind: 'PartialObjectMetadataList' as const,
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMetaOf(meta),
    items: items.map((o) => partialObjectMetadata(o, version)),
  };
}

/** kube's `%T` of the internal object, used in its 406 messages (`*core.ConfigMapList`). */
function goType(group: string, kind: string): string {
  const g = group ? (group.split('.')[0] ?? group) : 'core';
  return `*${g}.${kind}`;
}

export function partialOfListError(group: string, listKind: string): StatusError {
  return new StatusError(406, 'NotAcceptable',
    `you requested PartialObjectMetadata, but the requested object is a list (${goType(group, listKind)})`);
}

export function partialListOfObjectError(group: string, kind: string): StatusError {
  return new StatusError(406, 'NotAcceptable',
    `you requested PartialObjectMetadataList, but the requested object is not a list (${goType(group, kind)})`);
}

export function listMetaOf(meta: ListMeta): ListMeta {
  const out: ListMeta = {};
  if (meta.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta.continue) out.continue = meta.continue;
  if (meta.remainingItemCount !== undefined && meta.remainingItemCount !== null) out.remainingItemCount = meta.remainingItemCount;
  return out;
}
