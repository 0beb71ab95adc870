/**
 * PodTolerationRestriction (kube's plugin/pkg/admission/podtolerationrestriction, off by default):
 * - on create, the namespace's default tolerations (annotation `scheduler.alpha.kubernetes.io/defaultTolerations`,
 *   a JSON list; else the configuration's `default`) are merged into the pod's; pods that are not BestEffort also
 *   tolerate `node.kubernetes.io/memory-pressure:NoSchedule`;
 * - the pod's tolerations must then all fit the namespace's whitelist (annotation
 *   `scheduler.alpha.kubernetes.io/tolerationsWhitelist`; else the configuration's `whitelist`; empty: anything),
 *   or kube's plain error (a 500) is returned.
 * The configuration file is `podtolerationrestriction.admission.k8s.io/v1alpha1` Configuration.
 */
import { errors, OptionsError, StatusError } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import { podQOSClass } from '../../registry/resources/core/pods.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, list, lister, mergeTolerations, plainError, specOf, tolerationsAllowed, type Toleration } from './support.ts';

export const DEFAULT_TOLERATIONS_ANNOTATION = 'scheduler.alpha.kubernetes.io/defaultTolerations';
export const TOLERATIONS_WHITELIST_ANNOTATION = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const CONFIG_VERSION = 'podtolerationrestriction.admission.k8s.io/v1alpha1';

export interface PodTolerationRestrictionConfig {
  readonly default: Toleration[];
  readonly whitelist: Toleration[];
}

export function readPodTolerationRestrictionConfig(config: unknown): PodTolerationRestrictionConfig {
  if (config === undefined || config === null) return { default: [], whitelist: [] };
  const c = isObj(config) ? config : {};
  if (c['kind'] !== 'Configuration' || c['apiVersion'] !== CONFIG_VERSION) {
    throw new OptionsError(`couldn't init admission plugin "PodTolerationRestriction": no kind "${String(c['kind'] ?? '')}" is registered for version "${String(c['apiVersion'] ?? '')}"`);
  }
  return { default: list(c['default']) as Toleration[], whitelist: list(c['whitelist']) as Toleration[] };
}

/** extractNSTolerations: undefined when the annotation is absent, [] when empty, else its JSON. */
function namespaceTolerations(ns: KObject, key: string): Toleration[] | undefined {
  const value = ns.metadata.annotations?.[key];
  if (value === undefined) return undefined;
  if (value === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (e) {
    throw plainError((e as Error).message);
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed)) throw plainError(`json: cannot unmarshal ${typeof parsed} into Go value of type []v1.Toleration`);
  return parsed.map((t) => (isObj(t) ? t : {})) as Toleration[];
}

export function podTolerationRestrictionPlugin(ctx: PluginContext): AdmissionPlugin {
  const config = readPodTolerationRestrictionConfig(ctx.config);
  const namespaces = lister(ctx, '', 'v1', 'namespaces');
  const ignore = (a: AdmissionAttributes) => !isResource(a, '', 'pods') || a.subresource !== '' || !isObj(a.object);

  async function namespace(a: AdmissionAttributes): Promise<KObject> {
    let ns: KObject | undefined;
    try {
      ns = await namespaces.get('', a.namespace);
    } catch (e) {
      throw errors.internal(e instanceof StatusError ? e.message : String(e));
    }
    if (!ns) throw errors.notFound({ kind: 'namespaces', name: a.namespace });
    return ns;
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    if (ignore(a)) return;
    const tolerations = list(specOf(a.object)['tolerations']) as Toleration[];
    if (!tolerations.length) return;
    let whitelist = namespaceTolerations(await namespace(a), TOLERATIONS_WHITELIST_ANNOTATION);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = config.whitelist;
      scope = 'cluster';
    }
    if (whitelist.length && !tolerationsAllowed(tolerations, whitelist)) {
      throw plainError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
  }

  return {
    name: 'PodTolerationRestriction',
    operations: operations('CREATE', 'UPDATE'),
    async admit(a) {
      if (ignore(a)) return;
      const pod = a.object!;
      const spec = specOf(pod);
      let extra: Toleration[] = [];
      if (a.operation === 'CREATE') extra = [...(namespaceTolerations(await namespace(a), DEFAULT_TOLERATIONS_ANNOTATION) ?? config.default)];
      if (podQOSClass(pod) !== 'BestEffort') extra.push({ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' });
      if (extra.length) spec['tolerations'] = mergeTolerations(list(spec['tolerations']) as Toleration[], extra);
      return validate(a);
    },
    validate,
    ready: () => namespaces.ready(),
    stop: async () => namespaces.stop(),
  };
}

registerPlugin('PodTolerationRestriction', podTolerationRestrictionPlugin);
