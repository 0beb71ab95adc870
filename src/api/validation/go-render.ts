/**
 * Bad values as kube-apiserver v1.33 prints them in field errors (field.Error.ErrorBody): strings quoted,
 * numbers and bools plain, nil pointers as "null", types with a String() method through it (times), and any
 * other value with Go's `%#v` (e.g. `map[string]string{"app":"web"}`, `[]string{"a", "b"}`,
 * `v1.LabelSelector{...}`, `intstr.IntOrString{...}`). Kubernetes v1.34 later switched to JSON; v1.33 did not.
 * Map keys print sorted, as Go's fmt does.
 */
import { FieldError } from '../../machinery/errors.ts';
import { RenderedFieldError, isObj, isSet, obj, str } from './util.ts';

export const goQuote = (s: string): string => JSON.stringify(s);

/** `%#v` of a map[string]string (nil when absent). */
export function goMap(v: unknown, type = 'map[string]string'): string {
  if (!isObj(v)) return `${type}(nil)`;
  const keys = Object.keys(v).sort();
  return `${type}{${keys.map((k) => `${goQuote(k)}:${goQuote(str(v[k]))}`).join(', ')}}`;
}

/** `%#v` of a []string-like slice (nil when absent); `type` is the Go slice type. */
export function goStrings(v: unknown, type = '[]string'): string {
  if (!Array.isArray(v)) return `${type}(nil)`;
  return `${type}{${v.map((x) => goQuote(str(x))).join(', ')}}`;
}

/** `%#v` of a (dereferenced) metav1.LabelSelector. */
export function goLabelSelector(v: unknown): string {
  const s = obj(v);
  const exprs = s['matchExpressions'];
  const reqs = Array.isArray(exprs)
    ? `[]v1.LabelSelectorRequirement{${exprs.map((e) => {
      const r = obj(e);
      return `v1.LabelSelectorRequirement{Key:${goQuote(str(r['key']))}, Operator:${goQuote(str(r['operator']))}, Values:${goStrings(r['values'])}}`;
    }).join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goMap(s['matchLabels'])}, MatchExpressions:${reqs}}`;
}

/** `%#v` of an intstr.IntOrString (its String() has a pointer receiver, so values print as structs). */
export function goIntOrString(v: unknown): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`;
}

/** metav1.Time / MicroTime through time.Time.String(): `2024-01-02 03:04:05 +0000 UTC` (fraction when present). */
export function goTime(v: unknown): string {
  const d = new Date(str(v));
  if (!isSet(v) || Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  const iso = d.toISOString();
  const fracMatch = /\.(\d+)Z?$/.exec(str(v));
  const frac = fracMatch ? fracMatch[1]!.replace(/0+$/, '') : '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC`;
}

/** `%#v` of a metav1.OwnerReference; set *bool fields print as a pointer address (a placeholder here). */
export function goOwnerReference(v: unknown): string {
  const r = obj(v);
  const ptr = (k: string) => (isSet(r[k]) ? '(*bool)(0xc000000000)' : '(*bool)(nil)');
  return `v1.OwnerReference{APIVersion:${goQuote(str(r['apiVersion']))}, Kind:${goQuote(str(r['kind']))}, Name:${goQuote(str(r['name']))}, UID:${goQuote(str(r['uid']))}, Controller:${ptr('controller')}, BlockOwnerDeletion:${ptr('blockOwnerDeletion')}}`;
}

/** A pointer field inside a %#v struct: nil, or an address (a placeholder; real addresses vary per request). */
export function goPtr(v: unknown, type: string): string {
  return isSet(v) ? `(*${type})(0xc000000000)` : `(*${type})(nil)`;
}

/** A nil pointer's bad value. */
export const GO_NULL = '"null"';

/** An error whose bad value is already rendered Go-style. */
export function goInvalid(path: string, rendered: string, detail: string): FieldError {
  return new RenderedFieldError('FieldValueInvalid', path, rendered, detail);
}

export function goNotSupported(path: string, rendered: string, supported: string[]): FieldError {
  return new RenderedFieldError('FieldValueNotSupported', path, rendered, `supported values: ${supported.map(goQuote).join(', ')}`);
}

export function goDuplicate(path: string, rendered: string): FieldError {
  return new RenderedFieldError('FieldValueDuplicate', path, rendered, '');
}

/** Immutable field with a Go-rendered new value. */
export function goImmutable(changed: boolean, path: string, rendered: string): FieldError[] {
  return changed ? [goInvalid(path, rendered, 'field is immutable')] : [];
}

