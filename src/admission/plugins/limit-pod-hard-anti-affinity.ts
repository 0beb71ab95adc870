/**
 * LimitPodHardAntiAffinityTopology (kube's plugin/pkg/admission/antiaffinity, off by default): required pod
 * anti-affinity terms may only use the `kubernetes.io/hostname` topology key. Pod create and update.
 */
import { errors } from '../../machinery/errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin } from '../types.ts';
import { forbiddenResource, isObj, isResource, list, specOf, str } from './support.ts';

const HOSTNAME = 'kubernetes.io/hostname';

export function limitPodHardAntiAffinityTopologyPlugin(): AdmissionPlugin {
  return {
    name: 'LimitPodHardAntiAffinityTopology',
    operations: operations('CREATE', 'UPDATE'),
    validate(a) {
      if (a.subresource !== '' || !isResource(a, '', 'pods')) return;
      if (!isObj(a.object)) throw errors.badRequest('Resource was marked with kind Pod but was unable to be converted');
      const affinity = specOf(a.object)['affinity'];
      const anti = isObj(affinity) ? affinity['podAntiAffinity'] : undefined;
      if (!isObj(anti)) return;
      for (const term of list(anti['requiredDuringSchedulingIgnoredDuringExecution'])) {
        if (term['topologyKey'] !== HOSTNAME) {
          throw forbiddenResource(a, a.object.metadata.name, `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${str(term['topologyKey'])} but only key ${HOSTNAME} is allowed`);
        }
      }
    },
  };
}

registerPlugin('LimitPodHardAntiAffinityTopology', limitPodHardAntiAffinityTopologyPlugin);
