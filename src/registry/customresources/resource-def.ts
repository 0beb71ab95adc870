/**
 * One ResourceDef per served version of an established CRD, as kube's customresource_handler builds its
 * per-version serving info: names from status.acceptedNames, storage under `/registry/<group>/<plural>/` in
 * the storage version, status/scale sub-resources, table columns (Name + additionalPrinterColumns, or Age),
 * selectable fields, deprecation warnings, and the schema engine's behaviour (`def.custom`).
 *
 * `CrdServingState` is shared by all defs of one CRD and flipped by the controller (terminating: creates
 * are refused with 405 as kube does while instances are being deleted).
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef, SubresourceDef, TableColumn, Verb } from '../../api/types.ts';
import type { RegistryStrategy } from '../strategy.ts';
import { StatusError, type FieldError } from '../../machinery/errors.ts';
import { DOCS } from '../resources/docs.ts';
import { translateTimestampSince } from '../resources/columns.ts';
import type { VersionConverter } from '../store-core.ts';
import type { CrdColumn, CrdScale, CrdSpec, CrdVersion } from '../../apiextensions/crd.ts';
import { crdSpec, crdStatus, servedVersions, storageVersionOf } from '../../apiextensions/crd.ts';
import { compileJsonPath, jsonPathText } from '../../apiextensions/jsonpath.ts';
import { crdConverter, customResourceVersion, type CrdConverter, type CustomResourceVersion } from '../../apiextensions/schema-bridge.ts';
import type { SchemaNode } from '../../machinery/json/scan.ts';
import type { StructNode } from '../../apply/schema-view.ts';

const STANDARD_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUB_VERBS: Verb[] = ['get', 'patch', 'update'];

export interface CrdServingState {
  terminating: boolean;
}

/** What the CR defs carry besides ResourceDef (scale paths for the scale sub-resource, the CRD's identity). */
export interface CustomResourceDef extends ResourceDef {
  custom: CustomResourceVersion;
  crd: {
    name: string; uid: string; generation: number; scale?: CrdScale; state: CrdServingState; schema?: Record<string, unknown>;
    /**
     * Around storage: apiVersion rewrite (conversion strategy None) and schema defaults on read. For the raw
     * storage-version def behind a webhook def, the identity (each object keeps its own stored apiVersion).
     */
    converter: VersionConverter;
    /**
     * Webhook conversion: every version of a `Webhook` CRD (the storage version too, since objects written
     * before a storage-version change keep their old apiVersion) is served through
     * src/registry/customresources/converting-rest.ts, converting each object by its own apiVersion.
     */
    webhook?: CrdConverter;
    /** The storage version's raw def (built even when that version is not served) for `webhook` serving. */
    storageDef?: CustomResourceDef;
  };
}

/** The SSA/merge view of a custom resource kind (undefined for built-in kinds or without the schema engine). */
export function customApplyRoot(def: ResourceDef): StructNode | undefined {
  return (def.custom as CustomResourceVersion | undefined)?.applyRoot;
}

/** The strict-decoding view of a custom resource kind (unknown/duplicate fields for fieldValidation). */
export function customStrictSchema(def: ResourceDef): SchemaNode | undefined {
  return (def.custom as CustomResourceVersion | undefined)?.strictSchema;
}

export function isCustomResourceDef(def: ResourceDef): def is CustomResourceDef {
  return (def as Partial<CustomResourceDef>).crd !== undefined && def.custom !== undefined;
}

/** ConvertToHumanReadableDateType: a date cell is the time since then (`5m`), `<invalid>` when unparsable. */
function dateCell(v: unknown): unknown {
  if (typeof v !== 'string') return null;
  if (Number.isNaN(Date.parse(v))) return '<invalid>';
  return translateTimestampSince(v);
}

/** tableconvertor's cellForJSONValue for a column's declared type. */
function cell(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer': return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number': return typeof value === 'number' ? value : null;
    case 'boolean': return typeof value === 'boolean' ? value : null;
    case 'date': return dateCell(value);
    case 'string': return jsonPathText(value);
    default: return null;
  }
}

function printerColumn(c: CrdColumn): TableColumn {
  const path = compileJsonPath(c.jsonPath);
  const type = (['string', 'integer', 'number', 'boolean', 'date'].includes(c.type) ? c.type : 'string') as TableColumn['type'];
  return {
    name: c.name, type, ...(c.format ? { format: c.format } : {}),
    description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    priority: c.priority ?? 0,
    cell: (obj) => cell(c.type, path.find(obj)[0]),
  };
}

export function tableColumnsFor(v: CrdVersion): TableColumn[] {
  const cols: TableColumn[] = [{ name: 'Name', type: 'string', format: 'name', description: DOCS.name, priority: 0, cell: (o) => o.metadata.name ?? '' }];
  const printer = v.additionalPrinterColumns ?? [];
  if (printer.length === 0) cols.push(printerColumn({ name: 'Age', type: 'date', description: DOCS.age, jsonPath: '.metadata.creationTimestamp' }));
  else for (const c of printer) cols.push(printerColumn(c));
  return cols;
}

function selectableFieldsFor(v: CrdVersion): ResourceDef['selectableFields'] {
  const out: NonNullable<ResourceDef['selectableFields']> = {};
  for (const f of v.selectableFields ?? []) {
    const key = f.jsonPath.replace(/^\./, '');
    const path = compileJsonPath(f.jsonPath);
    out[key] = (obj) => {
      const got = path.find(obj)[0];
      return got === undefined || got === null ? undefined : typeof got === 'string' ? got : String(got);
    };
  }
  return Object.keys(out).length ? out : undefined;
}

function crStrategy(custom: CustomResourceVersion, hasStatus: boolean, state: CrdServingState, group: string, plural: string): RegistryStrategy {
  return {
    tracksGeneration: true,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      if (state.terminating) {
        throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', { group, kind: plural });
      }
      // kube drops status on create when the status sub-resource owns it.
      if (hasStatus) delete obj['status'];
    },
    // Pruning is part of decoding in kube, before the field manager: the store runs `defaults` on the
    // request object it records managedFields from, so unknown fields are never owned by anyone.
    defaults: (obj) => {
      custom.prune(obj);
      custom.applyDefaults(obj);
    },
    validate: (obj) => custom.validate(obj, undefined),
    validateUpdate(obj, old, ctx): FieldError[] {
      if (ctx.subresource === 'status' && custom.validateStatus) return custom.validateStatus(obj, old);
      return custom.validate(obj, old);
    },
    // Without a status sub-resource, status is part of what generation tracks (kube's CR strategy).
    ...(hasStatus ? {} : { generationIncludesStatus: true }),
  };
}

/**
 * kube's None conversion (only apiVersion changes) plus pruning and defaulting on read, as kube's decoder
 * does: objects read from storage lose the fields the served version's schema no longer specifies (silently:
 * nothing is reported on read), then get its defaults. The cached object is frozen: work on a copy.
 */
function noneConverter(group: string, served: string, stored: string, custom: CustomResourceVersion): VersionConverter {
  const servedApi = `${group}/${served}`;
  const storedApi = `${group}/${stored}`;
  return {
    toStorage: (o) => (o.apiVersion === storedApi ? o : { ...o, apiVersion: storedApi }),
    fromStorage: (o) => {
      const out = structuredClone(o) as KObject;
      out.apiVersion = servedApi;
      custom.prune(out);
      custom.applyDefaults(out);
      return out;
    },
  };
}

/**
 * The storage side of webhook serving: objects as stored, whatever apiVersion they were written in (the
 * converting store sends the ones not in the wanted version to the webhook), and written as given.
 */
const RAW_CONVERTER: VersionConverter = { toStorage: (o) => o, fromStorage: (o) => o };

/**
 * The def serving (or, for the storage version, storing) one version of an established CRD. `raw`: the
 * storage-version def a webhook def stores through (no apiVersion rewrite, no defaulting on read).
 */
function versionDef(crd: KObject, v: CrdVersion, state: CrdServingState, converter: CrdConverter | undefined, raw = false): CustomResourceDef {
  const spec: CrdSpec = crdSpec(crd);
  const accepted = crdStatus(crd).acceptedNames ?? {};
  const plural = accepted.plural || spec.names.plural;
  const kind = accepted.kind || spec.names.kind;
  const storage = storageVersionOf(spec) ?? v.name;
  const subresources: SubresourceDef[] = [];
  if (v.subresources?.status) subresources.push({ name: 'status', verbs: SUB_VERBS });
  if (v.subresources?.scale) subresources.push({ name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUB_VERBS });
  const custom = customResourceVersion(crd, v.name);
  const webhook = converter?.strategy === 'Webhook';
  const def: CustomResourceDef = {
    group: spec.group,
    version: v.name,
    resource: plural,
    singular: accepted.singular || spec.names.singular || kind.toLowerCase(),
    kind,
    listKind: accepted.listKind || spec.names.listKind || `${kind}List`,
    namespaced: spec.scope === 'Namespaced',
    verbs: STANDARD_VERBS,
    nameRule: 'dns1123-subdomain',
    storagePrefix: `/registry/${spec.group}/${plural}/`,
    tableColumns: tableColumnsFor(v),
    strategy: crStrategy(custom, !!v.subresources?.status, state, spec.group, plural),
    custom,
    crd: {
      name: crd.metadata.name ?? '', uid: crd.metadata.uid ?? '', generation: crd.metadata.generation ?? 0, state,
      converter: raw ? RAW_CONVERTER : noneConverter(spec.group, v.name, storage, custom),
      ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
      ...(v.schema?.openAPIV3Schema ? { schema: v.schema.openAPIV3Schema } : {}),
    },
  };
  if (webhook) {
    def.crd.webhook = converter;
    const sv = spec.versions.find((x) => x.name === storage);
    if (sv) def.crd.storageDef = versionDef(crd, sv, state, undefined, true);
  }
  if (storage !== v.name) def.storageVersion = storage;
  const shortNames = accepted.shortNames ?? spec.names.shortNames;
  if (shortNames?.length) def.shortNames = shortNames;
  const categories = accepted.categories ?? spec.names.categories;
  if (categories?.length) def.categories = categories;
  if (subresources.length) def.subresources = subresources;
  const sf = selectableFieldsFor(v);
  if (sf) def.selectableFields = sf;
  if (v.deprecated) def.deprecation = { warning: v.deprecationWarning ?? `${spec.group}/${v.name} ${kind} is deprecated` };
  return def;
}

/**
 * The storage version's raw def (served or not), for deleting a terminating CRD's instances whatever version
 * they were written in (kube's finalizer uses the storage version's store). A schema the engine cannot build
 * is left out: deleting needs none.
 */
export function buildInstanceDeleterDef(crd: KObject, state: CrdServingState): CustomResourceDef | undefined {
  const spec = crdSpec(crd);
  const name = storageVersionOf(spec);
  const v = spec.versions.find((x) => x.name === name);
  if (!v) return undefined;
  try {
    return versionDef(crd, v, state, undefined, true);
  } catch {
    const bare = structuredClone(crd) as KObject;
    for (const x of crdSpec(bare).versions) delete x.schema;
    return versionDef(bare, { ...v, schema: undefined }, state, undefined, true);
  }
}

/** Defs for every served version of an established CRD (the storage prefix is shared by all of them). */
export function buildCustomResourceDefs(crd: KObject, state: CrdServingState): CustomResourceDef[] {
  const converter = crdConverter(crd);
  return servedVersions(crdSpec(crd)).map((v) => versionDef(crd, v, state, converter));
}
