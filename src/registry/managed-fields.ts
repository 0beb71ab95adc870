/**
 * A placeholder for field ownership until server-side apply lands (src/apply): field sets are computed from the
 * object's JSON shape, without schemas (see setOf for the "." marker), lists are atomic (one leaf), and metadata contributes only labels,
 * annotations, finalizers and ownerReferences. Rules kept from kube (SPEC "managedFields entry"):
 * - the writer's `Update` entry (per manager, apiVersion, subresource) gains the fields its write changed;
 *   other managers lose those fields; entries left empty disappear;
 * - `managedFields: [{}]` in the request resets ownership before the change is recorded; `[]` or absent keeps it;
 * - a write that changes nothing keeps managedFields (and its times) as they were.
 */
import type { KObject, ManagedFieldsEntry } from '../api/types.ts';
import { jsonEqual } from './object-utils.ts';

export type FieldSet = { [k: string]: FieldSet };

const META_OWNED = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Without a schema, a map whose values are all scalars (labels, data, rollingUpdate) is taken for a map field
 * and owns itself ("."); one holding objects is taken for a struct (spec, strategy) and does not.
 */
function setOf(v: Record<string, unknown>): FieldSet {
  const out: FieldSet = {};
  if (!Object.values(v).some((c) => isMap(c) && Object.keys(c).length > 0)) out['.'] = {};
  for (const [k, child] of Object.entries(v)) {
    if (child === undefined) continue;
    out[`f:${k}`] = isMap(child) && Object.keys(child).length > 0 ? setOf(child) : {};
  }
  return out;
}

/** The field set of an object: every leaf path it sets (the placeholder for kube's structured field sets). */
export function fieldSetOf(obj: KObject): FieldSet {
  const out: FieldSet = {};
  const meta: Record<string, unknown> = {};
  for (const k of META_OWNED) {
    const v = (obj.metadata as Record<string, unknown>)[k];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) meta[k] = v;
  }
  if (Object.keys(meta).length) {
    const m = setOf(meta);
    delete m['.']; // metadata is a struct
    out['f:metadata'] = m;
  }
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'metadata' || k === 'kind' || k === 'apiVersion' || v === undefined) continue;
    out[`f:${k}`] = isMap(v) && Object.keys(v).length > 0 ? setOf(v) : {};
  }
  return out;
}

/** Leaves of `next` whose value differs from `prev` (all of `next` when there is no `prev`). */
export function changedSet(next: KObject, prev: KObject | undefined): FieldSet {
  const full = fieldSetOf(next);
  if (!prev) return full;
  const walk = (set: FieldSet, a: unknown, b: unknown): FieldSet => {
    const out: FieldSet = {};
    for (const [k, sub] of Object.entries(set)) {
      if (k === '.') {
        if (b === undefined) out['.'] = {};
        continue;
      }
      const name = k.slice(2);
      const av = isMap(a) ? a[name] : undefined;
      const bv = isMap(b) ? b[name] : undefined;
      if (Object.keys(sub).length === 0 || !isMap(av)) {
        if (!jsonEqual(av, bv)) out[k] = {};
      } else {
        const inner = walk(sub, av, bv);
        if (Object.keys(inner).length) out[k] = inner;
      }
    }
    return out;
  };
  const nextMeta = { metadata: pickMeta(next) };
  const prevMeta = { metadata: pickMeta(prev) };
  return walk(full, { ...next, ...nextMeta }, { ...prev, ...prevMeta });
}

function pickMeta(obj: KObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of META_OWNED) out[k] = (obj.metadata as Record<string, unknown>)[k];
  return out;
}

function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = out[k] ? union(out[k], v) : v;
  return out;
}

/** `a` minus the leaves in `b`; empty branches are dropped. */
function subtract(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = {};
  for (const [k, v] of Object.entries(a)) {
    const bv = b[k];
    if (!bv) {
      out[k] = v;
      continue;
    }
    if (Object.keys(bv).length === 0) continue;
    const rest = subtract(v, bv);
    if (Object.keys(rest).length) out[k] = rest;
  }
  return out;
}

/** Sorts keys so field sets look like kube's (which are sorted). */
function sorted(set: FieldSet): FieldSet {
  const out: FieldSet = {};
  for (const k of Object.keys(set).sort()) out[k] = sorted(set[k]!);
  return out;
}

export interface RecordWriteOptions {
  readonly manager: string | undefined;
  readonly apiVersion: string;
  readonly subresource: string;
  readonly time: string;
  /** The object before the write (undefined on create). */
  readonly old: KObject | undefined;
  /**
   * The fields the request itself set (its body after defaulting, minus reset fields): what the server adds
   * later (strategy prepare hooks: status, phases, finalizers) is nobody's field, as in kube where the field
   * manager runs before the registry's strategy.
   */
  readonly scope?: FieldSet;
}

/** The leaves of `a` that `b` also has (a leaf of `b` covers a whole subtree of `a`). */
export function intersect(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = {};
  for (const [k, v] of Object.entries(a)) {
    const bv = b[k];
    if (!bv) continue;
    if (Object.keys(v).length === 0 || Object.keys(bv).length === 0) {
      out[k] = v;
      continue;
    }
    const inner = intersect(v, bv);
    if (Object.keys(inner).length) out[k] = inner;
  }
  return out;
}

/**
 * Sets `obj.metadata.managedFields` after a create or update. Call after every other mutation of `obj`.
 * Without a manager nothing is recorded (kube infers one from the User-Agent; the HTTP layer passes it).
 */
export function recordWrite(obj: KObject, opts: RecordWriteOptions): void {
  const requested = obj.metadata.managedFields;
  let base: ManagedFieldsEntry[];
  if (requested && requested.length === 1 && Object.keys(requested[0]!).length === 0) base = [];
  else if (!requested || requested.length === 0) base = opts.old?.metadata.managedFields ?? [];
  else base = requested;
  const changed = opts.scope ? intersect(changedSet(obj, opts.old), opts.scope) : changedSet(obj, opts.old);
  if (!opts.manager) {
    if (base.length) obj.metadata.managedFields = base;
    else delete obj.metadata.managedFields;
    return;
  }
  // Fields that disappeared belong to nobody any more; changed ones move to the writer.
  const removed = opts.old ? subtract(fieldSetOf(opts.old), fieldSetOf(obj)) : {};
  const isMine = (e: ManagedFieldsEntry) => e.manager === opts.manager && e.operation === 'Update'
    && e.apiVersion === opts.apiVersion && (e.subresource ?? '') === opts.subresource;
  const mine = base.find(isMine);
  const ownSet = sorted(subtract(union((mine?.fieldsV1 ?? {}) as FieldSet, changed), removed));
  const own: ManagedFieldsEntry | undefined = Object.keys(ownSet).length ? {
    manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, time: opts.time,
    fieldsType: 'FieldsV1', fieldsV1: ownSet, ...(opts.subresource ? { subresource: opts.subresource } : {}),
  } : undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const e of base) {
    if (e === mine) {
      if (own) entries.push(own); // keeps its place in the list
      continue;
    }
    const rest = subtract(subtract((e.fieldsV1 ?? {}) as FieldSet, changed), removed);
    if (Object.keys(rest).length) entries.push({ ...e, fieldsV1: rest });
  }
  if (own && !mine) entries.push(own);
  if (entries.length) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}
