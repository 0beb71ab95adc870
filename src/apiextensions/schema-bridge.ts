/**
 * The seam between CRD serving (this folder) and the schema engine (src/apiextensions/schema, written
 * alongside): the contract's shapes, and a loader that finds the engine when it is there. Until it is, CRDs
 * are served without schema behaviour (no pruning, defaulting or value validation) — never silently in
 * production: `schemaEngineLoaded()` says which, and tests check it.
 *
 * The engine is imported by a computed specifier so this folder type-checks whether or not it exists yet.
 */
import type { CustomResourceSupport, KObject } from '../api/types.ts';
import type { FieldError } from '../endpoints/status.ts';
import type { StructNode } from '../apply/schema-view.ts';
import type { SchemaNode } from '../endpoints/negotiation/json-scan.ts';

/** src/apiextensions/schema's view of one served version of a CRD. */
export interface CustomResourceVersion extends CustomResourceSupport {
  /** Apply/merge view (SSA field sets, list/map types) of the version's schema. */
  readonly applyRoot?: StructNode;
  /** Strict-decoding view: unknown and duplicate field detection for fieldValidation. */
  readonly strictSchema?: SchemaNode;
  /** `{ [definitionName]: schema }` for the kind and its list kind (OpenAPI v3 components / Swagger 2.0 definitions). */
  openapiV3?(): Record<string, Record<string, unknown>>;
  openapiV2?(): Record<string, Record<string, unknown>>;
  /** Validation of a status sub-resource write (status schema only). */
  validateStatus?(obj: KObject, old: KObject | undefined): FieldError[];
}

export interface SchemaEngine {
  validateCrdSchemas(crd: KObject, old: KObject | undefined): FieldError[];
  buildCustomResourceVersion(crd: KObject, version: string): CustomResourceVersion;
}

export interface CrdConverter {
  convert(obj: KObject, toApiVersion: string): Promise<KObject>;
  convertMany(objs: readonly KObject[], toApiVersion: string): Promise<KObject[]>;
  readonly strategy: 'None' | 'Webhook';
}

export interface ConversionEngine {
  createCrdConverter(crd: KObject): CrdConverter;
}

let engine: SchemaEngine | undefined;
let conversion: ConversionEngine | undefined;
let loading: Promise<void> | undefined;

async function tryImport<T>(rel: string, check: (m: Record<string, unknown>) => boolean): Promise<T | undefined> {
  try {
    const m = (await import(new URL(rel, import.meta.url).href)) as Record<string, unknown>;
    return check(m) ? (m as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Loads the schema and conversion engines once (a missing engine is not an error). */
export function loadEngines(): Promise<void> {
  loading ??= (async () => {
    engine = await tryImport<SchemaEngine>('./schema/index.ts', (m) => typeof m['validateCrdSchemas'] === 'function' && typeof m['buildCustomResourceVersion'] === 'function');
    conversion = await tryImport<ConversionEngine>('./conversion/index.ts', (m) => typeof m['createCrdConverter'] === 'function');
  })();
  return loading;
}

export function schemaEngineLoaded(): boolean {
  return engine !== undefined;
}

export function crdSchemaErrors(crd: KObject, old: KObject | undefined): FieldError[] {
  return engine ? engine.validateCrdSchemas(crd, old) : [];
}

/** The version's custom-resource support, or a pass-through one when the engine is absent. */
export function customResourceVersion(crd: KObject, version: string): CustomResourceVersion {
  if (engine) return engine.buildCustomResourceVersion(crd, version);
  return {
    crdName: crd.metadata.name ?? '',
    crdGeneration: crd.metadata.generation ?? 0,
    applyDefaults: () => undefined,
    prune: () => [],
    validate: () => [],
  };
}

export function crdConverter(crd: KObject): CrdConverter | undefined {
  return conversion?.createCrdConverter(crd);
}

// Start loading as soon as anything imports this module (the CRD strategy does, with the catalog), so the
// engines are there before the first request even where no CRD controller runs (registry-level tests).
void loadEngines();
