/**
 * DefaultTolerationSeconds (kube's plugin/pkg/admission/defaulttolerationseconds): a pod that does not already
 * tolerate `node.kubernetes.io/not-ready:NoExecute` (resp. `unreachable`) — an empty key or effect counts as a
 * match — gets an Exists toleration for it with tolerationSeconds from `--default-not-ready-toleration-seconds`
 * (resp. `--default-unreachable-toleration-seconds`), 300 by default. Pod create and update, no sub-resources.
 */
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { isPodRequest, list, specOf, str } from './support.ts';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

export function defaultTolerationSecondsPlugin(ctx: PluginContext): AdmissionPlugin {
  const notReadySeconds = ctx.options?.defaultNotReadyTolerationSeconds ?? 300;
  const unreachableSeconds = ctx.options?.defaultUnreachableTolerationSeconds ?? 300;
  return {
    name: 'DefaultTolerationSeconds',
    operations: operations('CREATE', 'UPDATE'),
    admit(a) {
      if (!isPodRequest(a)) return;
      const spec = specOf(a.object);
      const tolerations = list(spec['tolerations']);
      const tolerates = (key: string) => tolerations.some((t) => (str(t['key']) === key || !str(t['key'])) && (t['effect'] === 'NoExecute' || !str(t['effect'])));
      const add = [];
      if (!tolerates(TAINT_NOT_READY)) add.push({ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
      if (!tolerates(TAINT_UNREACHABLE)) add.push({ key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds });
      if (add.length) spec['tolerations'] = [...(Array.isArray(spec['tolerations']) ? spec['tolerations'] : []), ...add];
    },
  };
}

registerPlugin('DefaultTolerationSeconds', defaultTolerationSecondsPlugin);
