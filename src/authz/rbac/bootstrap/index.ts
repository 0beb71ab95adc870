/**
 * kube-apiserver v1.33's RBAC bootstrap policy (default roles and bindings) and its reconciliation at start.
 * `ensureBootstrapPolicy({ registry })` is what the server runs before it reports ready.
 */
export { bootstrapPolicy, type BootstrapPolicy, BOOTSTRAPPING_LABEL, BOOTSTRAPPING_VALUE, AUTOUPDATE_ANNOTATION } from './policy.ts';
export { ensureBootstrapPolicy, type EnsureBootstrapOptions, type EnsureReport } from './ensure.ts';
export { reconcileRole, reconcileBinding, type ReconcileResult } from './reconcile.ts';
export { covers, breakdownRule, ruleCovers } from './covers.ts';
export { rule, type PolicyRule } from './rule.ts';
export { AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW } from './cluster-roles.ts';
export { v133DefaultGates, type GateCheck } from './controller-roles.ts';
