/**
 * What reconciliation does to one existing default object (kube's rbac `reconciliation` package, in its
 * "union" mode: removeExtraPermissions = removeExtraSubjects = false). Pure functions; ensure.ts applies them.
 *
 * - Labels and annotations: the expected ones are added, existing values win.
 * - Roles: rules the existing role does not cover are appended (as broken-down sub-rules); nothing is removed.
 *   When both roles are aggregated, only missing aggregation selectors are added (the controller owns rules).
 *   An existing aggregation rule on a role that should not have one is dropped.
 * - Bindings: missing subjects are appended; a different roleRef means delete and re-create (roleRef is
 *   immutable).
 * - `rbac.authorization.kubernetes.io/autoupdate: "false"` on the existing object marks it protected: the
 *   caller leaves it alone whatever the computed operation is.
 */
import type { KObject } from '../../../machinery/objects.ts';
import { deepEqual } from '../../../apply/merge-patch.ts';
import { covers } from './covers.ts';
import { AUTOUPDATE_ANNOTATION } from './policy.ts';
import type { PolicyRule } from './rule.ts';
import type { Subject } from './bindings.ts';

export type ReconcileOperation = 'none' | 'update' | 'recreate';

export interface ReconcileResult {
  operation: ReconcileOperation;
  /** The existing object carries autoupdate "false". */
  protected: boolean;
  /** The object to write (a copy of the existing one, changed) — or the expected one for `recreate`. */
  object: KObject;
  /** Sub-rules added (roles) — for logs and tests. */
  missingRules?: PolicyRule[];
  missingSubjects?: Subject[];
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: unknown[];
}

const annotationsOf = (o: KObject): Record<string, string> => o.metadata.annotations ?? {};
const labelsOf = (o: KObject): Record<string, string> => o.metadata.labels ?? {};
const rulesOf = (o: KObject): PolicyRule[] => (o['rules'] as PolicyRule[] | null | undefined) ?? [];
const selectorsOf = (o: KObject): LabelSelector[] | undefined =>
  (o['aggregationRule'] as { clusterRoleSelectors?: LabelSelector[] } | null | undefined)?.clusterRoleSelectors ?? (o['aggregationRule'] ? [] : undefined);

export function isProtected(existing: KObject): boolean {
  return annotationsOf(existing)[AUTOUPDATE_ANNOTATION] === 'false';
}

/** Labels and annotations of `expected` merged under the existing ones; true when that changed anything. */
function mergeMeta(target: KObject, existing: KObject, expected: KObject): boolean {
  const annotations = { ...annotationsOf(expected), ...annotationsOf(existing) };
  const labels = { ...labelsOf(expected), ...labelsOf(existing) };
  const changed = !deepEqual(annotations, annotationsOf(existing)) || !deepEqual(labels, labelsOf(existing));
  if (Object.keys(annotations).length) target.metadata.annotations = annotations;
  if (Object.keys(labels).length) target.metadata.labels = labels;
  return changed;
}

/** ClusterRoles and Roles. */
export function reconcileRole(existing: KObject, expected: KObject): ReconcileResult {
  const object = structuredClone(existing) as KObject;
  let operation: ReconcileOperation = mergeMeta(object, existing, expected) ? 'update' : 'none';

  const { uncovered } = covers(rulesOf(existing), rulesOf(expected));
  if (uncovered.length > 0) {
    object['rules'] = [...rulesOf(existing), ...uncovered];
    operation = 'update';
  }

  const expectedSelectors = selectorsOf(expected);
  const existingSelectors = selectorsOf(existing);
  if (expectedSelectors === undefined && existingSelectors !== undefined) {
    // Not an aggregated role by default: kube removes the aggregation (it would keep overwriting rules).
    delete object['aggregationRule'];
    operation = 'update';
  } else if (expectedSelectors !== undefined) {
    const missing = expectedSelectors.filter((s) => !(existingSelectors ?? []).some((e) => deepEqual(e, s)));
    if (missing.length > 0) {
      object['aggregationRule'] = { clusterRoleSelectors: [...(existingSelectors ?? []), ...structuredClone(missing)] };
      operation = 'update';
    }
  }
  return { operation, protected: isProtected(existing), object, missingRules: uncovered };
}

const subjectKey = (s: Subject): string => JSON.stringify([s.kind, s.apiGroup ?? '', s.name, s.namespace ?? '']);

/** ClusterRoleBindings and RoleBindings. */
export function reconcileBinding(existing: KObject, expected: KObject): ReconcileResult {
  const prot = isProtected(existing);
  if (!deepEqual(existing['roleRef'], expected['roleRef'])) {
    return { operation: 'recreate', protected: prot, object: structuredClone(expected) as KObject };
  }
  const object = structuredClone(existing) as KObject;
  let operation: ReconcileOperation = mergeMeta(object, existing, expected) ? 'update' : 'none';
  const have = (existing['subjects'] as Subject[] | null | undefined) ?? [];
  const haveKeys = new Set(have.map(subjectKey));
  const missing = ((expected['subjects'] as Subject[] | undefined) ?? []).filter((s) => !haveKeys.has(subjectKey(s)));
  if (missing.length > 0) {
    object['subjects'] = [...have, ...structuredClone(missing)];
    operation = 'update';
  }
  return { operation, protected: prot, object, missingSubjects: missing };
}
