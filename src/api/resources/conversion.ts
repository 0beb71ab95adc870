/**
 * Conversions between a served version and the version objects are stored as, for the built-in resources
 * whose served and stored shapes differ:
 *   - events.k8s.io/v1 Event ↔ core/v1 Event (kube stores both under /registry/events/ as core Events);
 *   - autoscaling/v1 HorizontalPodAutoscaler ↔ autoscaling/v2 (the storage version).
 * The registry converts on the way in (`toStorage`) and out (`fromStorage`); apiVersion/kind are set here.
 * Conversions are total (unknown fields pass through unchanged) and keep metadata, except the HPA's
 * round-trip annotations, which carry what autoscaling/v1 cannot say (hpa-conversion.ts).
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../types.ts';
import { hpaV1ToV2, hpaV2ToV1 } from './hpa-conversion.ts';

export interface VersionConverter {
  /** Served version → storage version. */
  toStorage(obj: KObject): KObject;
  /** Storage version → served version. */
  fromStorage(obj: KObject): KObject;
}

type J = Record<string, unknown>;
const gv = (g: string, v: string) => (g ? `${g}/${v}` : v);

/** [events.k8s.io/v1 field, core/v1 field] */
const EVENT_FIELDS: Array<[string, string]> = [
  ['regarding', 'involvedObject'], ['note', 'message'], ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'], ['deprecatedFirstTimestamp', 'firstTimestamp'], ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function renameFields(obj: KObject, pairs: Array<[string, string]>, apiVersion: string): KObject {
  const out: KObject = { ...obj, apiVersion };
  for (const [from, to] of pairs) {
    delete out[from];
    if (obj[from] !== undefined) out[to] = obj[from];
  }
  return out;
}

export const eventsV1Converter: VersionConverter = {
  toStorage: (o) => renameFields(o, EVENT_FIELDS, 'v1'),
  fromStorage: (o) => renameFields(o, EVENT_FIELDS.map(([a, b]) => [b, a]), 'events.k8s.io/v1'),
};

/** autoscaling/v1 ↔ v2: see hpa-conversion.ts (kube's annotations, byte for byte). */
export const hpaV1Converter: VersionConverter = {
  toStorage: hpaV1ToV2,
  fromStorage: hpaV2ToV1,
};

/** The converter for a served resource whose storage group/version differs; undefined when none is needed. */
export function converterFor(def: Pick<ResourceDef, 'group' | 'version' | 'kind'>, storage: StorageGVK): VersionConverter | undefined {
  if (def.group === storage.group && def.version === storage.version) return undefined;
  if (def.kind === 'Event' && def.group === 'events.k8s.io' && storage.group === '') return eventsV1Converter;
  if (def.kind === 'HorizontalPodAutoscaler' && def.version === 'v1' && storage.version === 'v2') return hpaV1Converter;
  // A stored version with the same shape (nothing to rename): only apiVersion changes.
  return {
    toStorage: (o) => ({ ...o, apiVersion: gv(storage.group, storage.version) }),
    fromStorage: (o) => ({ ...o, apiVersion: gv(def.group, def.version) }),
  };
}

/** Where objects live in storage when not in their own group/version (events.k8s.io → core v1 Event). */
export interface StorageGVK {
  group: string;
  version: string;
}
