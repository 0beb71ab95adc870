/**
 * Priority (kube's plugin/pkg/admission/priority):
 * - pod create: `priorityClassName` resolves to `priority` and `preemptionPolicy` from that PriorityClass (403
 *   `no PriorityClass with name x was found` when there is none); a pod naming none gets the global default
 *   class (its name too) or priority 0 with PreemptLowerPriority; a priority or preemption policy the client set
 *   that differs from the computed one is refused with kube's words;
 * - pod update: the stored priority and preemption policy are kept when the new object leaves them out;
 * - PriorityClass create/update (validating): only one class may be the global default.
 * Several defaults (a race) resolve to the one with the lowest value. Sub-resources are not looked at.
 */
import type { KObject } from '../../machinery/objects.ts';
import { errors } from '../../machinery/errors.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isObj, isResource, lister, plainError, specOf, str } from './support.ts';

export function priorityPlugin(ctx: PluginContext): AdmissionPlugin {
  const classes = lister(ctx, 'scheduling.k8s.io', 'v1', 'priorityclasses');

  function defaultClass(): KObject | undefined {
    let found: KObject | undefined;
    for (const pc of classes.list()) {
      if (pc['globalDefault'] !== true) continue;
      if (!found || (found['value'] as number) > (pc['value'] as number)) found = pc;
    }
    return found;
  }

  async function admitPod(a: AdmissionAttributes): Promise<void> {
    if (!isObj(a.object)) throw errors.badRequest('resource was marked with kind Pod but was unable to be converted');
    const spec = specOf(a.object);
    if (a.operation === 'UPDATE') {
      const old = a.oldObject ? specOf(a.oldObject) : {};
      if (spec['priority'] === undefined && old['priority'] !== undefined) spec['priority'] = old['priority'];
      if (spec['preemptionPolicy'] === undefined && old['preemptionPolicy'] !== undefined) spec['preemptionPolicy'] = old['preemptionPolicy'];
      return;
    }
    let priority: number;
    let policy: string | undefined;
    const className = str(spec['priorityClassName']);
    if (!className) {
      const dpc = defaultClass();
      if (dpc) {
        spec['priorityClassName'] = dpc.metadata.name;
        priority = dpc['value'] as number;
        policy = typeof dpc['preemptionPolicy'] === 'string' ? dpc['preemptionPolicy'] : undefined;
      } else {
        priority = 0;
        policy = 'PreemptLowerPriority';
      }
    } else {
      let pc: KObject | undefined;
      try {
        pc = await classes.get('', className);
      } catch (e) {
        throw plainError(`failed to get PriorityClass with name ${className}: ${(e as Error).message}`);
      }
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
      priority = pc['value'] as number;
      policy = typeof pc['preemptionPolicy'] === 'string' ? pc['preemptionPolicy'] : undefined;
    }
    if (typeof spec['priority'] === 'number' && spec['priority'] !== priority) {
      throw admissionForbidden(a, `the integer value of priority (${spec['priority']}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
    }
    spec['priority'] = priority;
    if (policy !== undefined) {
      if (typeof spec['preemptionPolicy'] === 'string' && spec['preemptionPolicy'] !== policy) {
        throw admissionForbidden(a, `the string value of PreemptionPolicy (${spec['preemptionPolicy']}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
      }
      spec['preemptionPolicy'] = policy;
    }
  }

  return {
    name: 'Priority',
    operations: operations('CREATE', 'UPDATE', 'DELETE'),
    async admit(a) {
      if (a.subresource !== '' || !isResource(a, '', 'pods')) return;
      if (a.operation === 'CREATE' || a.operation === 'UPDATE') await admitPod(a);
    },
    validate(a) {
      if (a.subresource !== '' || !isResource(a, 'scheduling.k8s.io', 'priorityclasses')) return;
      if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
      if (!isObj(a.object)) throw errors.badRequest('resource was marked with kind PriorityClass but was unable to be converted');
      if (a.object['globalDefault'] !== true) return;
      const dpc = defaultClass();
      if (!dpc) return;
      if (a.operation === 'CREATE' || dpc.metadata.name !== a.object.metadata.name) {
        throw admissionForbidden(a, `PriorityClass ${dpc.metadata.name ?? ''} is already marked as default. Only one default can exist`);
      }
    },
    ready: () => classes.ready(),
    stop: async () => classes.stop(),
  };
}

registerPlugin('Priority', priorityPlugin);
