/**
 * Review resources (TokenReview, SelfSubjectReview, the access and rules reviews) are kube's create-only REST:
 * nothing is stored, the answer is computed from the request. Every other verb is 405 as kube-apiserver
 * answers for a storage that implements only rest.Creater. dryRun changes nothing (there is nothing to store).
 */
import type { KObject, ResourceDef } from '../../api/types.ts';
import { StatusError } from '../../endpoints/status.ts';
import type { CachedObject, ObjectWatch } from '../../storage/cacher/types.ts';
import type { DeleteResult, ListResult, OpContext, RestStorage, WriteParams } from '../rest.ts';

const notAllowed = (): StatusError =>
  new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export abstract class ReviewStorage implements RestStorage {
  constructor(readonly def: ResourceDef) {}

  abstract create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject>;

  get(): Promise<CachedObject> { return Promise.reject(notAllowed()); }
  list(): Promise<ListResult> { return Promise.reject(notAllowed()); }
  watch(): Promise<ObjectWatch> { return Promise.reject(notAllowed()); }
  update(): Promise<{ object: KObject; created: boolean }> { return Promise.reject(notAllowed()); }
  guaranteedUpdate(): Promise<{ object: KObject; created: boolean }> { return Promise.reject(notAllowed()); }
  delete(): Promise<DeleteResult> { return Promise.reject(notAllowed()); }
  deleteCollection(): Promise<KObject[]> { return Promise.reject(notAllowed()); }

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
