/**
 * Label and field selectors in access reviews' resourceAttributes (AuthorizeWithSelectors, on by default since
 * kube 1.32): validation of their shape (422) and kube's evaluation errors when they cannot be parsed — the
 * review is still answered, with `spec.resourceAttributes.<x>Selector (partially) ignored due to parse error`.
 */
import { parseFieldSelector } from '../../machinery/selectors/fields.ts';
import { parseLabelSelector } from '../../machinery/selectors/labels.ts';
import { field, type FieldError } from '../../machinery/errors.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const LABEL_OPS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/** validateFieldSelectorAttributes / validateLabelSelectorAttributes (shape only). */
export function selectorErrors(ra: unknown): FieldError[] {
  if (!isObj(ra)) return [];
  const out: FieldError[] = [];
  for (const name of ['fieldSelector', 'labelSelector'] as const) {
    const sel = ra[name];
    if (!isObj(sel)) continue;
    const path = `spec.resourceAttributes.${name}`;
    const raw = typeof sel.rawSelector === 'string' ? sel.rawSelector : '';
    const reqs = Array.isArray(sel.requirements) ? sel.requirements : [];
    if (raw && reqs.length) out.push(field.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
    if (!raw && !reqs.length) out.push(field.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  }
  return out;
}

/** 'ok' | 'partial' | 'ignored': how much of a selector the authorizer could be given. */
function selectorState(kind: 'field' | 'label', sel: unknown): 'ok' | 'partial' | 'ignored' {
  if (!isObj(sel)) return 'ok';
  const raw = typeof sel.rawSelector === 'string' ? sel.rawSelector : '';
  const reqs = Array.isArray(sel.requirements) ? (sel.requirements as unknown[]) : [];
  if (reqs.length) {
    let good = 0;
    let bad = 0;
    for (const r of reqs) {
      const o = isObj(r) ? r : {};
      const op = typeof o.operator === 'string' ? o.operator : '';
      const values = Array.isArray(o.values) ? o.values : [];
      const valid = kind === 'label'
        ? LABEL_OPS.has(op) && ((op === 'In' || op === 'NotIn') ? values.length > 0 : values.length === 0)
        : (op === 'In' || op === 'NotIn') && values.length === 1;
      if (valid) good++;
      else bad++;
    }
    return bad === 0 ? 'ok' : good > 0 ? 'partial' : 'ignored';
  }
  if (!raw) return 'ok';
  try {
    if (kind === 'label') parseLabelSelector(raw);
    else parseFieldSelector(raw);
    return 'ok';
  } catch {
    return 'ignored';
  }
}

/** kube's BuildEvaluationError: the authorizer's error, then the field selector's, then the label selector's. */
export function evaluationError(authorizerError: string | undefined, ra: unknown): string {
  const parts: string[] = [];
  if (authorizerError) parts.push(authorizerError);
  if (isObj(ra)) {
    for (const [kind, name] of [['field', 'fieldSelector'], ['label', 'labelSelector']] as const) {
      const st = selectorState(kind, ra[name]);
      if (st === 'partial') parts.push(`spec.resourceAttributes.${name} partially ignored due to parse error`);
      if (st === 'ignored') parts.push(`spec.resourceAttributes.${name} ignored due to parse error`);
    }
  }
  return parts.join('; ');
}
