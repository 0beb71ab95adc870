/**
 * kube's DefaultRuleResolver.VisitRulesFor over any source of bindings and roles: cluster bindings first,
 * then (when a namespace is given) the role bindings of that namespace. A binding whose role cannot be
 * resolved reports an error and is skipped; the rest still count (rules are purely additive).
 */
import type { UserInfo } from '../../../machinery/objects.ts';
import type { NormalRule } from './rules.ts';
import { appliesTo, type BindingInfo, type RoleRef } from './subjects.ts';

export type RoleRules = readonly NormalRule[] | { readonly error: string };

export interface RuleSource {
  /** Cluster bindings that may apply to `user` (a superset is fine: each is checked with appliesTo). */
  clusterBindings(user: UserInfo): Iterable<BindingInfo>;
  /** Role bindings of `namespace` that may apply to `user`. */
  namespaceBindings(user: UserInfo, namespace: string): Iterable<BindingInfo>;
  /** The rules a roleRef resolves to for a binding in `namespace` ('' for cluster bindings), or why not. */
  roleRules(ref: RoleRef, namespace: string): RoleRules;
}

/** Return false to stop visiting. `rules` is set when the role resolved, `error` when it did not. */
export type BindingVisitor = (binding: BindingInfo, subjectIndex: number, rules: readonly NormalRule[] | undefined, error: string | undefined) => boolean;

export function visitRulesFor(src: RuleSource, user: UserInfo, namespace: string, visit: BindingVisitor): void {
  if (!visitAll(src, src.clusterBindings(user), user, '', visit)) return;
  if (namespace) visitAll(src, src.namespaceBindings(user, namespace), user, namespace, visit);
}

function visitAll(src: RuleSource, bindings: Iterable<BindingInfo>, user: UserInfo, namespace: string, visit: BindingVisitor): boolean {
  for (const b of bindings) {
    const i = appliesTo(user, b);
    if (i < 0) continue;
    const r = src.roleRules(b.roleRef, namespace);
    const more = 'error' in r ? visit(b, i, undefined, (r as { error: string }).error) : visit(b, i, r as readonly NormalRule[], undefined);
    if (!more) return false;
  }
  return true;
}

/** kube's RulesFor: every rule that applies, and the resolution errors (de-duplicated, in order). */
export function rulesFor(src: RuleSource, user: UserInfo, namespace: string): { rules: NormalRule[]; errors: string[] } {
  const rules: NormalRule[] = [];
  const errors = new Set<string>();
  visitRulesFor(src, user, namespace, (_b, _i, rs, err) => {
    if (rs) rules.push(...rs);
    if (err) errors.add(err);
    return true;
  });
  return { rules, errors: [...errors] };
}
