/**
 * The compact description format for built-in API groups: one file per group lists its versions (preferred
 * first) and resources with only what differs from kube's defaults. `expandGroup` turns it into ResourceDefs.
 *
 * Defaults (kube-apiserver's usual shape): singular = lower-cased kind, listKind = `<Kind>List`, the eight
 * standard verbs, name rule DNS-1123 subdomain, storage key prefix `/registry/<resource>/`.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { NameRule, ResourceDef, Strategy, SubresourceDef, TableColumn, Verb } from '../types.ts';
import { validateFor, type KindValidators } from '../validation/index.ts';
import { converterFor } from './conversion.ts';
import type { StorageGVK } from './conversion.ts';

export const STANDARD_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
/** get/patch/update: what `status`, `scale`, `approval`, … sub-resources serve. */
export const SUB_VERBS: Verb[] = ['get', 'patch', 'update'];

export interface ResourceSpec {
  resource: string;
  kind: string;
  namespaced: boolean;
  singular?: string;
  verbs?: Verb[];
  shortNames?: string[];
  categories?: string[];
  subresources?: SubresourceDef[];
  nameRule?: NameRule;
  storagePrefix?: string;
  /** Storage group/version when it differs from the served one (kube's storage version). */
  storage?: StorageGVK;
  /**
   * The version kube-apiserver reports in storageVersionHash when it differs from what we store
   * (CRDs: kube stores apiextensions v1beta1; we store v1 objects unchanged).
   */
  hashVersion?: StorageGVK;
  selectableFields?: Record<string, (obj: KObject) => string | undefined>;
  tableColumns?: TableColumn[];
  strategy?: Strategy;
  deprecation?: { warning: string; removedRelease?: string };
  virtual?: boolean;
  /**
   * Top-level JSON fields besides apiVersion/kind/metadata (strict field validation reports others as
   * unknown). Default: spec and status with a status sub-resource, else spec.
   */
  fields?: string[];
  /** kube's ReturnDeletedObject: DELETE answers with the object instead of a Status (pods, services). */
  returnDeletedObject?: boolean;
}

/** ResourceDef plus the optional catalog extensions the handlers read (see src/endpoints/handlers/scope.ts). */
export type CatalogResourceDef = ResourceDef & { topLevelFields?: readonly string[]; returnDeletedObject?: boolean };

export type Maturity = 'ga' | 'beta' | 'alpha';

export interface VersionSpec {
  version: string;
  /** Served unless --runtime-config turns it off; beta/alpha versions are off unless turned on (kube ≥ 1.24). */
  enabledByDefault?: boolean;
  resources: ResourceSpec[];
}

export interface GroupSpec {
  /** '' for the core (legacy) group served under /api. */
  group: string;
  /** Preferred version first. */
  versions: VersionSpec[];
}

/** A status sub-resource of the same kind. */
export const statusSub: SubresourceDef = { name: 'status', verbs: SUB_VERBS };
/** The scale sub-resource serving autoscaling/v1 Scale. */
export const scaleSub: SubresourceDef = { name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUB_VERBS };

export function maturityOf(version: string): Maturity {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'ga';
}

/** Expanded definitions plus each one's storage group/version (for storageVersionHash). */
export interface ExpandedDef {
  def: CatalogResourceDef;
  storage: StorageGVK;
  /** What storageVersionHash is computed from. */
  hash: StorageGVK;
}

export function expandResource(group: string, version: string, r: ResourceSpec): ExpandedDef {
  const storage = r.storage ?? { group, version };
  const def: CatalogResourceDef = {
    group,
    version,
    resource: r.resource,
    singular: r.singular ?? r.kind.toLowerCase(),
    kind: r.kind,
    listKind: `${r.kind}List`,
    namespaced: r.namespaced,
    verbs: r.verbs ?? (r.virtual ? ['create'] : STANDARD_VERBS),
    nameRule: r.nameRule ?? 'dns1123-subdomain',
    storagePrefix: r.storagePrefix ?? `/registry/${r.resource}/`,
  };
  if (storage.version !== version || storage.group !== group) def.storageVersion = storage.version;
  if (r.shortNames) def.shortNames = r.shortNames;
  if (r.categories) def.categories = r.categories;
  if (r.subresources) def.subresources = r.subresources;
  if (r.selectableFields) def.selectableFields = r.selectableFields;
  if (r.tableColumns) def.tableColumns = r.tableColumns;
  if (r.strategy) def.strategy = withKindValidation(r.strategy, group, version, r);
  if (r.deprecation) def.deprecation = r.deprecation;
  if (r.virtual) def.virtual = true;
  def.topLevelFields = r.fields ?? ((r.subresources ?? []).some((x) => x.name === 'status') || r.virtual ? ['spec', 'status'] : ['spec']);
  if (r.returnDeletedObject) def.returnDeletedObject = true;
  return { def, storage, hash: r.hashVersion ?? storage };
}

/**
 * Adds kube's per-kind validation (src/api/validation) to a kind's strategy. kube validates the internal
 * form: a version stored as another one (autoscaling/v1 HPAs as v2) is validated after conversion to it.
 */
function withKindValidation(strategy: Strategy, group: string, version: string, r: ResourceSpec): Strategy {
  const v: KindValidators | undefined = validateFor(group, r.kind);
  if (!v) return strategy;
  const conv = r.storage && r.storage.group === group && r.storage.version !== version ? converterFor({ group, version, kind: r.kind }, r.storage) : undefined;
  const view = (o: KObject): KObject => (conv ? conv.toStorage(o) : o);
  const out: Strategy = { ...strategy };
  if (v.validate) {
    const own = strategy.validate;
    out.validate = (obj, ctx) => [...(own?.(obj, ctx) ?? []), ...v.validate!(view(obj))];
  }
  if (v.validateUpdate) {
    const own = strategy.validateUpdate;
    out.validateUpdate = (obj, old, ctx) => [
      ...(own?.(obj, old, ctx) ?? []),
      ...v.validateUpdate!(view(obj), view(old), ctx.subresource ? { subresource: ctx.subresource } : {}),
    ];
  }
  return out;
}

/** Reads a dotted path from an object (`spec.nodeName`); undefined when any step is missing. */
export function pathValue(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** A field-selector reader for a string-ish field: missing → '' as kube's field sets do. */
export function fieldOf(path: string): (obj: KObject) => string {
  return (obj) => {
    const v = pathValue(obj, path);
    if (v === undefined || v === null) return '';
    return typeof v === 'string' ? v : String(v);
  };
}

/** The category kube gives API-extension kinds (webhooks, policies, CRDs, API services). */
export const API_EXT = ['api-extensions'];
