/**
 * apps/v1 strategies (k8s.io/kubernetes/pkg/registry/apps/<kind>/strategy.go): status owned by /status,
 * generation 1 on create and +1 on a spec change, plus each kind's own rules:
 *   - Deployment: an annotation change bumps generation too (annotations are copied to the ReplicaSets, and
 *     rollbacks are requested through them);
 *   - DaemonSet: `deprecated.daemonset.template.generation` (the v1 face of the internal
 *     spec.templateGeneration): 1 on create unless the caller gave a positive value, kept on update, +1 when
 *     the pod template changes;
 *   - every pod template goes through kube's PodSpec conversion (serviceAccount alias).
 */
import type { KObject } from '../../../machinery/objects.ts';
import { errors } from '../../../machinery/errors.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { jsonEqual } from '../../object-utils.ts';
import { statusStrategy, type StatusStrategyOptions } from '../strategy-kit.ts';
import { podTemplateConversion, podTemplateDefaults } from '../core/defaults.ts';
import { daemonSetDefaults, deploymentDefaults, replicaSetDefaults, statefulSetDefaults } from './defaults.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const templateOf = (o: KObject): unknown => (isObj(o['spec']) ? o['spec']['template'] : undefined);

/** Semantic equality of string maps: nil and empty are the same (apiequality.Semantic). */
function sameStringMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  return jsonEqual(a ?? {}, b ?? {});
}

function workload(defaults: (o: J) => void, extra: Pick<StatusStrategyOptions, 'onCreate' | 'onUpdate'> = {}): RegistryStrategy {
  return statusStrategy({
    status: true, generation: true, allowCreateOnUpdate: true,
    onCreate(obj, ctx) {
      podTemplateConversion(templateOf(obj));
      extra.onCreate?.(obj, ctx);
    },
    onUpdate(obj, old, ctx) {
      podTemplateConversion(templateOf(obj));
      extra.onUpdate?.(obj, old, ctx);
    },
  }, { defaults });
}

export const deploymentStrategy = workload(deploymentDefaults, {
  onUpdate(obj, old) {
    // The spec part is the generic rule (src/registry/update.ts); annotations are the Deployment's own.
    if (!sameStringMap(obj.metadata.annotations, old.metadata.annotations)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
});

export const replicaSetStrategy = workload(replicaSetDefaults);
export const statefulSetStrategy = workload(statefulSetDefaults);

export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/** strconv.ParseInt(s, 10, 64) as the v1 → internal DaemonSet conversion runs it; its error is a 400. */
function parseTemplateGeneration(obj: KObject): bigint | undefined {
  const raw = obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (raw === undefined) return undefined;
  const fail = (why: string) => errors.badRequest(`DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing ${JSON.stringify(raw)}: ${why}`);
  if (!/^[+-]?\d+$/.test(raw)) throw fail('invalid syntax');
  const n = BigInt(raw);
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw fail('value out of range');
  return n;
}

function setTemplateGeneration(obj: KObject, n: bigint): void {
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [TEMPLATE_GENERATION_ANNOTATION]: n.toString() };
}

/** The pod template as it will be stored (defaulted, converted): what kube's DeepEqual compares. */
function normalizedTemplate(o: KObject): unknown {
  const t = structuredClone(templateOf(o));
  podTemplateDefaults(t);
  podTemplateConversion(t);
  return t;
}

export const daemonSetStrategy = workload(daemonSetDefaults, {
  onCreate(obj) {
    const given = parseTemplateGeneration(obj);
    setTemplateGeneration(obj, given !== undefined && given >= 1n ? given : 1n);
  },
  onUpdate(obj, old) {
    parseTemplateGeneration(obj); // a value that does not parse fails decoding, whatever the stored one
    let stored: bigint;
    try {
      stored = parseTemplateGeneration(old) ?? 0n;
    } catch {
      stored = 0n;
    }
    const changed = !jsonEqual(normalizedTemplate(obj), normalizedTemplate(old));
    setTemplateGeneration(obj, changed ? stored + 1n : stored);
  },
});
