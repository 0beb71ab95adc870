/**
 * Helpers shared by the per-kind validators: loose JSON access (objects arrive as decoded JSON, not typed
 * structs), kube's common checks (non-negative fields, immutable fields, label selectors) and field errors
 * whose bad value is rendered the way kube-apiserver renders it.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.ts';

export type J = Record<string, unknown>;

export const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
export const obj = (v: unknown): J => (isObj(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
export const strMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v))) out[k] = typeof x === 'string' ? x : String(x);
  return out;
};
/** A set value (present and not null), as a Go pointer field would be non-nil. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export const IS_NEGATIVE = 'must be greater than or equal to 0';
export const FIELD_IMMUTABLE = 'field is immutable';

/**
 * A field error whose bad value is printed verbatim (kube renders some values with Go's %#v, and internal
 * structs as JSON with Go field names); the cause message is the same text.
 */
export class RenderedFieldError extends FieldError {
  constructor(type: FieldError['type'], path: string, readonly rendered: string, detail: string) {
    super(type, path, detail, rendered, true);
  }

  override body(): string {
    const head = this.type === 'FieldValueInvalid' ? 'Invalid value'
      : this.type === 'FieldValueNotSupported' ? 'Unsupported value'
        : this.type === 'FieldValueDuplicate' ? 'Duplicate value' : 'Not found';
    return `${head}: ${this.rendered}${this.detail ? `: ${this.detail}` : ''}`;
  }
}

/** Go's `%#v` of a []string, e.g. `[]string{"a", "b"}`. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/**
 * apiequality.Semantic.DeepEqual on decoded JSON: nil and empty maps/slices are equal (as in kube's forked
 * reflect), quantities compare by value when both sides parse the same way is left to callers.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  const emptyish = (v: unknown) => v === undefined || v === null
    || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
  if (emptyish(a) && emptyish(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** ValidateNonnegativeField: `must be greater than or equal to 0`. */
export function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [field.invalid(path, value, IS_NEGATIVE)] : [];
}

/**
 * ValidateImmutableField: `field is immutable` with the new value; an unset (nil pointer) value prints as
 * "null". Callers with typed structs (selectors, ...) render those themselves (go-render.ts).
 */
export function immutable(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  if (semanticEqual(newVal, oldVal)) return [];
  if (newVal === undefined || newVal === null) return [new RenderedFieldError('FieldValueInvalid', path, '"null"', FIELD_IMMUTABLE)];
  return [field.invalid(path, newVal, FIELD_IMMUTABLE)];
}

/** metav1 validation.ValidateLabelName */
export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((m) => field.invalid(path, name, m));
}

/** metav1 validation.ValidateLabels */
export function validateLabels(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(strMap(labels))) {
    errs.push(...validateLabelName(k, path));
    for (const m of isValidLabelValue(v)) errs.push(field.invalid(path, v, m));
  }
  return errs;
}

const SELECTOR_OPS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** metav1 validation.ValidateLabelSelector (label values checked strictly). */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (!isSet(selector)) return [];
  const s = obj(selector);
  const errs = validateLabels(s['matchLabels'], `${path}.matchLabels`);
  arr(s['matchExpressions']).forEach((e, i) => {
    const r = obj(e);
    const p = `${path}.matchExpressions[${i}]`;
    const op = str(r['operator']);
    const values = arr(r['values']);
    if (op === 'In' || op === 'NotIn') {
      if (values.length === 0) errs.push(field.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (op === 'Exists' || op === 'DoesNotExist') {
      if (values.length > 0) errs.push(field.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(field.invalid(`${p}.operator`, op, 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(str(r['key']), `${p}.key`));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(str(v))) errs.push(field.invalid(`${p}.values[${j}]`, v, m));
    });
  });
  return errs;
}

/** Whether a selector has no requirements at all (metav1 selector `Empty()`). */
export function selectorIsEmpty(selector: unknown): boolean {
  const s = obj(selector);
  return Object.keys(obj(s['matchLabels'])).length + arr(s['matchExpressions']).length === 0;
}

/**
 * LabelSelectorAsSelector(...).Matches(labels): undefined selector matches nothing (labels.Nothing), an empty one
 * everything; an unparseable one (bad operator) matches nothing and is reported separately.
 */
export function selectorMatches(selector: unknown, labels: unknown): boolean {
  if (!isSet(selector)) return false;
  const s = obj(selector);
  const l = strMap(labels);
  for (const [k, v] of Object.entries(strMap(s['matchLabels']))) if (l[k] !== v) return false;
  for (const e of arr(s['matchExpressions'])) {
    const r = obj(e);
    const key = str(r['key']);
    const values = arr(r['values']).map(str);
    const has = Object.prototype.hasOwnProperty.call(l, key);
    switch (str(r['operator'])) {
      case 'In': if (!has || !values.includes(l[key]!)) return false; break;
      case 'NotIn': if (has && values.includes(l[key]!)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}

/** Whether the selector converts (LabelSelectorAsSelector succeeds). */
export function selectorParses(selector: unknown): boolean {
  return arr(obj(selector)['matchExpressions']).every((e) => {
    const r = obj(e);
    const op = str(r['operator']);
    if (!SELECTOR_OPS.includes(op)) return false;
    const n = arr(r['values']).length;
    return (op === 'In' || op === 'NotIn') ? n > 0 : n === 0;
  });
}

/** An int-or-string value: kube's intstr decoded from JSON. */
export type IntOrString = { type: 'int'; int: number } | { type: 'string'; str: string } | { type: 'invalid' };

export function intOrString(v: unknown): IntOrString {
  if (typeof v === 'number' && Number.isInteger(v)) return { type: 'int', int: v };
  if (typeof v === 'string') return { type: 'string', str: v };
  return { type: 'invalid' };
}

function pathHasBacksteps(p: string): boolean {
  return p.replace(/\\/g, '/').split('/').includes('..');
}

/** validateLocalDescendingPath: relative, no `..` element. */
export function validateLocalDescendingPath(p: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (p.startsWith('/')) errs.push(field.invalid(path, p, 'must be a relative path'));
  if (pathHasBacksteps(p)) errs.push(field.invalid(path, p, "must not contain '..'"));
  return errs;
}
