/**
 * TaintNodesByCondition (kube's plugin/pkg/admission/nodetaint): a Node is created with the
 * `node.kubernetes.io/not-ready:NoSchedule` taint (unless it already has one with that key and effect), so
 * nothing is scheduled onto it before its controller saw it ready.
 */
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin } from '../types.ts';
import { isObj, isResource, list, specOf } from './support.ts';
import { TAINT_NOT_READY } from './default-toleration-seconds.ts';

export function taintNodesByConditionPlugin(): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    operations: operations('CREATE'),
    admit(a) {
      if (!isResource(a, '', 'nodes') || a.subresource !== '' || !isObj(a.object)) return;
      const spec = specOf(a.object);
      const taints = list(spec['taints']);
      if (taints.some((t) => t['key'] === TAINT_NOT_READY && t['effect'] === 'NoSchedule')) return;
      spec['taints'] = [...(Array.isArray(spec['taints']) ? spec['taints'] : []), { key: TAINT_NOT_READY, effect: 'NoSchedule' }];
    },
  };
}

registerPlugin('TaintNodesByCondition', taintNodesByConditionPlugin);
