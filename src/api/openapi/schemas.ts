/**
 * Schemas for OpenAPI documents. Kinds get a permissive object schema (any fields accepted) carrying
 * `x-kubernetes-group-version-kind`, apiVersion/kind/metadata; a `SchemaSource` can supply the real
 * schema of a kind (the catalog issue plugs in its type descriptions there). The meta/v1 types every
 * document references are described here in full enough form for clients.
 *
 * `ref(name)` produces `#/definitions/<name>` (v2) or `#/components/schemas/<name>` (v3).
 */
import type { ResourceDef } from '../types.ts';
import { definitionName } from './names.ts';

export type Dialect = 'v2' | 'v3';
export type Schema = Record<string, unknown>;

/** Supplies complete schemas for kinds (and the definitions they reference) when known. */
export interface SchemaSource {
  /** The kind's schema, or undefined for the permissive placeholder. */
  kindSchema?(def: ResourceDef, dialect: Dialect): Schema | undefined;
  /** Further named definitions the kind schema references. */
  extraDefinitions?(def: ResourceDef, dialect: Dialect): Record<string, Schema>;
}

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

export function ref(name: string, dialect: Dialect): Schema {
  return { $ref: dialect === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}` };
}

/** A field referencing a definition: v3 wraps the $ref in allOf (kube's style) so siblings stay valid. */
function refField(name: string, dialect: Dialect, extra: Schema = {}): Schema {
  return dialect === 'v2' ? { ...ref(name, dialect), ...extra } : { allOf: [ref(name, dialect)], ...extra };
}

const str = (description: string): Schema => ({ type: 'string', description });
const strMap = (description: string): Schema => ({ type: 'object', additionalProperties: { type: 'string', default: '' }, description });

const TYPE_META = {
  apiVersion: str('The group/version this object is written in.'),
  kind: str('The type of the object, in CamelCase.'),
};

/** meta/v1 definitions referenced from every group version document. */
export function metaDefinitions(dialect: Dialect): Record<string, Schema> {
  const r = (n: string, extra?: Schema) => refField(`${META}.${n}`, dialect, extra);
  const time = `${META}.Time`;
  return {
    'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object', description: 'An embedded object of any kind.' },
    [`${META}.Time`]: { type: 'string', format: 'date-time', description: 'A point in time, RFC 3339 in UTC with second precision.' },
    [`${META}.MicroTime`]: { type: 'string', format: 'date-time', description: 'A point in time, RFC 3339 in UTC with microsecond precision.' },
    [`${META}.FieldsV1`]: { type: 'object', description: 'A field set as a JSON tree of `f:`/`k:`/`v:` keys.' },
    [`${META}.OwnerReference`]: {
      type: 'object', required: ['apiVersion', 'kind', 'name', 'uid'], 'x-kubernetes-map-type': 'atomic',
      description: 'Names an object that owns this one.',
      properties: {
        apiVersion: str('API version of the referent.'), kind: str('Kind of the referent.'), name: str('Name of the referent.'), uid: str('UID of the referent.'),
        controller: { type: 'boolean', description: 'Whether the owner is the managing controller of this object.' },
        blockOwnerDeletion: { type: 'boolean', description: 'Whether foreground deletion of the owner waits for this object.' },
      },
    },
    [`${META}.ManagedFieldsEntry`]: {
      type: 'object', description: 'Which fields one manager set, with which operation and API version.',
      properties: {
        apiVersion: str('The version of the resource the field set applies to.'), fieldsType: str('The format of the fields field; only FieldsV1.'),
        fieldsV1: r('FieldsV1', { description: 'The set of fields managed.' }), manager: str('Name of the field manager.'),
        operation: str('The type of operation that led to this entry: Apply or Update.'), subresource: str('The sub-resource used to update the object.'),
        time: r('Time', { description: 'When the last applied change happened.' }),
      },
    },
    [`${META}.ObjectMeta`]: {
      type: 'object', description: 'Metadata every stored object carries.',
      properties: {
        annotations: strMap('Unstructured key value map stored with a resource.'),
        creationTimestamp: refField(time, dialect, { description: 'When the object was created (set by the server).' }),
        deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Seconds allowed for graceful termination before removal.' },
        deletionTimestamp: refField(time, dialect, { description: 'When the object will be deleted (set by the server).' }),
        finalizers: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge', description: 'Pending cleanup steps; the object is removed once none remain.' },
        generateName: str('Optional prefix used by the server to generate a unique name.'),
        generation: { type: 'integer', format: 'int64', description: 'Counts changes to the desired state of the object.' },
        labels: strMap('Map of string keys and values that can be used to organize and categorize objects.'),
        managedFields: { type: 'array', items: r('ManagedFieldsEntry', { default: {} }), description: 'Which workflows manage which fields.' },
        name: str('Name must be unique within a namespace.'),
        namespace: str('Namespace defines the space within which each name must be unique.'),
        ownerReferences: { type: 'array', items: r('OwnerReference', { default: {} }), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge', description: 'The objects that own this one.' },
        resourceVersion: str('An opaque value that represents the internal version of this object.'),
        selfLink: str('Deprecated; not set by the server.'),
        uid: str('The unique in time and space value for this object.'),
      },
    },
    [`${META}.ListMeta`]: {
      type: 'object', description: 'Metadata of a list response.',
      properties: {
        continue: str('Set when the list was truncated; pass it back to get the next chunk.'),
        remainingItemCount: { type: 'integer', format: 'int64', description: 'Number of items not yet returned (approximate).' },
        resourceVersion: str('The internal version of the list.'), selfLink: str('Deprecated; not set by the server.'),
      },
    },
    [`${META}.StatusCause`]: { type: 'object', description: 'One reason a request failed, often tied to a field.', properties: { field: str('The field of the resource that caused the error.'), message: str('A human-readable description of the cause.'), reason: str('A machine-readable description of the cause.') } },
    [`${META}.StatusDetails`]: {
      type: 'object', description: 'Extra facts about a failed request.',
      properties: {
        causes: { type: 'array', items: r('StatusCause', { default: {} }), 'x-kubernetes-list-type': 'atomic', description: 'The causes of the error.' },
        group: str('The group attribute of the resource.'), kind: str('The kind attribute of the resource.'), name: str('The name attribute of the resource.'),
        retryAfterSeconds: { type: 'integer', format: 'int32', description: 'Seconds to wait before retrying.' }, uid: str('The UID of the resource.'),
      },
    },
    [`${META}.Status`]: {
      type: 'object', description: 'The outcome of a request that returns no object.',
      properties: {
        ...TYPE_META, code: { type: 'integer', format: 'int32', description: 'Suggested HTTP return code.' },
        details: r('StatusDetails', { description: 'Extended data associated with the reason.', 'x-kubernetes-list-type': 'atomic' }),
        message: str('A human-readable description of the status.'), metadata: r('ListMeta', { default: {}, description: 'Standard list metadata.' }),
        reason: str('A machine-readable description of why this operation failed.'), status: str('Success or Failure.'),
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    },
    [`${META}.Preconditions`]: { type: 'object', description: 'Conditions the object must meet for the operation to go ahead.', properties: { resourceVersion: str('The target ResourceVersion.'), uid: str('The target UID.') } },
    [`${META}.DeleteOptions`]: {
      type: 'object', description: 'Options of a delete request.',
      properties: {
        ...TYPE_META,
        dryRun: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic', description: 'All: process every dry-run stage without persisting.' },
        gracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Seconds before the object should be deleted.' },
        ignoreStoreReadErrorWithClusterBreakingPotential: { type: 'boolean', description: 'Unsafe deletion of corrupt objects.' },
        orphanDependents: { type: 'boolean', description: 'Deprecated: use propagationPolicy.' },
        preconditions: r('Preconditions', { description: 'Must be fulfilled before a deletion is carried out.' }),
        propagationPolicy: str('Orphan, Background or Foreground.'),
      },
    },
    [`${META}.Patch`]: { type: 'object', description: 'The body of a PATCH request.' },
    [`${META}.WatchEvent`]: {
      type: 'object', required: ['type', 'object'], description: 'One change in a watch stream.',
      properties: { object: refField('io.k8s.apimachinery.pkg.runtime.RawExtension', dialect, { description: 'The object (or Status for ERROR events).' }), type: { type: 'string', default: '' } },
    },
    [`${META}.APIResource`]: {
      type: 'object', required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'], description: 'One resource a group version serves.',
      properties: {
        categories: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' }, group: str('Group of the sub-resource kind.'),
        kind: str('The kind for the resource.'), name: str('The plural name of the resource.'), namespaced: { type: 'boolean', default: false },
        shortNames: { type: 'array', items: { type: 'string', default: '' }, 'x-kubernetes-list-type': 'atomic' }, singularName: str('The singular name of the resource.'),
        storageVersionHash: str('Hash of the storage version.'), verbs: { type: 'array', items: { type: 'string', default: '' } }, version: str('Version of the sub-resource kind.'),
      },
    },
    [`${META}.APIResourceList`]: {
      type: 'object', required: ['groupVersion', 'resources'], description: 'The resources a group version serves.',
      properties: { ...TYPE_META, groupVersion: str('The group and version of this list.'), resources: { type: 'array', items: r('APIResource', { default: {} }), 'x-kubernetes-list-type': 'atomic' } },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'APIResourceList', version: 'v1' }],
    },
  };
}

const STRING_FIELDS = new Set(['type', 'reason', 'message', 'note', 'action', 'reportingComponent', 'reportingController', 'reportingInstance',
  'description', 'preemptionPolicy', 'handler', 'provisioner', 'reclaimPolicy', 'volumeBindingMode', 'addressType', 'storageClassName',
  'capacity', 'maximumVolumeSize']);
const TIME_FIELDS = new Set(['eventTime', 'firstTimestamp', 'lastTimestamp', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp']);
const BOOLEAN_FIELDS = new Set(['immutable', 'globalDefault', 'allowVolumeExpansion', 'automountServiceAccountToken']);
const INTEGER_FIELDS = new Set(['revision', 'value', 'count', 'deprecatedCount']);
const ARRAY_FIELDS = new Set(['conditions', 'subsets', 'rules', 'subjects', 'webhooks', 'endpoints', 'ports', 'secrets', 'imagePullSecrets', 'mountOptions', 'allowedTopologies']);
const STRING_MAP_FIELDS = new Set(['data', 'binaryData', 'stringData', 'parameters']);

/** A loose schema for a top-level field, by its (kube-wide) name: enough for `kubectl explain` to list it. */
function topLevelFieldSchema(def: ResourceDef, name: string): Schema {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  if (name === 'data' && def.kind === 'ControllerRevision') return open;
  if (STRING_FIELDS.has(name)) return { type: 'string' };
  if (TIME_FIELDS.has(name)) return { type: 'string', format: 'date-time' };
  if (BOOLEAN_FIELDS.has(name)) return { type: 'boolean' };
  if (INTEGER_FIELDS.has(name)) return { type: 'integer', format: name === 'revision' ? 'int64' : 'int32' };
  if (ARRAY_FIELDS.has(name)) return { type: 'array', items: open };
  if (STRING_MAP_FIELDS.has(name)) {
    const byteValues = (def.kind === 'Secret' && name === 'data') || name === 'binaryData';
    return { type: 'object', additionalProperties: byteValues ? { type: 'string', format: 'byte' } : { type: 'string', default: '' } };
  }
  return open;
}

/** The placeholder schema of a kind: TypeMeta, ObjectMeta and loosely typed top-level fields; any content accepted. */
export function permissiveKindSchema(def: ResourceDef, kind: string, dialect: Dialect, gvkExtension: boolean): Schema {
  const fields = kind === def.kind ? (def as ResourceDef & { topLevelFields?: readonly string[] }).topLevelFields ?? [] : [];
  const s: Schema = {
    type: 'object',
    description: `${kind} (${def.group ? `${def.group}/` : ''}${def.version}).`,
    properties: {
      ...TYPE_META,
      metadata: refField(`${META}.ObjectMeta`, dialect, { default: {}, description: 'Standard object metadata.' }),
      ...Object.fromEntries(fields.map((f) => [f, topLevelFieldSchema(def, f)])),
    },
    'x-kubernetes-preserve-unknown-fields': true,
  };
  if (gvkExtension) s['x-kubernetes-group-version-kind'] = [{ group: def.group, kind, version: def.version }];
  return s;
}

export function listSchema(def: ResourceDef, dialect: Dialect, gvkExtension: boolean): Schema {
  const s: Schema = {
    type: 'object', required: ['items'], description: `${def.listKind} is a list of ${def.kind} objects.`,
    properties: {
      ...TYPE_META,
      items: { type: 'array', items: refField(definitionName(def.group, def.version, def.kind), dialect, { default: {} }), description: 'The objects.' },
      metadata: refField(`${META}.ListMeta`, dialect, { default: {}, description: 'Standard list metadata.' }),
    },
  };
  if (gvkExtension) s['x-kubernetes-group-version-kind'] = [{ group: def.group, kind: def.listKind, version: def.version }];
  return s;
}
