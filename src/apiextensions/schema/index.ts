/**
 * The custom resource schema engine: what a CRD's per-version `openAPIV3Schema` means for the API server.
 * CONTRACT with the CRD serving code (src/apiextensions, helper H):
 *
 * - `validateCrdSchemas(crd, old)`: every schema error of every version, at
 *   `spec.versions[i].schema.openAPIV3Schema…` paths (kube's wording): keyword checks, list/map markers,
 *   the structural rules (errors sorted as kube sorts them), defaults (must validate and be pruned), and CEL
 *   rule compilation/cost — CEL only once the rest is clean, as kube does.
 * - `buildCustomResourceVersion(crd, version)`: everything serving one version needs, built once per CRD
 *   generation. Order on write (as kube): decode → `prune` (collect the paths for fieldValidation; also
 *   drops non-nullable nulls) → `applyDefaults` → `validate(obj, old)`; on read from storage: `prune` (kube's
 *   coercing decoder prunes on read too, without reporting) then `applyDefaults`. The status sub-resource uses
 *   `validateStatus(obj, old)` instead of `validate`. `validate` ratchets on update (CRDValidationRatcheting):
 *   unchanged values are not re-validated.
 *   `strictSchema` reports the same unknown fields as `prune` (plus duplicates): use one of the two for
 *   `unknown field "…"` messages, not both.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { CustomResourceSupport } from '../../api/types.ts';
import type { StructNode } from '../../apply/schema-view.ts';
import type { SchemaNode as ScanNode } from '../../machinery/json/scan.ts';
import { field, FieldError } from '../../machinery/errors.ts';
import { compileRules, type RuleValidator } from '../cel-rules/index.ts';
import { applyDefaults, pruneNonNullableNulls } from './default.ts';
import { validateListTypes } from './listtype.ts';
import { validateEmbeddedResources } from './objectmeta.ts';
import { kindDefinitions, type Dialect } from './openapi.ts';
import { pruneObject } from './prune.ts';
import { checkSchema } from './schema-checks.ts';
import { subtreeHas, toStructural } from './structural.ts';
import { validateStructural } from './structural-validation.ts';
import { cloneJson, isObject, jsonEqual, type JSONSchemaProps, type Structural } from './types.ts';
import { TypeInvalidError, underPath, validateValue } from './value-validation.ts';
import { applyRootOf, strictRootOf } from './views.ts';

export type { JSONSchemaProps, Structural, ValidationRule } from './types.ts';
export { toStructural } from './structural.ts';
export { CRD_DOCS, definitionName } from './openapi.ts';

/** The scale sub-resource's paths (`.spec.replicas`, `.status.replicas`, `.status.selector`). */
export interface ScaleSupport {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

export interface CustomResourceVersion extends CustomResourceSupport {
  readonly version: string;
  /** The version's schema as written (undefined only for schemaless legacy CRDs). */
  readonly schema?: JSONSchemaProps;
  readonly structural?: Structural;
  /** SSA / merge view of the kind. */
  readonly applyRoot: StructNode;
  /** Strict decoding view (unknown fields where pruning would drop them). */
  readonly strictSchema: ScanNode;
  /** `{ [definitionName]: schema }` for the kind and its list kind, OpenAPI v3 (components.schemas). */
  openapiV3(): Record<string, Record<string, unknown>>;
  /** Same for Swagger 2.0 (definitions), with v2's restrictions. */
  openapiV2(): Record<string, Record<string, unknown>>;
  readonly scaleSupport?: ScaleSupport;
  readonly statusEnabled: boolean;
  /** Validation for writes through the status sub-resource: the status schema plus the CEL rules. */
  validateStatus(obj: KObject, old: KObject | undefined): FieldError[];
}

type J = Record<string, unknown>;
const obj = (v: unknown): J => (isObject(v) ? v : {});

function versionsOf(crd: KObject): J[] {
  const spec = obj(crd['spec']);
  return Array.isArray(spec['versions']) ? spec['versions'].map(obj) : [];
}

function schemaOf(v: J): JSONSchemaProps | undefined {
  const s = obj(v['schema'])['openAPIV3Schema'];
  return isObject(s) ? (s as JSONSchemaProps) : undefined;
}

/**
 * Schema errors for all versions of a CRD (see the module comment). On update (`old`), an error the same
 * version's old schema already had at the same place is not reported again: kube lets a stored CRD keep what
 * newer validation would refuse (its requireValidPropertyType / requirePrunedDefaults / requireAtomicSetType
 * / requireMapListKeysMapSetValidation / pre-existing CEL expression ratchets), so an unrelated edit does not
 * fail on an old schema.
 */
export function validateCrdSchemas(crd: KObject, old: KObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const oldByName = new Map(old ? versionsOf(old).map((v) => [String(v['name'] ?? ''), v]) : []);
  versionsOf(crd).forEach((v, i) => {
    const schema = schemaOf(v);
    if (!schema) return;
    const path = `spec.versions[${i}].schema.openAPIV3Schema`;
    const statusEnabled = isObject(obj(v['subresources'])['status']);
    let found = validateOneSchema(schema, path, statusEnabled);
    const ov = oldByName.get(String(v['name'] ?? ''));
    const oldSchema = ov ? schemaOf(ov) : undefined;
    if (found.length > 0 && ov && oldSchema) {
      const key = (e: FieldError) => `${e.field.slice(e.field.indexOf('.openAPIV3Schema'))}\u0000${e.body()}`;
      const before = new Set(validateOneSchema(oldSchema, 'spec.versions[0].schema.openAPIV3Schema', isObject(obj(ov['subresources'])['status'])).map(key));
      found = found.filter((e) => !before.has(key(e)));
    }
    errs.push(...found);
  });
  return errs;
}

/** One version's schema (exported for tests and for the legacy top-level `spec.validation` form). */
export function validateOneSchema(schema: JSONSchemaProps, path: string, statusEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const structuralErrs = validateStructural(schema, path);
  errs.push(...structuralErrs);
  let structural: Structural | undefined;
  if (structuralErrs.length === 0) {
    structural = toStructural(schema);
    errs.push(...validateDefaults(structural, path, true));
  }
  const schemaErrs = checkSchema(schema, path, statusEnabled);
  errs.push(...schemaErrs);
  if (structural && errs.length === 0) errs.push(...compileRules(structural, path).errors);
  return errs;
}

/** kube's defaulting ValidateDefaults: each default must be pruned already and valid for its schema. */
function validateDefaults(s: Structural, path: string, isRoot: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const walk = (n: Structural, p: string, insideMeta: boolean, root: boolean) => {
    if (n.default !== undefined && n.default !== null && !insideMeta) {
      const holder: J = { x: cloneJson(n.default) };
      pruneObject(holder, wrap(n));
      const pruned = holder['x'];
      if (!jsonEqual(pruned, n.default)) errs.push(new FieldError('FieldValueInvalid', `${p}.default`, 'must not have unknown fields', n.default, true));
      else {
        const valueErrs = underPath(validateValue(n.default, n.props, ''), `${p}.default`);
        errs.push(...valueErrs);
        // …and pass the x-kubernetes-validations rules of its schema (kube runs them on defaults too).
        if (valueErrs.length === 0 && subtreeHas(n, 'validations', (x) => (x.validations?.length ?? 0) > 0)) {
          try {
            const { errors: compileErrs, validator } = compileRules(n, p, false);
            if (compileErrs.length === 0 && validator) errs.push(...underPath(validator.validate(n.default, undefined), `${p}.default`));
          } catch {
            // CEL unavailable: the rules are reported by their own compilation step.
          }
        }
      }
    }
    if (n.items) walk(n.items, `${p}.items`, insideMeta, false);
    for (const [k, c] of n.properties ?? []) {
      const meta = (root || n.embeddedResource) && (k === 'metadata' || k === 'apiVersion' || k === 'kind');
      walk(c, `${p}.properties[${k}]`, insideMeta || meta, false);
    }
  };
  walk(s, path, false, isRoot);
  return errs;
}

const BLOCKING: ReadonlySet<FieldError['type']> = new Set(['FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueNotSupported']);

/**
 * kube's hasBlockingErr: a type, required, too long, too many or not-supported error means the value is not
 * what the rules were compiled for, so CEL rules are not run; this cause says so instead.
 */
function blockingCause(errs: readonly FieldError[]): FieldError | undefined {
  if (!errs.some((e) => e instanceof TypeInvalidError || BLOCKING.has(e.type))) return undefined;
  return field.invalid('<nil>', 'null', 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
}

/** The schema's errors, then the CEL rules' (or, after blocking errors, the cause saying they were skipped). */
function withRules(errs: FieldError[], rules: RuleValidator | undefined, o: KObject, old: KObject | undefined): FieldError[] {
  if (!rules) return errs;
  const blocked = blockingCause(errs);
  return blocked ? [...errs, blocked] : [...errs, ...rules.validate(o, old)];
}

/** A synthetic root with one property `x` of schema `s`, so the pruner treats `s` as a nested node. */
function wrap(s: Structural): Structural {
  return {
    type: 'object', nullable: false, preserveUnknownFields: false, embeddedResource: false, intOrString: false,
    properties: new Map([['x', s]]), props: {},
  };
}

/** Everything serving `version` of `crd` needs. Throws when the CRD has no such version. */
export function buildCustomResourceVersion(crd: KObject, version: string): CustomResourceVersion {
  const spec = obj(crd['spec']);
  const names = obj(spec['names']);
  const v = versionsOf(crd).find((x) => x['name'] === version);
  if (!v) throw new Error(`custom resource definition ${crd.metadata.name ?? ''} has no version ${version}`);
  const schema = schemaOf(v);
  const structural = schema ? toStructural(schema) : undefined;
  let rules: RuleValidator | undefined;
  if (structural) {
    try {
      rules = compileRules(structural, '').validator;
    } catch {
      rules = undefined; // CEL unavailable: schema validation still applies
    }
  }
  const subresources = obj(v['subresources']);
  const scale = isObject(subresources['scale']) ? subresources['scale'] : undefined;
  const group = String(spec['group'] ?? '');
  const kind = String(names['kind'] ?? '');
  const selectable = Array.isArray(v['selectableFields'])
    ? v['selectableFields'].map((f) => String(obj(f)['jsonPath'] ?? '')).filter(Boolean)
    : undefined;
  const docs = new Map<Dialect, Record<string, Record<string, unknown>>>();
  const docFor = (dialect: Dialect) => {
    let d = docs.get(dialect);
    if (!d) {
      d = kindDefinitions({
        group, version, kind, listKind: String(names['listKind'] ?? `${kind}List`), plural: String(names['plural'] ?? ''),
        schema, dialect, ...(selectable ? { selectableFields: selectable } : {}),
      });
      docs.set(dialect, d);
    }
    return structuredClone(d);
  };
  const schemaErrors = (o: KObject, old: KObject | undefined): FieldError[] => {
    if (!schema || !structural) return [];
    return [
      ...validateValue(o, schema, '', old === undefined ? undefined : { value: old }),
      ...validateListTypes(o, structural),
      ...validateEmbeddedResources(o, structural, ''),
    ];
  };
  return {
    crdName: crd.metadata.name ?? '',
    crdGeneration: crd.metadata.generation ?? 1,
    version,
    ...(schema ? { schema } : {}),
    ...(structural ? { structural } : {}),
    applyRoot: applyRootOf(structural, kind),
    strictSchema: strictRootOf(structural),
    statusEnabled: isObject(subresources['status']),
    ...(scale ? {
      scaleSupport: {
        specReplicasPath: String(scale['specReplicasPath'] ?? ''),
        statusReplicasPath: String(scale['statusReplicasPath'] ?? ''),
        ...(typeof scale['labelSelectorPath'] === 'string' ? { labelSelectorPath: scale['labelSelectorPath'] } : {}),
      },
    } : {}),
    applyDefaults(o: KObject): void {
      if (!structural) return;
      applyDefaults(o, structural);
      pruneNonNullableNulls(o, structural);
    },
    prune(o: KObject): string[] {
      if (!structural) return [];
      const paths = pruneObject(o as J, structural);
      // kube drops non-nullable nulls without a default as part of pruning (its coercing decoder).
      pruneNonNullableNulls(o, structural);
      return paths;
    },
    validate(o: KObject, old: KObject | undefined): FieldError[] {
      return withRules(schemaErrors(o, old), rules, o, old);
    },
    validateStatus(o: KObject, old: KObject | undefined): FieldError[] {
      const errs: FieldError[] = [];
      const statusSchema = schema?.properties?.['status'];
      if (statusSchema && o['status'] !== undefined) {
        const oldStatus = old !== undefined && old['status'] !== undefined ? { value: old['status'] } : undefined;
        errs.push(...underPath(validateValue(o['status'], statusSchema, '', oldStatus), 'status'));
      }
      if (structural) errs.push(...validateListTypes(o, structural));
      return withRules(errs, rules, o, old);
    },
    openapiV3: () => docFor('v3'),
    openapiV2: () => docFor('v2'),
  };
}
