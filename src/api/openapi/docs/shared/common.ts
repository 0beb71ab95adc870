/**
 * Building blocks shared by the descriptions of every group but core: the metadata of objects and lists, list
 * types, and the fields every status condition carries. Written in our own words (see ../define.ts).
 */
import type { TypeDocs } from '../define.ts';

/** `metadata` of a top-level object. */
export const OBJECT_METADATA = 'Standard object metadata: name, namespace, labels, annotations, owner references, finalizers and the fields the server maintains.';

/** `metadata` of a top-level object that is cluster-scoped. */
export const CLUSTER_OBJECT_METADATA = 'Standard object metadata of this cluster-scoped object: name, labels, annotations, owner references, finalizers and the fields the server maintains.';

/** `metadata` of a list. */
export const LIST_METADATA = 'Metadata of the list as a whole: the resourceVersion it reflects and, for paged reads, the continue token and the count of remaining items.';

/** A `…List` type: a page of objects of one kind. */
export function list(kind: string, plural = `${kind}s`): TypeDocs {
  return {
    $: `The answer to a list request for ${plural}: the objects found plus paging metadata.`,
    metadata: LIST_METADATA,
    items: `The ${plural} in this list.`,
  };
}

/**
 * The fields every status condition carries. `of` names what the condition is about; `types` lists the condition
 * types that controllers set (a sentence ending with a period, or empty).
 */
export function condition(of: string, types: string): TypeDocs {
  return {
    $: `One observed aspect of the state of ${of}, as reported by the controller that manages it.`,
    type: `Which aspect this condition reports.${types ? ` ${types}` : ''} Unique within the list.`,
    status: 'True, False or Unknown: whether the condition currently applies.',
    lastTransitionTime: 'Time of the latest change of status, as an RFC 3339 timestamp.',
    reason: 'A short CamelCase word giving the cause of the last transition, for machines to match on.',
    message: 'Free-form details about the last transition, meant for people; may be empty.',
  };
}

/** `observedGeneration` of a status or condition. */
export const OBSERVED_GENERATION = 'The metadata.generation of the object that the controller had processed when it wrote this status.';
