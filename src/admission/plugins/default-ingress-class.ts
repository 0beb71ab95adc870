/**
 * DefaultIngressClass (kube's plugin/pkg/admission/network/defaultingressclass): an Ingress created with neither
 * `spec.ingressClassName` nor the `kubernetes.io/ingress.class` annotation gets the default IngressClass (the
 * one annotated `ingressclass.kubernetes.io/is-default-class: "true"`; with several, the newest, then the first
 * by name).
 */
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, lister, newestDefault, specOf } from './support.ts';

export function defaultIngressClassPlugin(ctx: PluginContext): AdmissionPlugin {
  const classes = lister(ctx, 'networking.k8s.io', 'v1', 'ingressclasses');
  return {
    name: 'DefaultIngressClass',
    operations: operations('CREATE'),
    admit(a) {
      if (!isResource(a, 'networking.k8s.io', 'ingresses') || a.subresource !== '' || !isObj(a.object)) return;
      const spec = specOf(a.object);
      if (spec['ingressClassName'] !== undefined && spec['ingressClassName'] !== null) return;
      if (a.object.metadata.annotations?.['kubernetes.io/ingress.class'] !== undefined) return;
      const def = newestDefault(classes.list(), (c) => c.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true');
      if (def) spec['ingressClassName'] = def.metadata.name;
    },
    ready: () => classes.ready(),
    stop: async () => classes.stop(),
  };
}

registerPlugin('DefaultIngressClass', defaultIngressClassPlugin);
