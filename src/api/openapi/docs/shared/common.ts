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
    $: `A list of ${plural}, as returned by a list call.`,
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
    status: 'Whether the condition holds: True, False or Unknown.',
    lastTransitionTime: 'When the status last changed from one value to another (RFC 3339).',
    reason: 'A short CamelCase word giving the cause of the last transition, for machines to match on.',
    message: 'A human-readable explanation of the last transition, possibly empty.',
  };
}

/** `observedGeneration` of a status or condition. */
export const OBSERVED_GENERATION = 'The metadata.generation of the object that the controller had processed when it wrote this status.';
