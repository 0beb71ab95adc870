/**
 * ExtendedResourceToleration (kube's plugin/pkg/admission/extendedresourcetoleration, off by default): a pod
 * requesting an extended resource (`example.com/gpu`: a domain-qualified name outside kubernetes.io) in a
 * container or init container tolerates the `<resource>:NoSchedule` taint (operator Exists), so nodes tainted
 * for that resource can take it. Pod create and update.
 */
import { errors } from '../../machinery/errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin } from '../types.ts';
import { isObj, isResource, list, specOf, str } from './support.ts';

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** helper.IsExtendedResourceName: not native, not `requests.`-prefixed, and a qualified name once prefixed. */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.includes('kubernetes.io/')) return false;
  if (name.startsWith('requests.')) return false;
  const quota = `requests.${name}`;
  const slash = quota.indexOf('/');
  const prefix = quota.slice(0, slash);
  const local = quota.slice(slash + 1);
  if (quota.indexOf('/', slash + 1) >= 0) return false;
  if (!prefix || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) return false;
  return local.length > 0 && local.length <= 63 && QUALIFIED_NAME.test(local);
}

export function extendedResourceTolerationPlugin(): AdmissionPlugin {
  return {
    name: 'ExtendedResourceToleration',
    operations: operations('CREATE', 'UPDATE'),
    admit(a) {
      if (a.subresource !== '' || !isResource(a, '', 'pods')) return;
      if (!isObj(a.object)) throw errors.badRequest('expected *core.Pod but got <nil>');
      const spec = specOf(a.object);
      const names = new Set<string>();
      for (const c of [...list(spec['containers']), ...list(spec['initContainers'])]) {
        const requests = isObj(c['resources']) && isObj(c['resources']['requests']) ? c['resources']['requests'] : {};
        for (const r of Object.keys(requests)) if (isExtendedResourceName(r)) names.add(r);
      }
      for (const key of [...names].sort()) {
        const want = { key, operator: 'Exists', effect: 'NoSchedule' };
        const tolerations = list(spec['tolerations']);
        const match = (t: Record<string, unknown>) => str(t['key']) === key && str(t['effect']) === 'NoSchedule' && str(t['operator']) === 'Exists' && str(t['value']) === '';
        if (tolerations.some((t) => match(t) && t['tolerationSeconds'] === undefined)) continue;
        // AddOrUpdateTolerationInPod: a matching toleration is replaced, else the new one appended.
        let updated = false;
        const next = tolerations.map((t) => (match(t) ? (updated = true, want) : t));
        if (!updated) next.push(want);
        spec['tolerations'] = next;
      }
    },
  };
}

registerPlugin('ExtendedResourceToleration', extendedResourceTolerationPlugin);
