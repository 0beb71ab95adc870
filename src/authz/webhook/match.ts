/**
 * Webhook match conditions (AuthorizationConfiguration `matchConditions`): CEL expressions over `request`, the
 * SubjectAccessReview v1 spec. Any false skips the webhook; all true calls it; an error with no false is an
 * error (the webhook's failure policy decides). Compiled once when the configuration is loaded.
 */
import { compileCel, type CelObjectType, type CelProgram, type CelType } from '../../cel/index.ts';
import { field, FieldError } from '../../machinery/errors.ts';
import type { SarSpec } from './sar.ts';

export const MAX_MATCH_CONDITIONS = 64;

const strings: CelType = { list: 'string' };
const requirement = (name: string): CelObjectType => ({ object: name, fields: { key: 'string', operator: 'string', values: strings } });
const selector = (name: string): CelObjectType => ({ object: name, fields: { rawSelector: 'string', requirements: { list: requirement(`${name}.requirements`) } } });

/** kube's SubjectAccessReviewSpec as a CEL object type. */
export const REQUEST_TYPE: CelObjectType = {
  object: 'kubernetes.authorization.v1.SubjectAccessReviewSpec',
  fields: {
    resourceAttributes: {
      object: 'kubernetes.authorization.v1.ResourceAttributes',
      fields: {
        namespace: 'string', verb: 'string', group: 'string', version: 'string', resource: 'string', subresource: 'string', name: 'string',
        fieldSelector: selector('kubernetes.authorization.v1.FieldSelectorAttributes'),
        labelSelector: selector('kubernetes.authorization.v1.LabelSelectorAttributes'),
      },
    },
    nonResourceAttributes: { object: 'kubernetes.authorization.v1.NonResourceAttributes', fields: { path: 'string', verb: 'string' } },
    user: 'string',
    groups: strings,
    extra: { map: strings },
    uid: 'string',
  },
};

export interface MatchCondition {
  readonly expression: string;
}

export interface CompiledMatchConditions {
  readonly programs: readonly CelProgram[];
}

/** kube's ValidateAndCompileMatchConditions: field errors under `path`, or the compiled programs. */
export function compileMatchConditions(conds: readonly unknown[], path: string): { compiled: CompiledMatchConditions; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const programs: CelProgram[] = [];
  if (conds.length > MAX_MATCH_CONDITIONS) errors.push(new FieldError('FieldValueTooMany', path, `${conds.length}: must have at most ${MAX_MATCH_CONDITIONS} items`));
  const seen = new Set<string>();
  conds.forEach((c, i) => {
    const p = `${path}[${i}].expression`;
    const expr = c && typeof c === 'object' ? (c as { expression?: unknown }).expression : undefined;
    if (typeof expr !== 'string' || expr.trim() === '') {
      errors.push(field.required(p, ''));
      return;
    }
    if (seen.has(expr)) {
      errors.push(field.duplicate(p, expr));
      return;
    }
    seen.add(expr);
    try {
      const prog = compileCel(expr, { profile: 'authorization', variables: { request: REQUEST_TYPE } });
      if (prog.resultType !== 'bool') errors.push(field.invalid(p, expr, 'must evaluate to bool'));
      else programs.push(prog);
    } catch (e) {
      const msg = (e as Error).message;
      errors.push(field.invalid(p, expr, msg.startsWith('compilation failed') ? msg : `compilation failed: ${msg}`));
    }
  });
  return { compiled: { programs }, errors };
}

/** true = call the webhook, false = skip it; throws when some condition failed to evaluate and none was false. */
export function evaluateMatchConditions(m: CompiledMatchConditions, spec: SarSpec): boolean {
  const errs: string[] = [];
  for (const p of m.programs) {
    try {
      const { value } = p.evaluate({ request: spec });
      if (value === false) return false;
      if (value !== true) errs.push(`cel evaluation error: expression '${p.source}' eval result type should be bool but got ${typeof value}`);
    } catch (e) {
      errs.push(`cel evaluation error: expression '${p.source}' resulted in error: ${(e as Error).message}`);
    }
  }
  if (errs.length) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  return true;
}
