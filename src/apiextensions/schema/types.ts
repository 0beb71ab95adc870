/**
 * The shapes of a CRD version's schema: `JSONSchemaProps` as written in apiextensions.k8s.io/v1 (plain JSON,
 * as the object is stored), and kube's "structural" form (`Structural`, apiextensions-apiserver
 * pkg/apiserver/schema/structural.go) that pruning, defaulting, the apply view and OpenAPI work on.
 *
 * Invariant: a `Structural` is built once per CRD generation and never mutated afterwards; callers that need
 * a changed copy (OpenAPI v2) clone it.
 */

/** apiextensions.k8s.io/v1 JSONSchemaProps, as JSON. Only the fields kube accepts are typed. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** One `x-kubernetes-validations` entry. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * kube's structural schema: the type skeleton (type, properties, items, additionalProperties) with the
 * extensions, and the raw props node it came from for value validation (formats, enums, allOf… live there).
 */
export interface Structural {
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly title?: string;
  /** `undefined` = no default (a JSON `null` default counts as none, as in kube). */
  readonly default?: unknown;
  readonly nullable: boolean;
  readonly properties?: ReadonlyMap<string, Structural>;
  /** `true` = any value allowed with no schema (`additionalProperties: true`). */
  readonly additionalProperties?: Structural | true;
  readonly items?: Structural;
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly listType?: string;
  readonly listMapKeys?: readonly string[];
  readonly mapType?: string;
  readonly validations?: readonly ValidationRule[];
  /** The JSONSchemaProps node this was built from. */
  readonly props: JSONSchemaProps;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep copy of a JSON value. */
export function cloneJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  return structuredClone(v);
}

/** JSON deep equality (key order ignored; numbers by value). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) {
    if (!(k in bo) || !jsonEqual((a as Record<string, unknown>)[k], bo[k])) return false;
  }
  return true;
}

/** `field.Path` rendering as apimachinery does: `.child`, `[3]`, `[key]`. */
export function childPath(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
export function indexPath(path: string, i: number): string {
  return `${path}[${i}]`;
}
export function keyPath(path: string, key: string): string {
  return `${path}[${key}]`;
}
