/**
 * MutatingAdmissionPolicy (kube v1.33: alpha, behind the MutatingAdmissionPolicy feature gate; the
 * admissionregistration.k8s.io/v1alpha1 kinds are served when --runtime-config turns them on). With the gate off the
 * plugin does nothing, as kube's. Mutations run in the mutating phase (src/admission/policy/mutating.ts).
 */
import { isExemptAdmissionConfiguration } from '../policy/matching.ts';
import { compileMutatingPolicy, dispatchMutating, type CompiledMutatingPolicy } from '../policy/mutating.ts';
import { matchDeps, Namespaces, PolicySource } from '../policy/source.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../types.ts';

export function mutatingAdmissionPolicy(ctx: PluginContext): AdmissionPlugin {
  const off: AdmissionPlugin = { name: 'MutatingAdmissionPolicy', operations: operations() };
  if (!ctx.featureEnabled('MutatingAdmissionPolicy')) return off;
  const resources = ctx.resources ?? (() => []);
  const source = new PolicySource<CompiledMutatingPolicy>({ registry: ctx.registry, resources, log: ctx.log },
    { group: 'admissionregistration.k8s.io', version: 'v1alpha1', policies: 'mutatingadmissionpolicies', bindings: 'mutatingadmissionpolicybindings' },
    compileMutatingPolicy);
  if (!source.served) return off;
  const namespaces = new Namespaces(ctx.registry, ctx.log);
  const deps = { match: matchDeps(namespaces, source.mapper), namespaces, authorizer: ctx.authorizer };
  return {
    name: 'MutatingAdmissionPolicy',
    operations: operations('CREATE', 'UPDATE', 'DELETE', 'CONNECT'),
    async admit(a) {
      if (isExemptAdmissionConfiguration(a)) return;
      const hooks = source.hooks();
      if (hooks.length === 0) return;
      await dispatchMutating(a, hooks, deps);
    },
    async ready() {
      await Promise.all([source.start(), namespaces.informer?.start()]);
    },
    async stop() {
      source.stop();
      namespaces.informer?.stop();
    },
  };
}

registerPlugin('MutatingAdmissionPolicy', mutatingAdmissionPolicy);
