/**
 * matchConditions (kube's webhook matchconditions matcher over plugin/cel): CEL expressions over `object`,
 * `oldObject`, `request`, `namespaceObject` and `authorizer`, evaluated against the object in the version the
 * webhook or policy matched. Every condition is evaluated; any `false` skips the webhook (whatever else failed);
 * otherwise evaluation errors follow the failure policy: Fail → the error (the caller answers 403), Ignore →
 * skipped. All conditions of one webhook share kube's runtime cost budget.
 */
import type { Authorizer } from '../../request/authorizer.ts';
import { admissionVariables, MATCH_CONDITIONS_COST_BUDGET } from '../../cel/admission.ts';
import { CelCostLimitError, compileCel, type CelProgram } from '../../cel/index.ts';
import { withAuthorizer, authorizerVariables } from '../../cel/authorizer.ts';
import type { GroupVersionKind, KObject } from '../../machinery/objects.ts';
import type { AdmissionAttributes, GroupVersionResource } from '../../registry/admission.ts';
import { requestNamespace } from './rules.ts';

export interface MatchConditionSpec {
  readonly name?: string;
  readonly expression?: string;
}

export interface MatchResult {
  readonly matches: boolean;
  /** The first condition that evaluated to false. */
  readonly failedConditionName?: string;
  /** Fail policy and an evaluation error (with no condition false): kube's aggregated message. */
  readonly error?: string;
}

/** What the conditions see: the request, and its objects in the matched version. */
export interface ConditionInput {
  readonly attrs: AdmissionAttributes;
  /** The resource and kind the webhook or policy matched (the request's own, or an equivalent). */
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
  readonly object: KObject | undefined;
  readonly oldObject: KObject | undefined;
  readonly namespaceObject?: KObject;
  readonly params?: unknown;
  /** The authorizer `authorizer` asks (absent: expressions that use it fail to evaluate). */
  readonly authorizer?: Authorizer;
}

/** The `request` variable: kube's CreateAdmissionRequest as unstructured JSON. */
export function celAdmissionRequest(attrs: AdmissionAttributes, resource: GroupVersionResource, kind: GroupVersionKind): Record<string, unknown> {
  const u = attrs.user;
  const userInfo: Record<string, unknown> = {};
  if (u.username) userInfo['username'] = u.username;
  if (u.uid) userInfo['uid'] = u.uid;
  if (u.groups?.length) userInfo['groups'] = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) userInfo['extra'] = u.extra;
  const out: Record<string, unknown> = {
    kind: { group: kind.group, version: kind.version, kind: kind.kind },
    resource: { group: resource.group, version: resource.version, resource: resource.resource },
  };
  if (attrs.subresource) out['subResource'] = attrs.subresource;
  out['requestKind'] = { group: attrs.requestKind.group, version: attrs.requestKind.version, kind: attrs.requestKind.kind };
  out['requestResource'] = { group: attrs.requestResource.group, version: attrs.requestResource.version, resource: attrs.requestResource.resource };
  if (attrs.requestSubResource) out['requestSubResource'] = attrs.requestSubResource;
  if (attrs.name) out['name'] = attrs.name;
  const ns = requestNamespace(attrs);
  if (ns) out['namespace'] = ns;
  out['operation'] = attrs.operation;
  out['userInfo'] = userInfo;
  out['dryRun'] = attrs.dryRun;
  out['options'] = attrs.options ?? null;
  return out;
}

interface Compiled {
  readonly name: string;
  readonly expression: string;
  readonly program?: CelProgram;
  readonly compileError?: string;
}

export class MatchConditions {
  private constructor(private readonly conditions: readonly Compiled[]) {}

  /** Compiles once (a configuration's conditions are compiled when it is loaded, not per request). */
  static compile(specs: readonly MatchConditionSpec[] | undefined, o: { params?: boolean } = {}): MatchConditions {
    const variables = { ...admissionVariables(o), ...authorizerVariables() };
    return new MatchConditions((specs ?? []).map((s) => {
      const expression = s.expression ?? '';
      const name = s.name ?? '';
      try {
        const program = compileCel(expression, { profile: 'admission', variables });
        if (program.resultType !== 'bool' && program.resultType !== 'dyn') {
          return { name, expression, compileError: `must evaluate to bool but got ${program.resultType}` };
        }
        return { name, expression, program };
      } catch (e) {
        return { name, expression, compileError: (e as Error).message };
      }
    }));
  }

  get empty(): boolean {
    return this.conditions.length === 0;
  }

  /** kube's matcher.Match with the given failure policy (`Fail` unless `Ignore`). */
  async match(input: ConditionInput, failurePolicy: string | undefined): Promise<MatchResult> {
    if (this.conditions.length === 0) return { matches: true };
    const vars: Record<string, unknown> = {
      object: input.object ?? null,
      oldObject: input.oldObject ?? null,
      request: celAdmissionRequest(input.attrs, input.resource, input.kind),
      namespaceObject: input.namespaceObject ?? null,
    };
    if (input.params !== undefined) vars['params'] = input.params;
    const ignore = failurePolicy === 'Ignore';
    const errorsSeen: string[] = [];
    let budget = MATCH_CONDITIONS_COST_BUDGET;
    let falseName: string | undefined;
    let falseFound = false;
    const a = input.attrs;
    const requestResource = { group: a.resource.group, resource: a.resource.resource, subresource: a.subresource, namespace: requestNamespace(a), name: a.name };
    for (const c of this.conditions) {
      if (!c.program) {
        errorsSeen.push(`compilation error: ${c.compileError ?? 'unknown'}`);
        continue;
      }
      let value: unknown;
      try {
        const r = await withAuthorizer(input.authorizer, a.user, requestResource, (authzVars) =>
          c.program!.evaluate({ ...vars, ...authzVars }, { costLimit: budget }));
        budget -= r.cost;
        value = r.value;
      } catch (e) {
        if (e instanceof CelCostLimitError) {
          // Out of budget ends evaluation: the failure policy decides, as for any evaluation error.
          return ignore ? { matches: false } : { matches: false, error: 'validation failed due to running out of cost budget, no further validation rules will be run' };
        }
        errorsSeen.push(`expression '${c.expression}' resulted in error: ${(e as Error).message}`);
        continue;
      }
      if (value === false && !falseFound) {
        falseFound = true;
        falseName = c.name;
      } else if (value !== true && value !== false) {
        errorsSeen.push(`expression '${c.expression}' resulted in error: no such overload`);
      }
    }
    if (falseFound) return { matches: false, failedConditionName: falseName };
    if (errorsSeen.length) return ignore ? { matches: false } : { matches: false, error: aggregate(errorsSeen) };
    return { matches: true };
  }
}

/** utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated in brackets. */
export function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
