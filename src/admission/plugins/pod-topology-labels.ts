/**
 * PodTopologyLabels (kube's plugin/pkg/admission/podtopologylabels, KEP-4742): on by default but inert unless
 * the PodTopologyLabelsAdmission gate (alpha, off in v1.33) is on. Then the node's `topology.k8s.io/zone` and
 * `topology.k8s.io/region` labels (v1.33's keys) are added to a `pods/binding` Binding's labels (the binding REST
 * copies them onto the pod under the same gate) and to a pod created already bound to a node; labels the pod or
 * binding already has are kept. A node that does not exist adds nothing.
 */
import { errors } from '../../machinery/errors.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, lister, specOf, str, type Lister } from './support.ts';

export const TOPOLOGY_LABELS = ['topology.k8s.io/zone', 'topology.k8s.io/region'];

export function podTopologyLabelsPlugin(ctx: PluginContext): AdmissionPlugin {
  const enabled = ctx.featureEnabled('PodTopologyLabelsAdmission');
  const nodes: Lister | undefined = enabled ? lister(ctx, '', 'v1', 'nodes') : undefined;

  async function labelsOf(nodeName: string): Promise<Record<string, string>> {
    const node = await nodes!.get('', nodeName);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(node?.metadata.labels ?? {})) if (TOPOLOGY_LABELS.includes(k)) out[k] = v;
    return out;
  }

  return {
    name: 'PodTopologyLabels',
    operations: operations('CREATE'),
    async admit(a) {
      if (!enabled || !isResource(a, '', 'pods')) return;
      if (a.subresource !== '' && a.subresource !== 'binding') return;
      const obj = a.object;
      if (!isObj(obj)) throw errors.internal(`expected ${a.subresource ? 'Binding' : 'Pod'}`);
      let nodeName: string;
      if (a.subresource === 'binding') {
        const target = isObj(obj['target']) ? obj['target'] : {};
        if (target['kind'] !== 'Node') return;
        nodeName = str(target['name']);
      } else {
        nodeName = str(specOf(obj)['nodeName']);
        if (!nodeName) return;
      }
      let add: Record<string, string>;
      try {
        add = await labelsOf(nodeName);
      } catch (e) {
        throw admissionForbidden(a, (e as Error).message);
      }
      if (!Object.keys(add).length) return;
      const labels = { ...(obj.metadata.labels ?? {}) };
      for (const [k, v] of Object.entries(add)) if (!(k in labels)) labels[k] = v;
      obj.metadata.labels = labels;
    },
    ready: async () => nodes?.ready(),
    stop: async () => nodes?.stop(),
  };
}

registerPlugin('PodTopologyLabels', podTopologyLabelsPlugin);
