/**
 * kube-apiserver's `priority-and-fairness-config-producer` (pkg/registry/flowcontrol/ensurer): at start and
 * then every minute, the suggested objects are created when missing and updated when their
 * `apf.kubernetes.io/autoupdate-spec` annotation says true (an object without it is updated only at
 * generation 1, and gets the annotation written); the mandatory objects are always created and restored
 * (the exempt level keeps an operator's nominalConcurrencyShares and lendablePercent); objects that carry
 * the annotation `true` but are no longer part of the bootstrap configuration are deleted.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import {
  AUTO_UPDATE_ANNOTATION, FLOWCONTROL_GROUP, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS,
} from './bootstrap.ts';

type J = Record<string, any>;

const FIELD_MANAGER = 'api-priority-and-fairness-config-producer-v1';
export const ENSURE_INTERVAL_MS = 60_000;

const ctx = () => ({ ...systemContext(), fieldManager: FIELD_MANAGER });

/** Go's strconv.ParseBool. */
function parseBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/** Spec equality as Go's semantic DeepEqual sees it after defaulting: absent, null, false and [] are alike. */
export function sameSpec(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(normalize) : undefined;
  if (v && typeof v === 'object') {
    const out: J = {};
    for (const k of Object.keys(v).sort()) {
      const n = normalize((v as J)[k]);
      if (n !== undefined && n !== null && n !== false) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

/** The bootstrap spec with the defaults the registry stores (so that comparing does not flap). */
function defaulted(obj: KObject): J {
  const spec = structuredClone(obj['spec']) as J;
  if (obj.kind === 'PriorityLevelConfiguration') {
    if (spec['limited']) spec['limited'].lendablePercent ??= 0;
  }
  return spec;
}

/** What the stored object should become, or undefined when it is fine as it is. */
export function desiredUpdate(current: KObject, bootstrap: KObject, mandatory: boolean): KObject | undefined {
  const annotations = (current.metadata.annotations ?? {}) as Record<string, string>;
  const flag = parseBool(annotations[AUTO_UPDATE_ANNOTATION]);
  const autoUpdate = mandatory || (flag ?? current.metadata.generation === 1);
  const fixAnnotation = flag !== autoUpdate;
  let spec = defaulted(bootstrap);
  if (mandatory && bootstrap.kind === 'PriorityLevelConfiguration' && bootstrap.metadata.name === 'exempt') {
    // Operators may tune the exempt level's shares and lending.
    const cur = ((current['spec'] as J | undefined)?.['exempt'] ?? {}) as J;
    spec = { ...spec, exempt: { ...spec['exempt'], ...pick(cur, ['nominalConcurrencyShares', 'lendablePercent']) } };
  }
  const specChanged = autoUpdate && !sameSpec(spec, current['spec']);
  if (!fixAnnotation && !specChanged) return undefined;
  const next: KObject = structuredClone(current) as KObject;
  if (fixAnnotation) next.metadata.annotations = { ...annotations, [AUTO_UPDATE_ANNOTATION]: String(autoUpdate) };
  if (specChanged) next['spec'] = spec;
  return next;
}

function pick(o: J, keys: string[]): J {
  const out: J = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

async function ensureOne(storage: RestStorage, bootstrap: KObject, mandatory: boolean): Promise<void> {
  const name = bootstrap.metadata.name!;
  let current: KObject | undefined;
  try {
    current = (await storage.get(ctx(), name, {})).object;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  if (!current) {
    try {
      await storage.create(ctx(), structuredClone(bootstrap) as KObject, {});
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    return;
  }
  const next = desiredUpdate(current, bootstrap, mandatory);
  if (!next) return;
  try {
    await storage.update(ctx(), name, next, {});
  } catch (err) {
    // Someone wrote it meanwhile: the next round looks again.
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}

async function removeStale(storage: RestStorage, keep: ReadonlySet<string>): Promise<void> {
  const list = await storage.list(ctx(), {});
  for (const { object } of list.items) {
    const name = object.metadata.name ?? '';
    const value = (object.metadata.annotations as Record<string, string> | undefined)?.[AUTO_UPDATE_ANNOTATION];
    if (keep.has(name) || value === undefined || parseBool(value) !== true) continue;
    try {
      await storage.delete(ctx(), name, {});
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** One round: suggested, then mandatory, then removal of retired bootstrap objects. */
export async function ensureBootstrapConfiguration(registry: RestRegistry): Promise<void> {
  const fs = registry.lookup(FLOWCONTROL_GROUP, 'v1', 'flowschemas');
  const pl = registry.lookup(FLOWCONTROL_GROUP, 'v1', 'prioritylevelconfigurations');
  if (!fs || !pl) return;
  // In parallel: on a fresh store the creates share the backend's group commits.
  await Promise.all([
    ...SUGGESTED_FLOW_SCHEMAS.map((o) => ensureOne(fs, o, false)), ...SUGGESTED_PRIORITY_LEVELS.map((o) => ensureOne(pl, o, false)),
  ]);
  await Promise.all([...MANDATORY_FLOW_SCHEMAS.map((o) => ensureOne(fs, o, true)), ...MANDATORY_PRIORITY_LEVELS.map((o) => ensureOne(pl, o, true))]);
  await removeStale(fs, new Set([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map((o) => o.metadata.name!)));
  await removeStale(pl, new Set([...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].map((o) => o.metadata.name!)));
}

export interface ConfigProducer {
  stop(): void;
}

/** Ensures once (retrying each second for up to 5 minutes, as kube's hook), then every `intervalMs`. */
export async function startConfigProducer(registry: RestRegistry, opts: { intervalMs?: number; log?: Logger } = {}): Promise<ConfigProducer> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      await ensureBootstrapConfiguration(registry);
      break;
    } catch (err) {
      opts.log?.(`APF bootstrap ensurer ran into error, will retry later: ${(err as Error).message}`);
      if (Date.now() > deadline) throw new Error('unable to initialize APF bootstrap configuration');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  const tick = (): void => {
    timer = setTimeout(() => {
      ensureBootstrapConfiguration(registry).catch((err: unknown) => {
        opts.log?.(`APF bootstrap ensurer ran into error, will retry later: ${(err as Error).message}`);
      }).finally(() => {
        if (!stopped) tick();
      });
    }, opts.intervalMs ?? ENSURE_INTERVAL_MS);
    timer.unref?.();
  };
  tick();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
