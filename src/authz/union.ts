/**
 * Members are asked in order; the first `allow` or `deny` decides. When every member has no opinion the
 * result is no-opinion with the members' reasons joined by newlines and their evaluation errors (kube's union
 * authorizer), which the authorization filter turns into 403 — default deny — or 500 when a member failed.
 */
import type { UserInfo } from '../machinery/objects.ts';
import type { Attributes, Authorizer, DecidedBy, Decision, NonResourceRule, ResourceRule, RulesResult } from '../request/authorizer.ts';

const PRIVILEGED = 'privileged-groups';
const MODE_TYPES = new Set(['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Node', 'RBAC']);

/**
 * kube instruments each configured authorizer with its type and name; the flags' modes are named after the mode
 * in lower case, webhooks by their configured name. The system:masters shortcut is not instrumented.
 */
function decidedBy(m: Authorizer): DecidedBy | undefined {
  if (m.name === PRIVILEGED) return undefined;
  return MODE_TYPES.has(m.name) ? { type: m.name, name: m.name.toLowerCase() } : { type: 'Webhook', name: m.name };
}

export function unionAuthorizer(members: readonly Authorizer[]): Authorizer {
  const by = new Map(members.map((m) => [m, decidedBy(m)]));
  const decided = (m: Authorizer, d: Exclude<Decision, { kind: 'no-opinion' }>): Decision => {
    const b = by.get(m);
    return b && !d.decidedBy ? { ...d, decidedBy: b } : d;
  };
  const noOpinion = (reasons: readonly string[], errs: readonly string[]): Decision => {
    // kube's union keeps evaluation errors: when nothing allowed, a failed member turns the 403 into a 500.
    const error = errs.length > 1 ? `[${errs.join(', ')}]` : errs[0];
    return { kind: 'no-opinion', ...(reasons.length ? { reason: reasons.join('\n') } : {}), ...(error ? { error } : {}) };
  };
  /** Members from `i` on, after one answered asynchronously (a webhook). */
  const rest = async (attrs: Attributes, i: number, reasons: string[], errs: string[]): Promise<Decision> => {
    for (; i < members.length; i++) {
      const m = members[i]!;
      const d = await m.authorize(attrs);
      if (d.kind !== 'no-opinion') return decided(m, d);
      if (d.reason) reasons.push(d.reason);
      if (d.error) errs.push(d.error);
    }
    return noOpinion(reasons, errs);
  };
  return {
    name: members.map((m) => m.name).join(','),
    // Synchronous as long as the members answer synchronously (RBAC, Node, the privileged groups): no promise
    // per member on every request.
    authorize(attrs: Attributes): Decision | Promise<Decision> {
      const reasons: string[] = [];
      const errs: string[] = [];
      for (let i = 0; i < members.length; i++) {
        const m = members[i]!;
        let d: Decision | Promise<Decision>;
        try {
          d = m.authorize(attrs);
        } catch (err) {
          return Promise.reject(err);
        }
        if (d instanceof Promise) {
          return d.then((r) => {
            if (r.kind !== 'no-opinion') return decided(m, r);
            if (r.reason) reasons.push(r.reason);
            if (r.error) errs.push(r.error);
            return rest(attrs, i + 1, reasons, errs);
          });
        }
        if (d.kind !== 'no-opinion') return decided(m, d);
        if (d.reason) reasons.push(d.reason);
        if (d.error) errs.push(d.error);
      }
      return noOpinion(reasons, errs);
    },
    rulesFor: (user, namespace) => unionRules(members, user, namespace),
  };
}

/**
 * kube's union RuleResolver: the rules of every member that can list rules, concatenated; incomplete when any
 * member says so; evaluation errors collected (a throwing member counts as an error, not a failure).
 */
export async function unionRules(members: readonly Authorizer[], user: UserInfo, namespace: string): Promise<RulesResult> {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  const errs: string[] = [];
  let incomplete = false;
  for (const m of members) {
    if (!m.rulesFor) continue;
    try {
      const r = await m.rulesFor(user, namespace);
      resourceRules.push(...r.resourceRules);
      nonResourceRules.push(...r.nonResourceRules);
      incomplete ||= r.incomplete;
      errs.push(...(r.errors ?? []));
    } catch (e) {
      errs.push(e instanceof Error ? e.message : String(e));
    }
  }
  return { resourceRules, nonResourceRules, incomplete, ...(errs.length ? { errors: errs } : {}) };
}

/** Allows members of the given groups before any mode is asked (kube's `system:masters` bypass). */
export function privilegedGroups(groups: readonly string[]): Authorizer {
  const set = new Set(groups);
  return {
    name: PRIVILEGED,
    authorize: (attrs) => (attrs.user.groups.some((g) => set.has(g)) ? { kind: 'allow' } : { kind: 'no-opinion' }),
  };
}
