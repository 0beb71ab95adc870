/**
 * SelfSubjectRulesReview (pkg/registry/authorization/selfsubjectrulesreview): spec.namespace is required (400
 * `no namespace on request`); the rules are those of every authorizer that can list rules (kube's union
 * RuleResolver: AlwaysAllow lists `*`, AlwaysDeny nothing; the system:masters bypass lists none), with
 * `incomplete` and the evaluation errors as kube reports them.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { Authorizer, RulesResult } from '../../request/authorizer.ts';
import { errors } from '../../machinery/errors.ts';
import type { OpContext } from '../rest.ts';
import { ReviewStorage, specOf, str } from './base.ts';

export interface RulesReviewOptions {
  readonly authorizer: () => Authorizer;
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
function aggregate(errs: readonly string[]): string {
  return errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
}

export class RulesReviewStorage extends ReviewStorage {
  constructor(def: ResourceDef, private readonly opts: RulesReviewOptions) {
    super(def);
  }

  async create(ctx: OpContext, obj: KObject): Promise<KObject> {
    const spec = specOf(obj);
    const namespace = str(spec.namespace);
    if (!namespace) throw errors.badRequest('no namespace on request');
    const authorizer = this.opts.authorizer();
    let r: RulesResult;
    try {
      r = authorizer.rulesFor ? await authorizer.rulesFor(ctx.user, namespace) : { resourceRules: [], nonResourceRules: [], incomplete: true };
    } catch (e) {
      r = { resourceRules: [], nonResourceRules: [], incomplete: true, errors: [e instanceof Error ? e.message : String(e)] };
    }
    const status: Record<string, unknown> = {
      resourceRules: r.resourceRules.map((x) => ({ ...x })),
      nonResourceRules: r.nonResourceRules.map((x) => ({ ...x })),
      incomplete: r.incomplete,
    };
    if (r.errors?.length) status.evaluationError = aggregate(r.errors);
    return this.envelope(obj, { spec: obj.spec ?? {}, status });
  }
}
