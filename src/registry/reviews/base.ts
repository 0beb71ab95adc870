/**
 * Review resources (TokenReview, SelfSubjectReview, the access and rules reviews) are kube's create-only REST:
 * nothing is stored, the answer is computed from the request. Every other verb is 405 as kube-apiserver
 * answers for a storage that implements only rest.Creater. dryRun changes nothing (there is nothing to store).
 */
import type { KObject } from '../../machinery/objects.ts';
import { CreateOnlyStorage } from '../create-only-storage.ts';

export abstract class ReviewStorage extends CreateOnlyStorage {
  /** The answer's envelope: the served apiVersion/kind, the request's metadata (creationTimestamp null as Go writes it). */
  protected envelope(obj: KObject, rest: Record<string, unknown>): KObject {
    const apiVersion = this.def.group ? `${this.def.group}/${this.def.version}` : this.def.version;
    return { kind: this.def.kind, apiVersion, metadata: { creationTimestamp: null, ...obj.metadata } as KObject['metadata'], ...rest };
  }
}

/** `spec` as an object (a missing or non-object spec reads as empty, as Go's zero value). */
export function specOf(obj: KObject): Record<string, unknown> {
  const s = obj.spec;
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, unknown>) : {};
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const strList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** UserInfo as authentication.k8s.io/v1 writes it (uid, groups and extra omitted when empty). */
export function wireUser(u: { username: string; uid?: string; groups: readonly string[]; extra?: Record<string, string[]> }): Record<string, unknown> {
  const out: Record<string, unknown> = { username: u.username };
  if (u.uid) out.uid = u.uid;
  if (u.groups.length) out.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) out.extra = u.extra;
  return out;
}
