/**
 * RuntimeClass (kube's plugin/pkg/admission/runtimeclass), on pod creation:
 * - a pod naming a RuntimeClass that does not exist is refused (403 `pod rejected: RuntimeClass "x" not found`);
 * - the class's `overhead.podFixed` becomes the pod's `overhead` (a different overhead the client set is refused);
 * - the class's `scheduling.nodeSelector` is merged into the pod's (a conflicting value is refused) and its
 *   tolerations merged into the pod's;
 * - validating: the pod's overhead must be the class's, and a pod without such a class may have none.
 */
import { errors } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import { compareQuantity, tryParseQuantity } from '../../machinery/quantity.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, lister, list, mergeTolerations, specOf, type J, type Toleration } from './support.ts';

/** apiequality.Semantic.DeepEqual of two ResourceLists (quantities compare by value; nil and empty differ). */
export function sameResourceList(a: unknown, b: unknown): boolean {
  if (!isObj(a) || !isObj(b)) return !isObj(a) && !isObj(b);
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!(k in b)) return false;
    const qa = tryParseQuantity(a[k]);
    const qb = tryParseQuantity(b[k]);
    if (typeof qa === 'string' || typeof qb === 'string') {
      if (String(a[k]) !== String(b[k])) return false;
    } else if (compareQuantity(qa, qb) !== 0) return false;
  }
  return true;
}

export function runtimeClassPlugin(ctx: PluginContext): AdmissionPlugin {
  const classes = lister(ctx, 'node.k8s.io', 'v1', 'runtimeclasses');
  const ignore = (a: AdmissionAttributes) => !isResource(a, '', 'pods') || a.subresource !== '';

  async function prepare(a: AdmissionAttributes): Promise<{ spec: J; rc: KObject | undefined }> {
    if (!isObj(a.object)) throw errors.badRequest('Resource was marked with kind Pod but was unable to be converted');
    const spec = specOf(a.object);
    if (typeof spec['runtimeClassName'] !== 'string') return { spec, rc: undefined };
    const name = spec['runtimeClassName'];
    const rc = await classes.get('', name);
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return { spec, rc };
  }

  return {
    name: 'RuntimeClass',
    operations: operations('CREATE'),
    async admit(a) {
      if (ignore(a)) return;
      const { spec, rc } = await prepare(a);
      if (!rc) return;
      const overhead = isObj(rc['overhead']) ? rc['overhead'] : undefined;
      if (overhead && overhead['podFixed'] !== undefined) {
        const fixed = overhead['podFixed'];
        if (isObj(spec['overhead']) && Object.keys(spec['overhead']).length > 0 && !sameResourceList(fixed, spec['overhead'])) {
          throw admissionForbidden(a, 'pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
        }
        spec['overhead'] = structuredClone(fixed);
      }
      const scheduling = isObj(rc['scheduling']) ? rc['scheduling'] : undefined;
      if (!scheduling) return;
      const rcSelector = isObj(scheduling['nodeSelector']) ? scheduling['nodeSelector'] as Record<string, string> : {};
      let selector: Record<string, string> | undefined = isObj(spec['nodeSelector']) ? { ...(spec['nodeSelector'] as Record<string, string>) } : undefined;
      if (!selector) {
        selector = isObj(scheduling['nodeSelector']) ? { ...rcSelector } : undefined;
      } else {
        for (const [k, v] of Object.entries(rcSelector)) {
          if (k in selector && selector[k] !== v) {
            throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${selector[k]}`);
          }
          selector[k] = v;
        }
      }
      if (selector && Object.keys(selector).length) spec['nodeSelector'] = selector;
      const merged = mergeTolerations(list(spec['tolerations']) as Toleration[], list(scheduling['tolerations']) as Toleration[]);
      if (merged.length) spec['tolerations'] = merged;
      else delete spec['tolerations'];
    },
    async validate(a) {
      if (ignore(a)) return;
      const { spec, rc } = await prepare(a);
      const overhead = rc && isObj(rc['overhead']) ? rc['overhead'] : undefined;
      if (overhead && overhead['podFixed'] !== undefined) {
        if (!sameResourceList(overhead['podFixed'], spec['overhead'])) {
          throw admissionForbidden(a, 'pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
        }
      } else if (spec['overhead'] !== undefined && spec['overhead'] !== null) {
        throw admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
      }
    },
    ready: () => classes.ready(),
    stop: async () => classes.stop(),
  };
}

registerPlugin('RuntimeClass', runtimeClassPlugin);
