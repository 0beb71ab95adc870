/**
 * The seam between CRD serving (this folder) and the schema and conversion engines (src/apiextensions/schema
 * and src/apiextensions/conversion): the contract's shapes as serving uses them, in one place. The engines
 * are static imports, so the bundled `keelson` (dist/) carries them like every other module.
 */
import type { KObject } from '../machinery/objects.ts';
import type { CustomResourceSupport } from '../api/types.ts';
import type { FieldError } from '../machinery/errors.ts';
import type { StructNode } from '../apply/schema-view.ts';
import type { SchemaNode } from '../machinery/json/scan.ts';
import { buildCustomResourceVersion, validateCrdSchemas } from './schema/index.ts';
import { createCrdConverter } from './conversion/index.ts';

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

const engine: SchemaEngine = { validateCrdSchemas, buildCustomResourceVersion };
const conversion: ConversionEngine = { createCrdConverter };

export function crdSchemaErrors(crd: KObject, old: KObject | undefined): FieldError[] {
  return engine.validateCrdSchemas(crd, old);
}

/** The version's custom-resource support (schema defaults, pruning, validation, views). */
export function customResourceVersion(crd: KObject, version: string): CustomResourceVersion {
  return engine.buildCustomResourceVersion(crd, version);
}

export function crdConverter(crd: KObject): CrdConverter | undefined {
  return conversion.createCrdConverter(crd);
}
