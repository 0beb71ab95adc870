/**
 * HorizontalPodAutoscalers (kube's registry/autoscaling/horizontalpodautoscaler/strategy.go and
 * apis/autoscaling/v{1,2}/defaults.go). One strategy serves both versions; objects arrive in the version of
 * the request:
 *   - no metadata.generation (kube v1.33 sets none on HPAs);
 *   - autoscaling/v2 defaults: minReplicas 1, an 80% CPU utilization metric when there is none, and a given
 *     behavior filled in per direction (scale up: no stabilization window, policies 4 Pods and 100 Percent
 *     per 15 s, selectPolicy Max; scale down: policy 100 Percent per 15 s, selectPolicy Max, the window left
 *     to the controller's flag);
 *   - autoscaling/v1 defaults: minReplicas 1. What v1 cannot say goes through the v2 storage form: kube
 *     answers a v1 write with the object read back from storage, so after validation a v1 object is
 *     converted to v2, defaulted as a v2 read is, and converted back (its annotations then show the stored
 *     behavior and metrics in kube's exact form);
 *   - spec.behavior.*.tolerance is dropped unless the stored object already uses it (HPAConfigurableTolerance
 *     is alpha, off by default in v1.33);
 *   - a v1 write cannot change status: the status kube keeps from the stored object includes what v1 carries in
 *     the current-metrics and conditions annotations, so those come from the stored object too.
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { hpaV1Converter } from '../../../api/resources/conversion.ts';
import { HPA_CONDITIONS_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION } from '../../../api/resources/hpa-conversion.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const V1 = 'autoscaling/v1';

const SCALE_UP_DEFAULT = (): J => ({
  stabilizationWindowSeconds: 0, selectPolicy: 'Max',
  policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }],
});
const SCALE_DOWN_DEFAULT = (): J => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

/** copyHPAScalingRules: the defaults with every field the caller set (non-nil) laid over them. */
function scalingRules(given: unknown, defaults: J): J {
  if (!isObj(given)) return defaults;
  for (const k of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) {
    if (given[k] !== undefined && given[k] !== null) defaults[k] = given[k];
  }
  return defaults;
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
export function hpaV2Defaults(hpa: J): void {
  const spec = isObj(hpa['spec']) ? hpa['spec'] : undefined;
  if (!spec) return;
  if (spec['minReplicas'] === undefined || spec['minReplicas'] === null) spec['minReplicas'] = 1;
  if (!Array.isArray(spec['metrics']) || spec['metrics'].length === 0) {
    spec['metrics'] = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (isObj(spec['behavior'])) {
    const b = spec['behavior'];
    b['scaleUp'] = scalingRules(b['scaleUp'], SCALE_UP_DEFAULT());
    b['scaleDown'] = scalingRules(b['scaleDown'], SCALE_DOWN_DEFAULT());
  }
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v1). */
export function hpaV1Defaults(hpa: J): void {
  const spec = isObj(hpa['spec']) ? hpa['spec'] : undefined;
  if (spec && (spec['minReplicas'] === undefined || spec['minReplicas'] === null)) spec['minReplicas'] = 1;
}

export function hpaDefaults(hpa: J): void {
  if (hpa['apiVersion'] === V1) hpaV1Defaults(hpa);
  else hpaV2Defaults(hpa);
}

function usesTolerance(spec: unknown): boolean {
  const b = isObj(spec) && isObj(spec['behavior']) ? spec['behavior'] : undefined;
  return !!b && [b['scaleUp'], b['scaleDown']].some((r) => isObj(r) && r['tolerance'] !== undefined && r['tolerance'] !== null);
}

/** dropDisabledFields for HPAConfigurableTolerance (off): v2 objects carry the field, v1 ones in the behavior annotation. */
function dropTolerance(obj: KObject, old: KObject | undefined): void {
  if (old && usesTolerance(storageForm(old)['spec'])) return;
  if (obj.apiVersion === V1) {
    const v2 = hpaV1Converter.toStorage(obj);
    if (!usesTolerance(v2['spec'])) return;
    stripTolerance(v2['spec']);
    replaceWith(obj, hpaV1Converter.fromStorage(v2));
    return;
  }
  stripTolerance(obj['spec']);
}

function stripTolerance(spec: unknown): void {
  const b = isObj(spec) && isObj(spec['behavior']) ? spec['behavior'] : undefined;
  if (!b) return;
  for (const r of [b['scaleUp'], b['scaleDown']]) if (isObj(r)) delete r['tolerance'];
}

function storageForm(o: KObject): KObject {
  return o.apiVersion === V1 ? hpaV1Converter.toStorage(o) : o;
}

function replaceWith(obj: KObject, next: KObject): void {
  for (const k of Object.keys(obj)) delete obj[k];
  Object.assign(obj, next);
}

/** A v1 object as kube's read of the stored v2 object shows it. */
function v1AsStored(obj: KObject): void {
  const v2 = hpaV1Converter.toStorage(obj);
  hpaV2Defaults(v2);
  replaceWith(obj, hpaV1Converter.fromStorage(v2));
}

function keepAnnotation(obj: KObject, old: KObject, key: string): void {
  const v = old.metadata.annotations?.[key];
  const next = { ...(obj.metadata.annotations ?? {}) };
  if (v === undefined) delete next[key];
  else next[key] = v;
  if (Object.keys(next).length) obj.metadata.annotations = next;
  else delete obj.metadata.annotations;
}

const base = statusStrategy({
  status: true,
  allowCreateOnUpdate: true,
  onCreate: (obj) => dropTolerance(obj, undefined),
  onUpdate: (obj, old) => {
    if (obj.apiVersion === V1) for (const k of [HPA_CURRENT_METRICS_ANNOTATION, HPA_CONDITIONS_ANNOTATION]) keepAnnotation(obj, old, k);
    dropTolerance(obj, old);
  },
}, { defaults: hpaDefaults });

export const hpaStrategy: RegistryStrategy = {
  ...base,
  prepareForUpdate(obj, old, ctx) {
    // A v1 status write says the status partly in annotations: those of the request count, not the stored ones.
    const carried = (ctx.subresource ?? '') === 'status' && obj.apiVersion === V1
      ? [HPA_CURRENT_METRICS_ANNOTATION, HPA_CONDITIONS_ANNOTATION].map((k) => [k, obj.metadata?.annotations?.[k]] as const)
      : [];
    base.prepareForUpdate?.(obj, old, ctx);
    for (const [k, v] of carried) {
      const next = { ...(obj.metadata.annotations ?? {}) };
      if (v === undefined) delete next[k];
      else next[k] = v;
      if (Object.keys(next).length) obj.metadata.annotations = next;
      else delete obj.metadata.annotations;
    }
  },
  canonicalize(obj) {
    if (obj.apiVersion === V1) v1AsStored(obj);
  },
};
