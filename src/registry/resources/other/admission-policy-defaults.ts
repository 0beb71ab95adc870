/**
 * kube's defaulting for the admission policy kinds (pkg/apis/admissionregistration/v1 and v1alpha1 defaults):
 * a policy's failurePolicy is Fail; every MatchResources block (a policy's matchConstraints, a binding's
 * matchResources) gets matchPolicy Equivalent and empty (match-all) namespace and object selectors; every rule
 * gets scope "*". Clients read these values back, as from kube-apiserver.
 */
import type { KObject } from '../../../machinery/objects.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);

function matchResourcesDefaults(mr: unknown): void {
  if (!isObj(mr)) return;
  mr['namespaceSelector'] ??= {};
  mr['objectSelector'] ??= {};
  mr['matchPolicy'] ??= 'Equivalent';
  for (const key of ['resourceRules', 'excludeResourceRules']) {
    const rules = mr[key];
    if (Array.isArray(rules)) for (const r of rules) if (isObj(r)) r['scope'] ??= '*';
  }
}

/** ValidatingAdmissionPolicy and MutatingAdmissionPolicy. */
export function admissionPolicyDefaults(o: KObject): void {
  const spec = o['spec'];
  if (!isObj(spec)) return;
  spec['failurePolicy'] ??= 'Fail';
  matchResourcesDefaults(spec['matchConstraints']);
}

/** ValidatingAdmissionPolicyBinding and MutatingAdmissionPolicyBinding. */
export function admissionPolicyBindingDefaults(o: KObject): void {
  const spec = o['spec'];
  if (isObj(spec)) matchResourcesDefaults(spec['matchResources']);
}
