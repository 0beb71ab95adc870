/**
 * node.k8s.io/v1 RuntimeClass (pkg/apis/node/validation/validation.go: ValidateRuntimeClass,
 * ValidateRuntimeClassUpdate, validateOverhead, validateScheduling, validateTolerations): the handler is a DNS
 * label and immutable, overhead is a resource list, scheduling tolerations are valid and unique.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Label } from '../../machinery/validation/names.ts';
import { validateResources } from './core-resources.ts';
import { validateTolerations } from './core-pod.ts';
import { goQuote } from './go-render.ts';
import { type J, RenderedFieldError, arr, immutable, isSet, obj, str, validateLabels } from './util.ts';

/** `%#v` of a core.Toleration. */
function goToleration(t: J): string {
  const secs = isSet(t['tolerationSeconds']) ? '(*int64)(0xc000000000)' : '(*int64)(nil)';
  return `core.Toleration{Key:${goQuote(str(t['key']))}, Operator:${goQuote(str(t['operator']))}, Value:${goQuote(str(t['value']))}, Effect:${goQuote(str(t['effect']))}, TolerationSeconds:${secs}}`;
}

export function validateRuntimeClass(rc: J): FieldError[] {
  const handler = str(rc['handler']);
  const errs = isDNS1123Label(handler).map((m) => field.invalid('handler', handler, m));
  if (isSet(rc['overhead'])) errs.push(...validateResources({ limits: obj(rc['overhead'])['podFixed'] }, 'overhead'));
  if (isSet(rc['scheduling'])) {
    const s = obj(rc['scheduling']);
    if (isSet(s['nodeSelector'])) errs.push(...validateLabels(s['nodeSelector'], 'scheduling.nodeSelector'));
    const tols = arr(s['tolerations']);
    errs.push(...validateTolerations(tols, 'scheduling.tolerations'));
    const seen = new Set<string>();
    tols.forEach((raw, i) => {
      const t = obj(raw);
      const key = JSON.stringify([str(t['key']), str(t['operator']), str(t['value']), str(t['effect'])]);
      if (seen.has(key)) errs.push(new RenderedFieldError('FieldValueDuplicate', `scheduling.tolerations[${i}]`, goToleration(t), ''));
      seen.add(key);
    });
  }
  return errs;
}

/** The strategy re-runs the create rules, then the handler must be unchanged. */
export function validateRuntimeClassUpdate(rc: J, old: J): FieldError[] {
  return [...validateRuntimeClass(rc), ...immutable(rc['handler'], old['handler'], 'handler')];
}
