/**
 * Base for create-only REST that stores nothing of its own (reviews, bindings, evictions): every other verb is
 * 405 as kube-apiserver answers for a storage that implements only rest.Creater / rest.NamedCreater.
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import { StatusError } from '../machinery/errors.ts';
import type { CachedObject, ObjectWatch } from '../storage/cacher/types.ts';
import type { DeleteResult, ListResult, OpContext, RestStorage, WriteParams } from './rest.ts';

const notAllowed = (): StatusError =>
  new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export abstract class CreateOnlyStorage implements RestStorage {
  constructor(readonly def: ResourceDef) {}

  abstract create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject>;

  get(): Promise<CachedObject> { return Promise.reject(notAllowed()); }
  list(): Promise<ListResult> { return Promise.reject(notAllowed()); }
  watch(): Promise<ObjectWatch> { return Promise.reject(notAllowed()); }
  update(): Promise<{ object: KObject; created: boolean }> { return Promise.reject(notAllowed()); }
  guaranteedUpdate(): Promise<{ object: KObject; created: boolean }> { return Promise.reject(notAllowed()); }
  delete(): Promise<DeleteResult> { return Promise.reject(notAllowed()); }
  deleteCollection(): Promise<KObject[]> { return Promise.reject(notAllowed()); }
}

/** The `Status` kube-apiserver answers a successful binding or eviction with (201 Created). */
export function successStatus(): KObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KObject;
}
