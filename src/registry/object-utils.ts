/** Small helpers the registry verbs share: time, uids, generated names, cloning and comparison. */
import { randomInt, randomUUID } from 'node:crypto';
import type { KObject } from '../machinery/objects.ts';

/** RFC 3339 with second precision in UTC, as metav1.Time marshals: `2026-01-02T03:04:05Z`. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function newUid(): string {
  return randomUUID();
}

/** kube's utilrand alphabet: no vowels (no words), no confusable characters. */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;

/** names.SimpleNameGenerator: base truncated to 58 characters, then 5 random characters. */
export function generateName(base: string): string {
  const trimmed = base.length > MAX_NAME_LENGTH - RANDOM_LENGTH ? base.slice(0, MAX_NAME_LENGTH - RANDOM_LENGTH) : base;
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return trimmed + suffix;
}

/** Deep copy of a (possibly frozen) JSON value; `undefined` members are dropped. Much faster than structuredClone. */
export function clone<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = clone(x);
  }
  return out as T;
}

/** Structural equality of JSON values; key order does not matter, `undefined` members count as absent. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    return a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  if (ak.length !== bk.length) return false;
  return ak.every((k) => k in bo && jsonEqual(ao[k], bo[k]));
}

/** The object minus the parts that never count as a change (resourceVersion, managedFields times). */
export function comparable(obj: KObject): KObject {
  const meta = { ...obj.metadata };
  delete meta.resourceVersion;
  if (meta.managedFields) meta.managedFields = meta.managedFields.map((m) => ({ ...m, time: undefined }));
  return { ...obj, metadata: meta };
}

/**
 * Top-level fields other than metadata, status and the type fields: what bumps generation by default.
 * `ignores` are dotted paths (`spec.replicas`) whose changes do not count.
 */
export function specPart(obj: KObject, ignores: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'metadata' || k === 'status' || k === 'kind' || k === 'apiVersion') continue;
    out[k] = v;
  }
  if (!ignores.length) return out;
  const copy = clone(out);
  for (const path of ignores) {
    const parts = path.split('.');
    let cur: unknown = copy;
    for (let i = 0; i < parts.length - 1 && cur && typeof cur === 'object'; i++) cur = (cur as Record<string, unknown>)[parts[i]!];
    if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[parts[parts.length - 1]!];
  }
  return copy;
}
