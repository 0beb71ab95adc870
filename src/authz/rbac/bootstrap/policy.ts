/**
 * The bootstrap policy as API objects: every default ClusterRole, ClusterRoleBinding, Role and RoleBinding of
 * kube-apiserver v1.33, labelled `kubernetes.io/bootstrapping: rbac-defaults` and annotated
 * `rbac.authorization.kubernetes.io/autoupdate: "true"` (what reconciliation checks before touching them).
 */
import type { KObject } from '../../../machinery/objects.ts';
import { clusterRoleBindingSpecs, namespaceRoleBindingSpecs, namespaceRoleSpecs, serviceAccount, clusterBinding, type BindingSpec, type RoleSpec } from './bindings.ts';
import { clusterRoleSpecs, type ClusterRoleSpec } from './cluster-roles.ts';
import { CONTROLLER_ROLE_PREFIX, controllerRoleSpecs, v133DefaultGates, type GateCheck } from './controller-roles.ts';

export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
export const BOOTSTRAPPING_VALUE = 'rbac-defaults';
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
export const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';

export interface BootstrapPolicy {
  clusterRoles: KObject[];
  clusterRoleBindings: KObject[];
  roles: KObject[];
  roleBindings: KObject[];
}

function meta(name: string, namespace?: string, labels?: Record<string, string>): KObject['metadata'] {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    // Sorted keys, as Go encodes maps.
    labels: Object.fromEntries(Object.entries({ ...labels, [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE }).sort(([a], [b]) => (a < b ? -1 : 1))),
    annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
  };
}

function clusterRole(spec: ClusterRoleSpec): KObject {
  // Go's field order: rules, then aggregationRule.
  const obj: KObject = { apiVersion: RBAC_API_VERSION, kind: 'ClusterRole', metadata: meta(spec.name, undefined, spec.labels), rules: spec.rules.map((r) => structuredClone(r)) };
  if (spec.aggregateFrom) obj['aggregationRule'] = { clusterRoleSelectors: spec.aggregateFrom.map((matchLabels) => ({ matchLabels: { ...matchLabels } })) };
  return obj;
}

function role(spec: RoleSpec): KObject {
  return { apiVersion: RBAC_API_VERSION, kind: 'Role', metadata: meta(spec.name, spec.namespace), rules: spec.rules.map((r) => structuredClone(r)) };
}

function binding(kind: 'ClusterRoleBinding' | 'RoleBinding', spec: BindingSpec): KObject {
  const obj: KObject = { apiVersion: RBAC_API_VERSION, kind, metadata: meta(spec.name, spec.namespace), roleRef: { ...spec.roleRef } };
  if (spec.subjects) obj['subjects'] = spec.subjects.map((s) => ({ ...s }));
  return obj;
}

/**
 * Fresh objects on every call (callers may change them). `gate` decides the feature-gated controller roles
 * (e.g. `(g) => featureGates.enabled(g)`); the default is v1.33's default gates.
 */
export function bootstrapPolicy(opts: { gate?: GateCheck } = {}): BootstrapPolicy {
  // A gate registry that does not know a gate (it throws, as kube's does) leaves that gate at its v1.33 default.
  const given = opts.gate;
  const gate: GateCheck = given ? (g) => {
    try {
      return given(g);
    } catch {
      return v133DefaultGates(g);
    }
  } : v133DefaultGates;
  const controllers = controllerRoleSpecs(gate);
  const controllerRoles = controllers.map((c): ClusterRoleSpec => ({ name: CONTROLLER_ROLE_PREFIX + c.controller, rules: c.rules }));
  const controllerBindings = controllers.map((c) => clusterBinding(CONTROLLER_ROLE_PREFIX + c.controller, serviceAccount('kube-system', c.controller)));
  return {
    clusterRoles: [...clusterRoleSpecs(), ...controllerRoles].map(clusterRole),
    clusterRoleBindings: [...clusterRoleBindingSpecs(), ...controllerBindings].map((b) => binding('ClusterRoleBinding', b)),
    roles: namespaceRoleSpecs().map(role),
    roleBindings: namespaceRoleBindingSpecs().map((b) => binding('RoleBinding', b)),
  };
}
