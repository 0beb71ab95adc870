/**
 * The static checks kube-apiserver makes on a CRD version's openAPIV3Schema before it looks at structure
 * (apiextensions validation.go: ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3),
 * CEL compilation aside: unsupported keywords, defaults where forbidden (metadata), list/map type markers,
 * x-kubernetes-validations entries' shape, and the root rules when the status sub-resource is on.
 */
import { field, type FieldError } from '../../machinery/errors.ts';
import { childPath, indexPath, isObject, keyPath, type JSONSchemaProps } from './types.ts';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const ROOT_ALLOWED_WITH_STATUS = new Set([
  'description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength',
  'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties',
  'externalDocs', 'example', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations',
]);
const ROOT_ALLOWED_NAMES = '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

interface Ctx {
  /** Why defaults are forbidden here (undefined: allowed). */
  forbidDefaults?: string;
  insideResourceMeta: boolean;
}

const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** Root-level rules (status sub-resource, nullable) plus the recursive checks. */
export function checkSchema(root: JSONSchemaProps, path: string, statusEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (statusEnabled) {
    for (const [k, v] of Object.entries(root)) {
      if (v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0)) continue;
      if (k === 'type') {
        if (v !== 'object') {
          errs.push(field.invalid(`${path}.type`, v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ROOT_ALLOWED_WITH_STATUS.has(k)) {
        errs.push(field.invalid(path, root, `only ${ROOT_ALLOWED_NAMES} fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (root.nullable === true) errs.push(field.forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  walk(root, path, { insideResourceMeta: false }, true, errs);
  return errs;
}

function standard(s: JSONSchemaProps, path: string, ctx: Ctx, errs: FieldError[]): void {
  if (typeof s.type === 'string' && s.type !== '' && !TYPES.includes(s.type) && s.type !== 'null') {
    errs.push(field.notSupported(childPath(path, 'type'), s.type, TYPES));
  }
  if (s.default !== undefined && ctx.forbidDefaults !== undefined) {
    errs.push(field.forbidden(childPath(path, 'default'), `must not be set${ctx.forbidDefaults ? ` ${ctx.forbidDefaults}` : ''}`));
  }
  if (s.id) errs.push(field.forbidden(childPath(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(field.forbidden(childPath(path, 'additionalItems'), 'additionalItems is not supported'));
  if (isObject(s.patternProperties) && Object.keys(s.patternProperties).length) errs.push(field.forbidden(childPath(path, 'patternProperties'), 'patternProperties is not supported'));
  if (isObject(s.definitions) && Object.keys(s.definitions).length) errs.push(field.forbidden(childPath(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(field.forbidden(childPath(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errs.push(field.forbidden(childPath(path, '$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(field.forbidden(childPath(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length) errs.push(field.forbidden(childPath(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(field.forbidden(childPath(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
}

function walk(s: JSONSchemaProps, path: string, ctx: Ctx, isRoot: boolean, errs: FieldError[]): void {
  if (!isObject(s)) return;
  standard(s, path, ctx, errs);
  if (s.uniqueItems === true) errs.push(field.forbidden(childPath(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const props = (isObject(s.properties) ? s.properties : {}) as Record<string, JSONSchemaProps>;
  const hasProps = Object.keys(props).length > 0;
  if (s.additionalProperties !== undefined) {
    if (hasProps && (s.additionalProperties === false || isObject(s.additionalProperties))) {
      errs.push(field.forbidden(childPath(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    if (isObject(s.additionalProperties)) {
      const sub: Ctx = ctx.insideResourceMeta ? { ...ctx, forbidDefaults: 'inside additionalProperties applying to object metadata' } : ctx;
      walk(s.additionalProperties as JSONSchemaProps, childPath(path, 'additionalProperties'), sub, false, errs);
    }
  }
  for (const [k, v] of Object.entries(props)) {
    let sub = ctx;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, forbidDefaults: `in top-level ${k}` };
    }
    walk(v, keyPath(childPath(path, 'properties'), k), sub, false, errs);
  }
  if (isObject(s.not)) walk(s.not, childPath(path, 'not'), ctx, false, errs);
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const arr = s[k];
    if (Array.isArray(arr)) arr.forEach((a, i) => walk(a, indexPath(childPath(path, k), i), ctx, false, errs));
  }
  if (isObject(s.items)) walk(s.items as JSONSchemaProps, childPath(path, 'items'), ctx, false, errs);
  markers(s, path, errs);
  rules(s, path, errs);
}

function markers(s: JSONSchemaProps, path: string, errs: FieldError[]): void {
  const type = s.type ?? '';
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(field.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && type !== 'object') {
    if (type === '') errs.push(field.required(childPath(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(field.invalid(childPath(path, 'type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(field.notSupported(childPath(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const lt = s['x-kubernetes-list-type'];
  const items = isObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
  if (lt !== undefined && type !== 'array') {
    if (type === '') errs.push(field.required(childPath(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(field.invalid(childPath(path, 'type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (lt === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errs.push(field.invalid(childPath(childPath(path, 'items'), 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(field.invalid(childPath(childPath(path, 'items'), 'x-kubernetes-map-type'), lt, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (lt !== undefined && lt !== 'atomic' && lt !== 'set' && lt !== 'map') {
    errs.push(field.notSupported(childPath(path, 'x-kubernetes-list-type'), lt, ['atomic', 'set', 'map']));
  }
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : [];
  if (keys.length > 0) {
    if (lt === undefined) errs.push(field.required(childPath(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (lt !== 'map') errs.push(field.invalid(childPath(path, 'x-kubernetes-list-type'), lt, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (lt === 'map') {
    if (keys.length === 0) errs.push(field.required(childPath(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items === undefined) errs.push(field.required(childPath(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(s.items)) errs.push(field.invalid(childPath(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') errs.push(field.invalid(childPath(childPath(path, 'items'), 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    if (items && items.type === 'object') {
      const seen = new Set<string>();
      const ip = isObject(items.properties) ? items.properties : {};
      for (const k of keys) {
        const ks = ip[k];
        if (isObject(ks)) {
          if (ks.type === 'array' || ks.type === 'object') {
            errs.push(field.invalid(childPath(keyPath(childPath(childPath(path, 'items'), 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(field.invalid(childPath(path, 'x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(field.invalid(childPath(path, 'x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  // set and map list items: not nullable; map keys required or defaulted, never nullable.
  if (items && (lt === 'set' || lt === 'map')) {
    if (items.nullable === true) errs.push(field.forbidden(childPath(childPath(path, 'items'), 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${lt}`));
    if (lt === 'map') {
      const req = new Set(Array.isArray(items.required) ? items.required : []);
      const ip = isObject(items.properties) ? items.properties : {};
      for (const k of keys) {
        const ks = ip[k];
        if (!isObject(ks)) continue;
        const kp = keyPath(childPath(childPath(path, 'items'), 'properties'), k);
        if (!req.has(k) && ks.default === undefined) errs.push(field.required(childPath(kp, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
        if (ks.nullable === true) errs.push(field.forbidden(childPath(kp, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
}

function rules(s: JSONSchemaProps, path: string, errs: FieldError[]): void {
  const list = s['x-kubernetes-validations'];
  if (!Array.isArray(list)) return;
  list.forEach((r, i) => {
    const p = indexPath(childPath(path, 'x-kubernetes-validations'), i);
    const rule = typeof r?.rule === 'string' ? r.rule.trim() : '';
    const msg = typeof r?.message === 'string' ? r.message : '';
    const trimmedMsg = msg.trim();
    if (rule === '') errs.push(field.required(`${p}.rule`, 'rule is not specified'));
    else if (msg.length > 0 && trimmedMsg === '') errs.push(field.invalid(`${p}.message`, msg, 'must be non-empty if specified'));
    else if (hasNewlines(trimmedMsg)) errs.push(field.invalid(`${p}.message`, msg, 'must not contain line breaks'));
    else if (hasNewlines(rule) && trimmedMsg === '') errs.push(field.required(`${p}.message`, 'message must be specified if rule contains line breaks'));
    const me = typeof r?.messageExpression === 'string' ? r.messageExpression : '';
    if (me.length > 0 && me.trim() === '') errs.push(field.required(`${p}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (r?.reason !== undefined && !REASONS.includes(r.reason)) errs.push(field.notSupported(`${p}.reason`, r.reason, REASONS));
    const fp = typeof r?.fieldPath === 'string' ? r.fieldPath : '';
    if (fp.length > 0 && fp.trim() === '') errs.push(field.invalid(`${p}.fieldPath`, fp, 'must be non-empty if specified'));
    if (hasNewlines(fp)) errs.push(field.invalid(`${p}.fieldPath`, fp, 'must not contain line breaks'));
    if (fp.length > 0 && fp.trim() !== '' && !fieldPathValid(s, fp)) errs.push(field.invalid(`${p}.fieldPath`, fp, 'must be a valid path'));
  });
}

/**
 * A rule's fieldPath: `.a.b`, `['a.b']`, `[0]`-free (kube's ValidFieldPath): each step must name a property
 * (or a key of additionalProperties, or a list item of a listType=map by index… not supported by kube).
 */
export function fieldPathValid(s: JSONSchemaProps, fp: string): boolean {
  return parseFieldPath(fp, s) !== undefined;
}

/** Parses a rule fieldPath against the schema; returns the steps, or undefined when invalid. */
export function parseFieldPath(fp: string, s: JSONSchemaProps): string[] | undefined {
  const steps: string[] = [];
  let cur: JSONSchemaProps | undefined = s;
  let i = 0;
  while (i < fp.length) {
    let name: string;
    if (fp[i] === '.') {
      const m = /^\.([a-zA-Z_$][a-zA-Z0-9_$-]*)/.exec(fp.slice(i));
      if (!m) return undefined;
      name = m[1]!;
      i += m[0].length;
    } else if (fp.startsWith("['", i)) {
      const end = fp.indexOf("']", i + 2);
      if (end < 0) return undefined;
      name = fp.slice(i + 2, end);
      i = end + 2;
    } else {
      return undefined;
    }
    if (!cur) return undefined;
    const props: Record<string, JSONSchemaProps> | undefined = isObject(cur.properties) ? cur.properties : undefined;
    if (props && isObject(props[name])) cur = props[name];
    else if (isObject(cur.additionalProperties)) cur = cur.additionalProperties as JSONSchemaProps;
    else return undefined;
    steps.push(name);
  }
  return steps;
}
