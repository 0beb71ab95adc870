/**
 * Server-side apply (PATCH with application/apply-patch+yaml), as kube's FieldManager.Apply:
 * 1. The body must be of the endpoint's kind and version (400 `invalid object type: …`) and must not carry
 *    managedFields (400 `metadata.managedFields must be nil`).
 * 2. A live object that has no managers yet is first attributed to `before-first-apply` (an Update entry), so
 *    fields set before anyone applied are owned by someone.
 * 3. The config merges into the live object by the schema; the applier's set becomes exactly what the config
 *    sets; fields it applied before and dropped are removed unless someone else owns them; other managers owning
 *    a field whose value changes conflict (ConflictError, 409) unless `force`, which takes the field over.
 *    Managers that applied the same value keep sharing it.
 * 4. The applier's `time` moves only when the object changed. A create is an apply onto the kind's zero object.
 * 5. For the `kubectl` manager, a client-side last-applied annotation on the live object is kept in sync.
 */
import type { ManagedFieldsEntry } from '../../machinery/objects.ts';
import { StatusError, errors } from '../../machinery/errors.ts';
import { rootNodeFor, rootNodeForObject, type StructNode } from '../schema-view.ts';
import { fieldSetOf } from '../fieldpath/from-value.ts';
import type { FieldSet } from '../fieldpath/set.ts';
import { goJson, jsonEqual } from '../fieldpath/value.ts';
import { decodeManagedFields, encodeManagedFields, formatTime, managerIdentifier, STRIPPED_FIELDS, type Managers } from './managers.ts';
import { mergeObjects, MergeError } from './merge.ts';
import { normalizeTyped } from './remove.ts';
import { recordUpdate, withManagedFields, type ManagedFieldsResult } from './update.ts';
import { filterIgnored, prune, reassign } from './updater.ts';
import { typedPatchError, validateApplied } from './validate.ts';
import { ConflictError } from './conflict.ts';
import { compareObjects } from './compare.ts';

type Obj = Record<string, unknown>;

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

export interface ApplyOptions {
  /** The stored object, or undefined when the apply creates it. */
  live: object | undefined;
  /** The decoded apply body. */
  applied: object;
  /** fieldManager (required for apply; the handler answers 422 before calling when it is missing). */
  manager: string;
  force: boolean;
  /** The endpoint's group/version (`v1`, `apps/v1`). */
  apiVersion: string;
  /** The endpoint's kind; defaults to the live object's kind. */
  kind?: string;
  subresource?: string;
  view?: StructNode;
  /** Reset fields of the strategy (not owned, not conflicting), e.g. `status` on the main resource. */
  ignoredFields?: FieldSet;
  now: string | Date;
}

export interface ApplyResult extends ManagedFieldsResult {
  /** False when the apply left the object as it was (managedFields may still have changed). */
  changed: boolean;
}

function metaOf(o: unknown): Obj | undefined {
  const m = (o as Obj | undefined)?.metadata;
  return m && typeof m === 'object' && !Array.isArray(m) ? (m as Obj) : undefined;
}

/** GroupVersionKind's Go String(): `apps/v1, Kind=Deployment`, `/v1, Kind=ConfigMap`. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const gv = av.includes('/') ? av : `/${av}`;
  return `${gv}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

export function apply(o: ApplyOptions): ApplyResult {
  try {
    return applyOnce(o, o.force);
  } catch (err) {
    // lastAppliedManager: `kubectl apply --server-side` after client-side applies may take over the fields its
    // last-applied annotation still describes truthfully; other conflicts stand.
    if (o.manager !== 'kubectl' || !(err instanceof ConflictError) || !o.live) throw err;
    const allowed = allowedFromLastApplied(o);
    if (!allowed) throw err;
    const rest = err.conflicts.filter((c) => !allowed.has(c.path));
    if (rest.length > 0) throw rest.length === err.conflicts.length ? err : new ConflictError(rest);
    return applyOnce(o, true);
  }
}

function allowedFromLastApplied(o: ApplyOptions): FieldSet | undefined {
  const ann = (metaOf(o.live)?.annotations as Obj | undefined)?.[LAST_APPLIED_ANNOTATION];
  if (typeof ann !== 'string' || ann === '') return undefined;
  let last: unknown;
  try {
    last = JSON.parse(ann);
  } catch {
    return undefined;
  }
  if (!last || typeof last !== 'object' || (last as Obj).apiVersion !== o.apiVersion) return undefined;
  const root = o.view ?? rootNodeForObject(o.applied as Obj);
  if (validateApplied(last, root).length > 0) return undefined;
  const live = normalizeTyped(withManagedFields(o.live!, undefined), root);
  const c = compareObjects(last, live, root);
  return fieldSetOf(last, root).difference(c.modified).difference(c.added).difference(c.removed);
}

function applyOnce(o: ApplyOptions, force: boolean): ApplyResult {
  const applied = o.applied as Obj;
  const kind = o.kind ?? ((o.live as Obj | undefined)?.kind as string | undefined);
  if (applied.apiVersion !== o.apiVersion || (kind !== undefined && applied.kind !== kind)) {
    throw errors.badRequest(`invalid object type: ${gvkString(applied.apiVersion, applied.kind)}`);
  }
  const appliedMF = metaOf(applied)?.managedFields;
  if (appliedMF !== undefined && appliedMF !== null) throw errors.badRequest('metadata.managedFields must be nil');

  const root = o.view ?? (kind ? rootNodeFor(o.apiVersion, kind) : undefined) ?? rootNodeForObject(applied);
  const invalid = validateApplied(applied, root);
  if (invalid.length) throw typedPatchError(applied, invalid);
  const now = formatTime(o.now);
  let managers: Managers;
  try {
    managers = decodeManagedFields(metaOf(o.live)?.managedFields);
  } catch (err) {
    throw new StatusError(500, '', `failed to decode managed fields: ${(err as Error).message}`);
  }
  const typeMeta = { apiVersion: applied.apiVersion, kind: applied.kind };
  const zero = normalizeTyped(typeMeta, root);
  const liveN = o.live ? normalizeTyped(withManagedFields(o.live, undefined), root) : zero;
  const sub = o.subresource ? { subresource: o.subresource } : {};

  if (managers.size === 0 && o.live) {
    recordUpdate({ managers, oldObj: zero, newObj: liveN, manager: 'before-first-apply', apiVersion: o.apiVersion, ...sub, root, ignored: o.ignoredFields, now });
  }

  let merged: unknown;
  try {
    merged = mergeObjects(liveN, applied, root);
  } catch (err) {
    if (err instanceof MergeError) throw new StatusError(500, '', `failed to merge config: ${err.message}`);
    throw err;
  }
  const state = { manager: o.manager, operation: 'Apply' as const, apiVersion: o.apiVersion, ...sub };
  const id = managerIdentifier(state);
  const last = managers.get(id);
  const set = filterIgnored(fieldSetOf(applied, root), o.ignoredFields);
  managers.set(id, { ...state, set, ...(last?.time ? { time: last.time } : {}) });
  const pruned = prune(merged, managers, last?.set, root);
  reassign({ oldObj: liveN, newObj: pruned, managers, workflow: id, force, root, ...(o.ignoredFields ? { ignored: o.ignoredFields } : {}) });

  let result = normalizeTyped(pruned, root) as Obj;
  if (!o.live) result = orderLike(result, applied) as Obj;
  const changed = !jsonEqual(result, liveN);
  const mine = managers.get(id)!;
  const stripped = mine.set.difference(STRIPPED_FIELDS);
  if (stripped.isEmpty()) managers.delete(id);
  else managers.set(id, { ...mine, set: stripped, ...(changed ? { time: now } : {}) });

  let object: Obj = changed ? result : (withManagedFields(o.live ?? result, undefined));
  if (o.manager === 'kubectl') object = syncLastApplied(object, o.live, applied);
  const entries: ManagedFieldsEntry[] | undefined = encodeManagedFields(managers);
  return { object: withManagedFields(object, entries), managedFields: entries, changed };
}

/** lastAppliedUpdater: kubectl's server-side apply refreshes an existing client-side last-applied annotation. */
function syncLastApplied(obj: Obj, live: object | undefined, applied: Obj): Obj {
  const liveAnn = metaOf(live)?.annotations as Record<string, unknown> | undefined;
  if (typeof liveAnn?.[LAST_APPLIED_ANNOTATION] !== 'string' || liveAnn[LAST_APPLIED_ANNOTATION] === '') return obj;
  const appliedMeta = { ...(metaOf(applied) ?? {}) };
  const anns = { ...((appliedMeta.annotations as Obj | undefined) ?? {}) };
  delete anns[LAST_APPLIED_ANNOTATION];
  if (Object.keys(anns).length) appliedMeta.annotations = anns;
  else delete appliedMeta.annotations;
  const value = `${goJson({ ...applied, metadata: appliedMeta })}\n`;
  const meta = { ...(metaOf(obj) ?? {}) };
  meta.annotations = { ...((meta.annotations as Obj | undefined) ?? {}), [LAST_APPLIED_ANNOTATION]: value };
  return { ...obj, metadata: meta };
}

/**
 * A created object keeps the key order of the config that created it (fields the server added follow), rather
 * than the order of the zero object it was merged onto. Lists keep their merged order.
 */
function orderLike(value: unknown, like: unknown): unknown {
  if (!isPlain(value) || !isPlain(like)) return value;
  const out: Obj = {};
  for (const k of Object.keys(like)) if (k in value) out[k] = orderLike(value[k], like[k]);
  for (const k of Object.keys(value)) if (!(k in out)) out[k] = value[k];
  return out;
}

function isPlain(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
