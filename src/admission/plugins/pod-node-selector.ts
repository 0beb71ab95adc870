/**
 * PodNodeSelector (kube's plugin/pkg/admission/podnodeselector, off by default): a pod created in a namespace
 * annotated `scheduler.alpha.kubernetes.io/node-selector: "k=v,…"` gets those labels added to its nodeSelector
 * (a pod selector that contradicts them is refused); namespaces without the annotation use the configuration's
 * `clusterDefaultNodeSelector`. The configuration file (`podNodeSelectorPluginConfig:` a map of namespace →
 * selector, plus clusterDefaultNodeSelector) also whitelists, per namespace, the labels a pod's selector may
 * use. Refusals and errors are kube's.
 */
import { errors, StatusError } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { forbiddenResource, isObj, isResource, labelsConflict, lister, plainError, selectorToLabels, specOf, type LabelSet } from './support.ts';

export const NODE_SELECTOR_ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';

/** The configuration's `podNodeSelectorPluginConfig` map (undecodable documents are skipped, as kube does). */
export function readPodNodeSelectorConfig(config: unknown): Record<string, string> {
  const c = isObj(config) ? config['podNodeSelectorPluginConfig'] : undefined;
  if (!isObj(c)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(c)) out[k] = typeof v === 'string' ? v : String(v ?? '');
  return out;
}

export function podNodeSelectorPlugin(ctx: PluginContext): AdmissionPlugin {
  const selectors = readPodNodeSelectorConfig(ctx.config);
  const namespaces = lister(ctx, '', 'v1', 'namespaces');
  const ignore = (a: AdmissionAttributes) => !isResource(a, '', 'pods') || a.subresource !== '' || !isObj(a.object);

  function namespaceSelector(ns: KObject): LabelSet {
    const value = ns.metadata.annotations?.[NODE_SELECTOR_ANNOTATION];
    try {
      return selectorToLabels(value !== undefined ? value : selectors['clusterDefaultNodeSelector'] ?? '');
    } catch (e) {
      throw plainError((e as Error).message);
    }
  }

  async function selectorFor(a: AdmissionAttributes): Promise<LabelSet> {
    let ns: KObject | undefined;
    try {
      ns = await namespaces.get('', a.namespace);
    } catch (e) {
      throw e instanceof StatusError ? errors.internal(e.message) : errors.internal(String(e));
    }
    if (!ns) throw errors.notFound({ kind: 'namespaces', name: a.namespace });
    return namespaceSelector(ns);
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    if (ignore(a)) return;
    const pod = a.object!;
    const podSelector = (isObj(specOf(pod)['nodeSelector']) ? specOf(pod)['nodeSelector'] : {}) as LabelSet;
    if (labelsConflict(await selectorFor(a), podSelector)) {
      throw forbiddenResource(a, pod.metadata.name, 'pod node label selector conflicts with its namespace node label selector');
    }
    let whitelist: LabelSet;
    try {
      whitelist = selectorToLabels(selectors[a.namespace] ?? '');
    } catch (e) {
      throw plainError((e as Error).message);
    }
    if (!Object.keys(whitelist).length) return;
    if (Object.entries(podSelector).some(([k, v]) => whitelist[k] !== v)) {
      throw forbiddenResource(a, pod.metadata.name, 'pod node label selector labels conflict with its namespace whitelist');
    }
  }

  return {
    name: 'PodNodeSelector',
    operations: operations('CREATE'),
    async admit(a) {
      if (ignore(a)) return;
      const pod = a.object!;
      const spec = specOf(pod);
      const podSelector = (isObj(spec['nodeSelector']) ? spec['nodeSelector'] : {}) as LabelSet;
      const nsSelector = await selectorFor(a);
      if (labelsConflict(nsSelector, podSelector)) {
        throw forbiddenResource(a, pod.metadata.name, 'pod node label selector conflicts with its namespace node label selector');
      }
      const merged = { ...nsSelector, ...podSelector };
      if (Object.keys(merged).length) spec['nodeSelector'] = merged;
      return validate(a);
    },
    validate,
    ready: () => namespaces.ready(),
    stop: async () => namespaces.stop(),
  };
}

registerPlugin('PodNodeSelector', podNodeSelectorPlugin);
