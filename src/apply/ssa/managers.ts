/**
 * `metadata.managedFields` ↔ managers (k8s.io/apimachinery managedfields, decode/encode):
 * - a manager is identified by JSON of `{manager, operation, apiVersion (Update only), subresource}` (Go field
 *   order, empty fields omitted), so one applier has one entry whatever version it applied with, while updaters
 *   get one entry per apiVersion;
 * - entries are written sorted by operation (Apply before Update), time (seconds), manager, apiVersion,
 *   subresource; an empty manager list is written as no managedFields at all.
 */
import type { ManagedFieldsEntry } from '../../machinery/objects.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { goJsonString } from '../fieldpath/value.ts';

export interface ManagerState {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly set: FieldSet;
  /** RFC 3339 (seconds), or undefined when the entry had none. */
  readonly time?: string;
}

/** Managers by identifier. */
export type Managers = Map<string, ManagerState>;

/** BuildManagerIdentifier: the stable identity of a manager entry. */
export function managerIdentifier(e: { manager?: string; operation?: string; apiVersion?: string; subresource?: string }): string {
  const parts: string[] = [];
  if (e.manager) parts.push(`"manager":${goJsonString(e.manager)}`);
  if (e.operation) parts.push(`"operation":${goJsonString(e.operation)}`);
  if (e.operation !== 'Apply' && e.apiVersion) parts.push(`"apiVersion":${goJsonString(e.apiVersion)}`);
  if (e.subresource) parts.push(`"subresource":${goJsonString(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** True for kube's reset request: exactly one entry and it is empty (`[{}]`); `[]` is not a reset. */
export function isResetManagedFields(mf: unknown): boolean {
  if (!Array.isArray(mf) || mf.length !== 1) return false;
  const e = mf[0] as unknown;
  return e !== null && typeof e === 'object' && !Array.isArray(e) && Object.values(e as object).every((v) => v === undefined);
}

/**
 * Decodes managedFields entries. Throws an Error with kube's wording for an entry it cannot read (callers fall
 * back to the live object's entries, or answer 500 for apply, as kube does).
 */
export function decodeManagedFields(mf: unknown): Managers {
  const out: Managers = new Map();
  if (mf === undefined || mf === null) return out;
  if (!Array.isArray(mf)) throw new Error('managedFields must be a list');
  mf.forEach((raw: unknown, i) => {
    const e = (raw ?? {}) as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (e.fieldsType === undefined || (e.fieldsType as string) === '') throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      throw new Error(`error decoding versioned set from ${JSON.stringify(e)}: error decoding set: ${(err as Error).message}`);
    }
    const state: ManagerState = {
      manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion,
      ...(e.subresource ? { subresource: e.subresource } : {}),
      set, ...(e.time ? { time: e.time } : {}),
    };
    out.set(managerIdentifier(state), state);
  });
  return out;
}

function seconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** Encodes managers as sorted managedFields entries; undefined when there are none. */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] | undefined {
  if (managers.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const m of managers.values()) {
    const e: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time) e.time = m.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = m.set.toFieldsV1();
    if (m.subresource) e.subresource = m.subresource;
    entries.push(e);
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  entries.sort((p, q) => cmp(p.operation!, q.operation!) || seconds(p.time) - seconds(q.time)
    || cmp(p.manager ?? '', q.manager ?? '') || cmp(p.apiVersion ?? '', q.apiVersion ?? '') || cmp(p.subresource ?? '', q.subresource ?? ''));
  return entries;
}

/** metav1.Time's JSON: RFC 3339 in UTC, whole seconds. */
export function formatTime(now: string | Date): string {
  const d = typeof now === 'string' ? new Date(now) : now;
  return `${d.toISOString().slice(0, 19)}Z`;
}

/** Fields the server never records as owned (StripMetaManager). */
export const STRIPPED_FIELDS: FieldSet = FieldSet.fromFieldsV1({
  'f:apiVersion': {}, 'f:kind': {},
  'f:metadata': {
    '.': {}, 'f:name': {}, 'f:namespace': {}, 'f:creationTimestamp': {}, 'f:selfLink': {}, 'f:uid': {},
    'f:clusterName': {}, 'f:generation': {}, 'f:managedFields': {}, 'f:resourceVersion': {},
  },
});

/** CapManagersManager: at most this many Update entries; older ones merge into `ancient-changes`. */
export const MAX_UPDATE_MANAGERS = 10;

export function capUpdateManagers(managers: Managers): void {
  const updaters = [...managers.entries()].filter(([, m]) => m.operation === 'Update').map(([id]) => id);
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  updaters.sort((a, b) => seconds(managers.get(a)!.time) - seconds(managers.get(b)!.time) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const id = updaters[i]!;
    const m = managers.get(id)!;
    const bucketState = { manager: 'ancient-changes', operation: 'Update' as const, apiVersion: m.apiVersion };
    const bucket = managerIdentifier(bucketState);
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(m.apiVersion, id);
      continue;
    }
    if (!managers.has(bucket)) {
      const f = managers.get(first)!;
      managers.delete(first);
      managers.set(bucket, { ...bucketState, set: f.set, ...(f.time ? { time: f.time } : {}) });
    }
    const b = managers.get(bucket)!;
    managers.set(bucket, { ...bucketState, set: m.set.union(b.set), ...(m.time ? { time: m.time } : {}) });
    managers.delete(id);
    length--;
  }
}
