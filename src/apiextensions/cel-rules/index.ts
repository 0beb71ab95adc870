/**
 * `x-kubernetes-validations` (CEL validation rules) of a CRD version, as kube-apiserver v1.33 compiles and runs
 * them (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go and compilation.go):
 *
 * - compile (CRD write): every rule and messageExpression type-checks with `self` (and `oldSelf` for transition
 *   rules) typed from the schema node; the root's `self` also has apiVersion, kind and metadata.name/
 *   generateName. The estimated cost times the node's cardinality (how many times it can run per object:
 *   maxItems/maxProperties of enclosing lists and maps, or kube's worst case from the 3 MiB request limit)
 *   must stay under 10M per rule and 100M for the whole schema, with kube's messages.
 * - evaluate (create/update): rules run on every non-null value their node describes, top-down; transition
 *   rules (using `oldSelf`) only where an old value correlates (object fields, map keys, listType=map keys),
 *   unless `optionalOldSelf`. A false rule reports `message`, else the messageExpression's value, else
 *   `failed rule: <rule>`, at the node path plus `fieldPath`, with the `reason`'s error type; the value shown
 *   is the node's schema type (`spec: Invalid value: "object": …`), as 1.33 does. Runtime cost: 1M per call,
 *   10M per object. Ratcheting: errors of rules without oldSelf on values equal to their old value are dropped.
 */
import {
  celTypeFromSchema, compileCel, CelCompileError, CelCostLimitError, PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, type CelProgram, type CelSchema, type CelType,
} from '../../cel/index.ts';
import { field, FieldError } from '../../machinery/errors.ts';
import { parseFieldPath } from '../schema/schema-checks.ts';
import { childPath, indexPath, isObject, jsonEqual, keyPath, type JSONSchemaProps, type Structural, type ValidationRule } from '../schema/types.ts';
import { itemIndex } from '../schema/value-validation.ts';

const MAX_REQUEST_BYTES = 3 * 1024 * 1024;

interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: CelProgram;
  readonly message?: CelProgram;
  readonly usesOldSelf: boolean;
  /** Normalized fieldPath steps (`.a['b.c']` → ['a', 'b.c']). */
  readonly fieldPath: readonly string[];
}

/** The rules of one schema node and the nodes below it that have rules. */
interface RuleNode {
  readonly schema: Structural;
  readonly rules: readonly CompiledRule[];
  readonly properties?: ReadonlyMap<string, RuleNode>;
  readonly additional?: RuleNode;
  readonly items?: RuleNode;
}

export interface CompiledRules {
  /** Compile and cost errors, at `<schemaPath>…x-kubernetes-validations[i].rule` paths. */
  readonly errors: FieldError[];
  /** Undefined when the schema has no rules. */
  readonly validator?: RuleValidator;
}

export interface RuleValidator {
  /** Runs the rules over `obj` (`old` on update); paths are relative to the object (`spec.x`). */
  validate(obj: unknown, old: unknown): FieldError[];
}

/** How apimachinery prints a nil field.Path: errors about the whole object. */
const NIL = '<nil>';

const usesOldSelf = (src: string) => /\boldSelf\b/.test(src);

function costMessage(name: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

function minJsonSize(s: JSONSchemaProps | undefined): number {
  if (!s || s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields']) return 1;
  switch (s.type) {
    case 'string': case 'array': case 'object': return 2;
    case 'boolean': return 4;
    default: return 1;
  }
}

interface CompileCtx {
  errors: FieldError[];
  total: number;
  expensive: { path: string; cost: number }[];
}

/**
 * Compiles every rule under `root` (a version's structural schema; or any node, for defaults, with
 * `isResourceRoot` false); `schemaPath` prefixes error paths.
 */
export function compileRules(root: Structural, schemaPath: string, isResourceRoot = true): CompiledRules {
  const ctx: CompileCtx = { errors: [], total: 0, expensive: [] };
  const node = compileNode(root, schemaPath, isResourceRoot, 1, undefined, ctx);
  if (ctx.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of ctx.expensive.sort((a, b) => b.cost - a.cost).slice(0, 4)) {
      ctx.errors.push(field.forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    }
    ctx.errors.push(field.forbidden(schemaPath, costMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', ctx.total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return { errors: ctx.errors, ...(node ? { validator: new Validator(node) } : {}) };
}

/**
 * `uncorrelatable`: the schema path of the nearest enclosing list whose items cannot be matched with their old
 * values (any list but listType=map), where transition rules (oldSelf) are refused.
 */
function compileNode(s: Structural, path: string, isRoot: boolean, cardinality: number, uncorrelatable: string | undefined, ctx: CompileCtx): RuleNode | undefined {
  let properties: Map<string, RuleNode> | undefined;
  if (s.properties) {
    for (const [k, p] of s.properties) {
      const sub = compileNode(p, keyPath(`${path}.properties`, k), false, cardinality, uncorrelatable, ctx);
      if (sub) (properties ??= new Map()).set(k, sub);
    }
  }
  let additional: RuleNode | undefined;
  if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
    const bound = s.props.maxProperties ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minJsonSize(s.additionalProperties.props) + 4));
    additional = compileNode(s.additionalProperties, `${path}.additionalProperties`, false, cardinality * bound, uncorrelatable, ctx);
  }
  let items: RuleNode | undefined;
  if (s.items) {
    const bound = s.props.maxItems ?? Math.floor((MAX_REQUEST_BYTES - 2) / (minJsonSize(s.items.props) + 1));
    items = compileNode(s.items, `${path}.items`, false, cardinality * bound, s.listType === 'map' ? uncorrelatable : uncorrelatable ?? path, ctx);
  }
  const rules = compileNodeRules(s, path, isRoot, cardinality, uncorrelatable, ctx);
  if (rules.length === 0 && !properties && !additional && !items) return undefined;
  return { schema: s, rules, ...(properties ? { properties } : {}), ...(additional ? { additional } : {}), ...(items ? { items } : {}) };
}

function compileNodeRules(s: Structural, path: string, isRoot: boolean, cardinality: number, uncorrelatable: string | undefined, ctx: CompileCtx): CompiledRule[] {
  const list = s.validations ?? [];
  if (list.length === 0) return [];
  const selfSchema = (isRoot ? rootSelfSchema(s.props) : s.props) as CelSchema;
  const { type, sizeHints } = celTypeFromSchema(selfSchema, { name: 'self' });
  const out: CompiledRule[] = [];
  list.forEach((rule, i) => {
    const rp = `${indexPath(`${path}.x-kubernetes-validations`, i)}`;
    const src = typeof rule.rule === 'string' ? rule.rule : '';
    const old = usesOldSelf(src);
    // optionalOldSelf: oldSelf is optional_type(T), none when there is no old value (kube 1.33, ratcheting on).
    const optional = old && rule.optionalOldSelf === true;
    const variables: Record<string, CelType> = old ? { self: type, oldSelf: optional ? { optional: type } : type } : { self: type };
    const hints = old ? { ...sizeHints, ...Object.fromEntries(Object.entries(sizeHints).map(([k, v]) => [k.replace(/^self/, 'oldSelf'), v])) } : sizeHints;
    let program: CelProgram | undefined;
    let message: CelProgram | undefined;
    if (src.trim() !== '') {
      try {
        program = compileCel(src, { profile: 'crd', variables, sizeHints: hints });
        if (program.resultType !== 'bool') {
          ctx.errors.push(field.invalid(`${rp}.rule`, rule, 'cel expression must evaluate to a bool'));
          program = undefined;
        }
      } catch (e) {
        // A failure of the CEL library itself is an internal error, not the rule's fault.
        ctx.errors.push(e instanceof CelCompileError ? field.invalid(`${rp}.rule`, rule, e.message)
          : new FieldError('InternalError', `${rp}.rule`, `internal error: failed to compile rule: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
    if (program) {
      const cost = program.estimatedCost.max * cardinality;
      if (cost > STATIC_ESTIMATED_COST_LIMIT) ctx.errors.push(field.forbidden(`${rp}.rule`, costMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
      ctx.total += cost;
      ctx.expensive.push({ path: `${rp}.rule`, cost });
    }
    if (typeof rule.messageExpression === 'string' && rule.messageExpression.trim() !== '') {
      try {
        message = compileCel(rule.messageExpression, { profile: 'crd', variables, sizeHints: hints });
        if (message.resultType !== 'string') {
          ctx.errors.push(field.invalid(`${rp}.messageExpression`, rule, 'messageExpression must evaluate to a string'));
          message = undefined;
        }
      } catch (e) {
        const msg = e instanceof CelCompileError ? e.message.replace(/^compilation failed: /, 'messageExpression compilation failed: ') : String(e);
        ctx.errors.push(field.invalid(`${rp}.messageExpression`, rule, msg));
      }
      if (message) {
        const cost = message.estimatedCost.max * cardinality;
        if (cost > STATIC_ESTIMATED_COST_LIMIT) ctx.errors.push(field.forbidden(`${rp}.messageExpression`, costMessage('estimated messageExpression cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
        ctx.total += cost;
        ctx.expensive.push({ path: `${rp}.messageExpression`, cost });
      }
    }
    if (old && program && uncorrelatable !== undefined) {
      ctx.errors.push(field.invalid(`${rp}.rule`, src, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
    }
    if (!old && rule.optionalOldSelf !== undefined) {
      ctx.errors.push(field.invalid(`${rp}.optionalOldSelf`, rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
    const fp = typeof rule.fieldPath === 'string' && rule.fieldPath.trim() ? parseFieldPath(rule.fieldPath.trim(), s.props) ?? [] : [];
    out.push({ rule, ...(program ? { program } : {}), ...(message ? { message } : {}), usesOldSelf: old, fieldPath: fp });
  });
  return out;
}

/** kube's WithTypeAndObjectMeta: the root `self` has apiVersion, kind and metadata with name/generateName only. */
function rootSelfSchema(p: JSONSchemaProps): JSONSchemaProps {
  return {
    ...p,
    properties: {
      ...(p.properties ?? {}),
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

function ruleString(r: ValidationRule): string {
  return r.message ? r.message.trim() : r.rule.trim();
}

function reasonError(path: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden': return field.forbidden(path, detail);
    case 'FieldValueRequired': return field.required(path, detail);
    case 'FieldValueDuplicate': return field.duplicate(path, type);
    default: return field.invalid(path, type, detail);
  }
}

/** Thrown inside a walk when the per-object budget is gone: no further rules run. */
class BudgetExhausted extends Error {}

class Validator implements RuleValidator {
  constructor(private readonly root: RuleNode) {}

  validate(obj: unknown, old: unknown): FieldError[] {
    const errs: FieldError[] = [];
    const budget = { remaining: RUNTIME_CEL_COST_BUDGET };
    try {
      this.walk(this.root, obj, old === undefined ? undefined : { value: old }, '', errs, budget, false);
    } catch (e) {
      if (!(e instanceof BudgetExhausted)) throw e;
    }
    return errs;
  }

  private walk(n: RuleNode, v: unknown, old: { value: unknown } | undefined, path: string, errs: FieldError[], budget: { remaining: number }, parentUnchanged: boolean): void {
    if (v === null || v === undefined) return;
    // An unchanged parent means an unchanged child (kube ratchets by the nearest correlated ancestor).
    const unchanged = parentUnchanged || (old !== undefined && jsonEqual(old.value, v));
    this.runRules(n, v, old, path, errs, budget, unchanged);
    if (isObject(v)) {
      const oldObj = old !== undefined && isObject(old.value) ? old.value : undefined;
      const correlatable = n.schema.mapType === undefined || n.schema.mapType === 'granular' || n.schema.mapType === 'atomic';
      const corr = (k: string) => (correlatable && oldObj && k in oldObj ? { value: oldObj[k] } : undefined);
      if (!n.additional) {
        // Only the properties that have rules below them: no need to look at the other keys.
        for (const [k, sub] of n.properties ?? []) {
          if (k in v) this.walk(sub, v[k], corr(k), childPath(path, k), errs, budget, unchanged);
        }
      } else {
        for (const [k, cv] of Object.entries(v)) {
          const sub = n.properties?.get(k);
          if (sub) this.walk(sub, cv, corr(k), childPath(path, k), errs, budget, unchanged);
          else if (!n.schema.properties?.has(k)) this.walk(n.additional, cv, corr(k), keyPath(path, k), errs, budget, unchanged);
        }
      }
    } else if (Array.isArray(v) && n.items) {
      const oldList = old !== undefined && Array.isArray(old.value) ? old.value : undefined;
      const keys = n.schema.listType === 'map' ? n.schema.listMapKeys ?? [] : undefined;
      // One index of the old list (not a search per item: quadratic on long lists).
      const correlate = oldList && keys ? itemIndex(oldList, keys) : undefined;
      v.forEach((item, i) => {
        const co = correlate && isObject(item) ? correlate(item) : undefined;
        this.walk(n.items!, item, co, indexPath(path, i), errs, budget, unchanged);
      });
    }
  }

  private runRules(n: RuleNode, v: unknown, old: { value: unknown } | undefined, path: string, errs: FieldError[], budget: { remaining: number }, unchanged: boolean): void {
    const type = n.schema.type;
    for (const r of n.rules) {
      if (!r.program) continue;
      if (r.usesOldSelf && old === undefined && r.rule.optionalOldSelf !== true) continue;
      // Ratcheting: a rule without oldSelf on an unchanged value could only produce an error that is dropped.
      if (!r.usesOldSelf && unchanged) continue;
      const vars: Record<string, unknown> = { self: v };
      if (r.usesOldSelf && old !== undefined) vars.oldSelf = old.value;
      let result: unknown;
      try {
        const out = r.program.evaluate(vars, { costLimit: Math.min(PER_CALL_LIMIT, budget.remaining) });
        budget.remaining -= out.cost;
        result = out.value;
      } catch (e) {
        if (e instanceof CelCostLimitError) {
          if (budget.remaining < PER_CALL_LIMIT) {
            errs.push(field.invalid(path || NIL, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
          } else {
            errs.push(field.invalid(path || NIL, type, `'${e.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleString(r.rule)}`));
          }
          throw new BudgetExhausted();
        }
        const msg = e instanceof Error ? e.message : String(e);
        if (msg.startsWith('no such overload')) {
          errs.push(field.invalid(path || NIL, type, `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleString(r.rule)}`));
        } else {
          errs.push(field.invalid(path || NIL, type, `${msg} evaluating rule: ${ruleString(r.rule)}`));
        }
        continue;
      }
      if (result === true) continue;
      const at = r.fieldPath.reduce((p, step) => childPath(p, step), path) || NIL;
      let detail = r.rule.message?.trim() ? r.rule.message.trim() : `failed rule: ${r.rule.rule.trim()}`;
      if (r.message) {
        try {
          const out = r.message.evaluate(vars, { costLimit: Math.min(PER_CALL_LIMIT, budget.remaining) });
          budget.remaining -= out.cost;
          // kube trims the text; empty, multi-line or over-long texts fall back to the rule's message.
          const text = typeof out.value === 'string' ? out.value.trim() : '';
          if (text !== '' && !/[\n\r]/.test(text) && Buffer.byteLength(text) <= 5120) detail = text;
        } catch (e) {
          if (e instanceof CelCostLimitError) {
            const why = budget.remaining < PER_CALL_LIMIT
              ? 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'
              : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(r.rule.messageExpression ?? '')}`;
            errs.push(field.invalid(at, type, why));
            throw new BudgetExhausted();
          }
          // Other evaluation failures: the rule's message is used instead (kube logs them).
        }
      }
      errs.push(reasonError(at, type, detail, r.rule.reason));
    }
  }
}
