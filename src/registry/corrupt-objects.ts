/**
 * Corrupt objects (KEP-3926, feature gate AllowUnsafeMalformedObjectDeletion): values in storage that cannot be
 * decoded. As kube-apiserver reports them:
 *   - GET (and a normal DELETE): 500 with the storage error text `StorageError: corrupt object, Code: 7, Key: <key>,
 *     ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=<rev>: <decode error>` with the gate,
 *     the bare decode error without it (reason empty either way: it is not an API status error);
 *   - LIST (gate on): 500 `StoreReadError` "failed to read one or more <resource> from the storage", one cause per
 *     corrupt key (field = key), at most 100 then a `TooMany` cause; gate off: the first decode error, 500;
 *   - DELETE with `ignoreStoreReadErrorWithClusterBreakingPotential` (gate on, checked by the handler together
 *     with the `unsafe-delete-ignore-read-errors` verb): a readable (or missing) object is refused with 422
 *     `<resource> "<name>" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is
 *     exclusively used to delete corrupt object(s), try again by removing this option`; a corrupt one is removed
 *     from storage without preconditions, finalizers or graceful deletion, answered by a Success Status.
 */
import type { KObject } from '../machinery/objects.ts';
import { errors, field, StatusError, type StatusCause, type StatusReason } from '../machinery/errors.ts';
import { JsonSyntaxError, scanJson } from '../machinery/json/scan.ts';
import type { KeyValue } from '../storage/interface.ts';
import { UntransformableValue } from '../storage/value/transforming-store.ts';
import type { DeleteParams, DeleteResult, OpContext } from './rest.ts';
import { toStatusError } from './storage-errors.ts';
import type { StoreCore } from './store-core.ts';

/** The DeleteOptions field (and query parameter) that asks for an unsafe delete. */
export const UNSAFE_DELETE_OPTION = 'ignoreStoreReadErrorWithClusterBreakingPotential';
/** The verb a caller needs besides `delete` (kube's authorizeUnsafeDelete). */
export const UNSAFE_DELETE_VERB = 'unsafe-delete-ignore-read-errors';
/** The audit annotation kube adds to such requests. */
export const UNSAFE_DELETE_AUDIT_ANNOTATION = 'apiserver.k8s.io/unsafe-delete-ignore-read-error';
/** kube aggregates at most this many corrupt keys per list. */
export const MAX_CORRUPT_CAUSES = 100;

/** An undecodable stored value (kube's storage.StorageError with ErrCodeCorruptObj). */
export class CorruptObjectError extends Error {
  override readonly name = 'CorruptObjectError';
  /**
   * `untransformable`: no encryption provider could decrypt the value (kube reports revision 0 for those, as its
   * transformer does not know the revision); `undecodable`: the bytes are not an object.
   */
  constructor(readonly key: string, readonly revision: number, readonly decodeError: string, readonly kind: 'undecodable' | 'untransformable' = 'undecodable') {
    super(`StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${kind === 'untransformable' ? 'data from the storage is not transformable' : 'object not decodable'} revision=${revision}: ${decodeError}`);
  }

  /**
   * The 500 kube answers for it (not an API status: reason is empty). With the gate the storage layer wraps the
   * decode error in its corrupt-object StorageError; without it the decoder's error goes out as it is.
   */
  toStatusError(gate: boolean): StatusError {
    return new StatusError(500, '', gate ? this.message : this.decodeError);
  }
}

/** The decode error text as kube's JSON storage serializer words it. */
export function decodeErrorText(value: Uint8Array, err: unknown): string {
  const text = Buffer.from(value).toString('utf8');
  try {
    scanJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return `couldn't get version/kind; json parse error: ${e.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Decodes a stored value, or throws CorruptObjectError naming its key and revision. */
export function decodeOrCorrupt(core: StoreCore, kv: KeyValue): KObject {
  if (kv.value instanceof UntransformableValue) throw new CorruptObjectError(kv.key, 0, kv.value.reason, 'untransformable');
  try {
    return core.decode(kv);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw new CorruptObjectError(kv.key, kv.modRevision, decodeErrorText(kv.value, e));
  }
}

/**
 * After a reader found nothing at `key`: is the key there in storage but undecodable? (Readers skip values they
 * cannot decode.) Throws the corrupt object's error; returns quietly when the key really is absent or readable.
 */
export async function throwIfCorrupt(core: StoreCore, key: string, gate: boolean): Promise<void> {
  let kv: KeyValue | undefined;
  try {
    kv = await core.store.get(key);
  } catch {
    return; // the reader's answer stands
  }
  if (!kv) return;
  try {
    decodeOrCorrupt(core, kv);
  } catch (e) {
    if (e instanceof CorruptObjectError) throw e.toStatusError(gate);
    throw e;
  }
}

/** `configmaps` / `deployments.apps`: kube's GroupResource.String(). */
function groupResource(core: StoreCore): string {
  return core.def.group ? `${core.def.resource}.${core.def.group}` : core.def.resource;
}

/** The LIST error for corrupt keys (gate on): 500 StoreReadError with one cause per key. */
export function corruptListError(core: StoreCore, corrupt: readonly CorruptObjectError[], more: boolean): StatusError {
  const causes: StatusCause[] = corrupt.map((c) => ({ reason: 'UnexpectedServerResponse', message: c.message, field: c.key }));
  if (more) causes.push({ reason: 'TooMany', message: 'too many errors, the list is truncated' });
  return new StatusError(500, 'StoreReadError' as StatusReason, `failed to read one or more ${groupResource(core)} from the storage`, {
    name: 'list',
    ...(core.def.group ? { group: core.def.group } : {}),
    kind: core.def.resource,
    causes,
  });
}

/**
 * Scans `prefix` at `revision` for values that do not decode. Returns at most MAX_CORRUPT_CAUSES of them and
 * whether there were more.
 */
export async function findCorrupt(core: StoreCore, prefix: string, revision: number): Promise<{ corrupt: CorruptObjectError[]; more: boolean }> {
  const res = await core.store.range(prefix, revision > 0 ? { revision } : {});
  const corrupt: CorruptObjectError[] = [];
  for (const kv of res.items) {
    try {
      decodeOrCorrupt(core, kv);
    } catch (e) {
      if (!(e instanceof CorruptObjectError)) continue;
      if (corrupt.length >= MAX_CORRUPT_CAUSES) return { corrupt, more: true };
      corrupt.push(e);
    }
  }
  return { corrupt, more: false };
}

/**
 * corruptObjectDeleter.Delete: only for a value that cannot be read; it is deleted from storage as it is
 * (guarded by its revision, so a concurrent rewrite wins), with no preconditions, finalizers, grace or hooks.
 * Dry run reads and checks but removes nothing.
 */
export async function unsafeDeleteCorrupt(core: StoreCore, ctx: OpContext, name: string): Promise<DeleteResult> {
  const key = core.key(ctx, name);
  const site = { op: 'delete' as const, resource: core.def.resource, group: core.def.group };
  const refuse = () => errors.invalid(core.resource(name), [
    field.invalid(UNSAFE_DELETE_OPTION, true, 'is exclusively used to delete corrupt object(s), try again by removing this option'),
  ]);
  let kv: KeyValue | undefined;
  try {
    kv = await core.store.get(key);
  } catch (e) {
    throw toStatusError(e, site);
  }
  if (!kv) throw refuse();
  try {
    decodeOrCorrupt(core, kv);
    throw refuse();
  } catch (e) {
    if (!(e instanceof CorruptObjectError)) throw e;
  }
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 200,
    details: { name, kind: core.def.kind },
  } as unknown as KObject;
  if (ctx.dryRun) return { object: status, deleted: true };
  let del;
  try {
    del = await core.writer(ctx).delete(key, { expectedModRevision: kv.modRevision });
  } catch (e) {
    throw toStatusError(e, site);
  }
  // Gone meanwhile (kube: a NotFound on the storage delete still answers success without the object).
  if (!del.succeeded && del.current !== undefined) throw errors.conflict(core.resource(name));
  return { object: status, deleted: true };
}

/** Is this delete the unsafe kind? (The handler only passes the option through with the gate on.) */
export function wantsUnsafeDelete(params: DeleteParams): boolean {
  return params.ignoreStoreReadErrorWithClusterBreakingPotential === true;
}
