/**
 * The catalog entry (`ResourceDef`) that describes a resource as data so one generic store and one set of
 * handlers serve all, and the per-resource behaviour (`Strategy`) the generic store calls.
 */
import type { FieldError } from '../machinery/errors.ts';
import type { GroupVersionKind, KObject, UserInfo } from '../machinery/objects.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/**
 * How metadata.name is validated for a resource (kube-apiserver's per-resource name validators).
 * `dns1035-label` is the Service rule: a label that must also start with a letter.
 */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment' | 'none';

/** A Table column: the definition kube-apiserver sends, and how to compute the cell from an object. */
export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  /** 0 = shown by default; >0 only with `-o wide`. */
  priority: number;
  cell(obj: KObject): unknown;
}

/** What a strategy hook knows about the request it runs in. */
export interface StrategyContext {
  readonly user?: UserInfo;
  readonly namespace?: string;
  readonly subresource?: string;
  readonly dryRun: boolean;
  /** A Service write: what the services REST wrapper allocated (the strategy puts it in place). */
  readonly allocation?: { spec?: unknown };
}

/**
 * Per-resource behaviour, called by the generic store in this order:
 *   create: prepareForCreate → (defaulting) → validate → canonicalize → storage
 *   update: prepareForUpdate → (defaulting) → validate + validateUpdate → canonicalize → storage
 * Every hook is optional; the generic store supplies metadata rules (uid, timestamps, generation, names) itself.
 */
export interface Strategy {
  /** Clear fields the caller may not set on create (e.g. status for resources with a status sub-resource). */
  prepareForCreate?(obj: KObject, ctx: StrategyContext): void;
  /** Keep fields the caller may not change on update (e.g. status on the main resource; spec on /status). */
  prepareForUpdate?(obj: KObject, old: KObject, ctx: StrategyContext): void;
  /** Fill defaults (the catalog issue derives these from schemas). */
  defaults?(obj: KObject): void;
  validate?(obj: KObject, ctx: StrategyContext): FieldError[];
  validateUpdate?(obj: KObject, old: KObject, ctx: StrategyContext): FieldError[];
  /** Warning headers for a write that succeeds. */
  warnings?(obj: KObject, old: KObject | undefined): string[];
  canonicalize?(obj: KObject): void;
  /** PUT of a missing object creates it (true for most kinds only when the kind says so). */
  allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is allowed (last write wins). */
  allowUnconditionalUpdate?: boolean;
  /** Paths whose change bumps metadata.generation (default: everything but metadata and status). */
  generationIgnores?: string[];
  /**
   * Graceful deletion: the grace period to apply given the requested one (undefined = the kind's default).
   * Return 0 (or leave the hook out) for immediate deletion. Pods use it (30 s default; 0 when not scheduled).
   */
  gracefulDeletePeriod?(obj: KObject, requested: number | undefined): number;
}

export interface SubresourceDef {
  /** `status`, `scale`, … */
  name: string;
  /** Kind served by the sub-resource (`Scale` in group autoscaling/v1 for scale). Same kind when unset. */
  kind?: GroupVersionKind;
  verbs: Verb[];
  /**
   * `false`: the sub-resource has no Table form (kube's REST for it is no TableConvertor: pods/binding,
   * pods/eviction, serviceaccounts/token, certificatesigningrequests/approval), so asking for one is a 406.
   */
  table?: false;
}

/**
 * A resource described as data. The catalog holds one per (group, version, resource); everything generic
 * (routing, discovery, storage keys, tables, field selectors) is derived from it.
 */
export interface ResourceDef {
  group: string;
  version: string;
  /** Plural, lower case: the URL segment. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  subresources?: SubresourceDef[];
  nameRule: NameRule;
  /** Storage key prefix, e.g. `/registry/configmaps/` or `/registry/deployments/` (kube-apiserver's layout). */
  storagePrefix: string;
  /** Version objects are stored in (conversion happens around storage when it differs). */
  storageVersion?: string;
  /** Field selector keys beyond metadata.name / metadata.namespace, with how to read each from an object. */
  selectableFields?: Record<string, (obj: KObject) => string | undefined>;
  /** Column sets for Table output; the default (Name, Created At) when absent. */
  tableColumns?: TableColumn[];
  strategy?: Strategy;
  /** Deprecated versions: the Warning text and release info (the catalog issue fills these). */
  deprecation?: { warning: string; removedRelease?: string };
  /** Objects without persistence (reviews): create only, answered by a handler. */
  virtual?: boolean;
  /**
   * Custom resources: the behaviour a CRD's schema gives its version (src/apiextensions builds it). Built-in
   * kinds leave it unset and get the same behaviour from the catalog's type descriptions.
   */
  custom?: CustomResourceSupport;
}

/**
 * What serving one version of a custom resource needs from its CRD. The concrete schema types (apply view,
 * strict-decoding view, OpenAPI documents) are owned by src/apiextensions/schema and typed there.
 */
export interface CustomResourceSupport {
  /** The CRD's name (`<plural>.<group>`) and generation this support was built from. */
  readonly crdName: string;
  readonly crdGeneration: number;
  /** Schema defaults (on write, and on read from storage). */
  applyDefaults(obj: KObject): void;
  /** Removes fields the schema does not know (unless preserved); returns their paths (`spec.x`). */
  prune(obj: KObject): string[];
  /** OpenAPI value validation plus `x-kubernetes-validations` rules (`old` for updates and transition rules). */
  validate(obj: KObject, old: KObject | undefined): FieldError[];
}

export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}
