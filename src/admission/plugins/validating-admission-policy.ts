/**
 * ValidatingAdmissionPolicy (on by default): the policies and bindings of admissionregistration.k8s.io/v1, evaluated
 * in the validating phase (src/admission/policy/validating.ts). Admission configuration kinds are never subject to
 * policies (so a bad policy cannot lock itself in). The type-checking controller that publishes
 * `status.typeChecking` runs with the plugin (src/admission/policy/typechecking.ts).
 */
import { isExemptAdmissionConfiguration } from '../policy/matching.ts';
import { matchDeps, Namespaces, PolicySource } from '../policy/source.ts';
import { compileValidatingPolicy, dispatchValidating, type CompiledValidatingPolicy } from '../policy/validating.ts';
import { TypeCheckingController } from '../policy/typechecking.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../types.ts';

export function validatingAdmissionPolicy(ctx: PluginContext): AdmissionPlugin {
  const resources = ctx.resources ?? (() => []);
  const source = new PolicySource<CompiledValidatingPolicy>({ registry: ctx.registry, resources, log: ctx.log },
    { group: 'admissionregistration.k8s.io', version: 'v1', policies: 'validatingadmissionpolicies', bindings: 'validatingadmissionpolicybindings' },
    compileValidatingPolicy);
  const namespaces = new Namespaces(ctx.registry, ctx.log);
  const deps = { match: matchDeps(namespaces, source.mapper), namespaces, authorizer: ctx.authorizer };
  const typeChecking = new TypeCheckingController({ registry: ctx.registry, resources, log: ctx.log });
  return {
    name: 'ValidatingAdmissionPolicy',
    operations: operations('CREATE', 'UPDATE', 'DELETE', 'CONNECT'),
    async validate(a) {
      if (!source.served || isExemptAdmissionConfiguration(a)) return;
      const hooks = source.hooks();
      if (hooks.length === 0) return;
      await dispatchValidating(a, hooks, deps);
    },
    async ready() {
      if (!source.served) return;
      await Promise.all([source.start(), namespaces.informer?.start()]);
      typeChecking.start();
    },
    async stop() {
      source.stop();
      namespaces.informer?.stop();
      await typeChecking.stop();
    },
  };
}

registerPlugin('ValidatingAdmissionPolicy', validatingAdmissionPolicy);
