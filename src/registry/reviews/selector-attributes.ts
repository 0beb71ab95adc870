/**
 * Access reviews' `resourceAttributes.fieldSelector` / `labelSelector` as authorizer attributes (kube's
 * ResourceAttributesFrom with AuthorizeWithSelectors): requirements when given, else the raw selector parsed.
 * Requirements that cannot be expressed are left out (they can only narrow); what could not be parsed is
 * reported by ./selectors.ts as the review's evaluationError.
 */
import type { Attributes } from '../../request/authorizer.ts';
import { parseFieldSelector, type FieldRequirement } from '../../machinery/selectors/fields.ts';
import { parseLabelSelector, type LabelRequirement, type LabelOperator } from '../../machinery/selectors/labels.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

const LABEL_OPS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

function fieldRequirements(sel: Obj): { reqs?: FieldRequirement[]; error?: string } {
  const reqs = Array.isArray(sel.requirements) ? sel.requirements : [];
  if (reqs.length) {
    const out: FieldRequirement[] = [];
    for (const r of reqs) {
      const o = isObj(r) ? r : {};
      const values = strs(o.values);
      if (typeof o.key !== 'string' || values.length !== 1 || (o.operator !== 'In' && o.operator !== 'NotIn')) continue;
      out.push({ field: o.key, operator: o.operator === 'In' ? '=' : '!=', value: values[0]! });
    }
    return out.length ? { reqs: out } : {};
  }
  const raw = typeof sel.rawSelector === 'string' ? sel.rawSelector : '';
  if (!raw) return {};
  try {
    const r = parseFieldSelector(raw).requirements;
    return r.length ? { reqs: [...r] } : {};
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function labelRequirements(sel: Obj): { reqs?: LabelRequirement[]; error?: string } {
  const reqs = Array.isArray(sel.requirements) ? sel.requirements : [];
  if (reqs.length) {
    const out: LabelRequirement[] = [];
    for (const r of reqs) {
      const o = isObj(r) ? r : {};
      const op = typeof o.operator === 'string' ? LABEL_OPS[o.operator] : undefined;
      const values = strs(o.values);
      if (typeof o.key !== 'string' || !op) continue;
      if ((op === 'in' || op === 'notin') !== values.length > 0) continue;
      out.push({ key: o.key, operator: op, values: [...new Set(values)].sort() });
    }
    return out.length ? { reqs: out } : {};
  }
  const raw = typeof sel.rawSelector === 'string' ? sel.rawSelector : '';
  if (!raw) return {};
  try {
    const r = parseLabelSelector(raw).requirements;
    return r.length ? { reqs: [...r] } : {};
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export function selectorAttributesFrom(ra: Obj): Partial<Attributes> {
  const out: { -readonly [K in keyof Attributes]?: Attributes[K] } = {};
  if (isObj(ra.fieldSelector)) {
    const f = fieldRequirements(ra.fieldSelector);
    if (f.reqs) out.fieldSelectorRequirements = f.reqs;
    if (f.error) out.fieldSelectorParsingError = f.error;
  }
  if (isObj(ra.labelSelector)) {
    const l = labelRequirements(ra.labelSelector);
    if (l.reqs) out.labelSelectorRequirements = l.reqs;
    if (l.error) out.labelSelectorParsingError = l.error;
  }
  return out;
}
