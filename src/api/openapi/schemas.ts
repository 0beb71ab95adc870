/**
 * Schemas for OpenAPI documents. Kinds get a permissive object schema (any fields accepted) carrying
 * `x-kubernetes-group-version-kind`, apiVersion/kind/metadata; a `SchemaSource` can supply the real
 * schema of a kind (the catalog issue plugs in its type descriptions there). The meta/v1 types every
 * document references are shaped here in full enough form for clients; their descriptions come from ./docs.
 *
 * `ref(name)` produces `#/definitions/<name>` (v2) or `#/components/schemas/<name>` (v3).
 */
import type { ResourceDef } from '../types.ts';
import { definitionName } from './names.ts';
import { describeDefinition, describeField, describeTypeMetaField } from './describe.ts';

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

const str: Schema = { type: 'string' };
const strMap: Schema = { type: 'object', additionalProperties: { type: 'string', default: '' } };
const int64: Schema = { type: 'integer', format: 'int64' };
const bool: Schema = { type: 'boolean' };
const strList = (listType?: string): Schema => ({ type: 'array', items: { type: 'string', default: '' }, ...(listType ? { 'x-kubernetes-list-type': listType } : {}) });
const TYPE_META = { apiVersion: str, kind: str };

/** kube's definition name → our message, for the meta/v1 and runtime types below. */
function messageOfDefinition(name: string): string {
  return name.startsWith(`${META}.`) ? `meta.${name.slice(META.length + 1)}` : `runtime.${name.slice(name.lastIndexOf('.') + 1)}`;
}

/**
 * meta/v1 definitions referenced from every group version document (a group version whose kinds have type
 * descriptions replaces them with generated ones). Descriptions: those written in ./docs for the meta types.
 */
export function metaDefinitions(dialect: Dialect): Record<string, Schema> {
  const r = (n: string, extra?: Schema) => refField(`${META}.${n}`, dialect, extra);
  const time = `${META}.Time`;
  const defs: Record<string, Schema> = {
    'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
    [`${META}.Time`]: { type: 'string', format: 'date-time' },
    [`${META}.MicroTime`]: { type: 'string', format: 'date-time' },
    [`${META}.FieldsV1`]: { type: 'object' },
    [`${META}.OwnerReference`]: {
      type: 'object', required: ['apiVersion', 'kind', 'name', 'uid'], 'x-kubernetes-map-type': 'atomic',
      properties: { apiVersion: str, kind: str, name: str, uid: str, controller: bool, blockOwnerDeletion: bool },
    },
    [`${META}.ManagedFieldsEntry`]: {
      type: 'object',
      properties: { apiVersion: str, fieldsType: str, fieldsV1: r('FieldsV1'), manager: str, operation: str, subresource: str, time: r('Time') },
    },
    [`${META}.ObjectMeta`]: {
      type: 'object',
      properties: {
        annotations: strMap, creationTimestamp: refField(time, dialect), deletionGracePeriodSeconds: int64,
        deletionTimestamp: refField(time, dialect),
        finalizers: { ...strList('set'), 'x-kubernetes-patch-strategy': 'merge' },
        generateName: str, generation: int64, labels: strMap,
        managedFields: { type: 'array', items: r('ManagedFieldsEntry', { default: {} }) },
        name: str, namespace: str,
        ownerReferences: { type: 'array', items: r('OwnerReference', { default: {} }), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' },
        resourceVersion: str, selfLink: str, uid: str,
      },
    },
    [`${META}.ListMeta`]: { type: 'object', properties: { continue: str, remainingItemCount: int64, resourceVersion: str, selfLink: str } },
    [`${META}.StatusCause`]: { type: 'object', properties: { field: str, message: str, reason: str } },
    [`${META}.StatusDetails`]: {
      type: 'object',
      properties: {
        causes: { type: 'array', items: r('StatusCause', { default: {} }), 'x-kubernetes-list-type': 'atomic' },
        group: str, kind: str, name: str, retryAfterSeconds: { type: 'integer', format: 'int32' }, uid: str,
      },
    },
    [`${META}.Status`]: {
      type: 'object',
      properties: {
        ...TYPE_META, code: { type: 'integer', format: 'int32' }, details: r('StatusDetails', { 'x-kubernetes-list-type': 'atomic' }),
        message: str, metadata: r('ListMeta', { default: {} }), reason: str, status: str,
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    },
    [`${META}.Preconditions`]: { type: 'object', properties: { resourceVersion: str, uid: str } },
    [`${META}.DeleteOptions`]: {
      type: 'object',
      properties: {
        ...TYPE_META, dryRun: strList('atomic'), gracePeriodSeconds: int64, ignoreStoreReadErrorWithClusterBreakingPotential: bool,
        orphanDependents: bool, preconditions: r('Preconditions'), propagationPolicy: str,
      },
    },
    [`${META}.Patch`]: { type: 'object' },
    [`${META}.WatchEvent`]: {
      type: 'object', required: ['type', 'object'],
      properties: { object: refField('io.k8s.apimachinery.pkg.runtime.RawExtension', dialect), type: { type: 'string', default: '' } },
    },
    [`${META}.APIResource`]: {
      type: 'object', required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'],
      properties: {
        categories: strList('atomic'), group: str, kind: str, name: str, namespaced: { type: 'boolean', default: false },
        shortNames: strList('atomic'), singularName: str, storageVersionHash: str, verbs: strList(), version: str,
      },
    },
    [`${META}.APIResourceList`]: {
      type: 'object', required: ['groupVersion', 'resources'],
      properties: { ...TYPE_META, groupVersion: str, resources: { type: 'array', items: r('APIResource', { default: {} }), 'x-kubernetes-list-type': 'atomic' } },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'APIResourceList', version: 'v1' }],
    },
  };
  return Object.fromEntries(Object.entries(defs).map(([name, d]) => [name, describeDefinition(d, messageOfDefinition(name))]));
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

/** apiVersion and kind, described as meta.TypeMeta describes them. */
function typeMeta(): Schema {
  const d = (k: string) => {
    const doc = describeTypeMetaField('meta.TypeMeta', k);
    return doc ? { type: 'string', description: doc } : { type: 'string' };
  };
  return { apiVersion: d('apiVersion'), kind: d('kind') };
}

/** `metadata` of an object or a list, described as meta.PartialObjectMetadata(List) describes it. */
function metadataField(type: 'ObjectMeta' | 'ListMeta', dialect: Dialect): Schema {
  const doc = describeField([type === 'ObjectMeta' ? 'meta.PartialObjectMetadata' : 'meta.PartialObjectMetadataList'], 'metadata');
  return refField(`${META}.${type}`, dialect, { default: {}, ...(doc ? { description: doc } : {}) });
}

/** The placeholder schema of a kind: TypeMeta, ObjectMeta and loosely typed top-level fields; any content accepted. */
export function permissiveKindSchema(def: ResourceDef, kind: string, dialect: Dialect, gvkExtension: boolean): Schema {
  const fields = kind === def.kind ? (def as ResourceDef & { topLevelFields?: readonly string[] }).topLevelFields ?? [] : [];
  const s: Schema = {
    type: 'object',
    description: `${kind} (${def.group ? `${def.group}/` : ''}${def.version}).`,
    properties: {
      ...typeMeta(),
      metadata: metadataField('ObjectMeta', dialect),
      ...Object.fromEntries(fields.map((f) => [f, topLevelFieldSchema(def, f)])),
    },
    'x-kubernetes-preserve-unknown-fields': true,
  };
  if (gvkExtension) s['x-kubernetes-group-version-kind'] = [{ group: def.group, kind, version: def.version }];
  return s;
}

export function listSchema(def: ResourceDef, dialect: Dialect, gvkExtension: boolean): Schema {
  const s: Schema = {
    type: 'object', required: ['items'], description: `A list of ${def.kind} objects.`,
    properties: {
      ...typeMeta(),
      items: { type: 'array', items: refField(definitionName(def.group, def.version, def.kind), dialect, { default: {} }), description: `The ${def.kind} objects in this list.` },
      metadata: metadataField('ListMeta', dialect),
    },
  };
  if (gvkExtension) s['x-kubernetes-group-version-kind'] = [{ group: def.group, kind: def.listKind, version: def.version }];
  return s;
}
