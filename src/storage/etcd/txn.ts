/**
 * The write transactions of the etcd backend, as pure request builders and response readers.
 *
 * Every write is one etcd transaction whose failure branch reads the key, so a failed guard hands back
 * the current value without a second round trip:
 *   create: createRevision(key) == 0     → put               | get
 *   update: modRevision(key) == expected → put (prevKv)      | get
 *   delete: modRevision(key) == expected → delete (prevKv)   | get   (unguarded: createRevision > 0, "exists")
 * The revision of a successful write is the transaction's header revision.
 */
import type { ITxnRequest, ITxnResponse } from 'etcd3';
import { StorageError, type Bytes, type KeyValue, type TxnResult } from '../interface.ts';
import { EMPTY_VALUE, type KeyCodec } from './codec.ts';

const bytes = (v: Bytes): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export function createTxn(k: Buffer, value: Bytes, lease: string | undefined): ITxnRequest {
  return {
    compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
    success: [{ request_put: { key: k, value: bytes(value), lease } }],
    failure: [{ request_range: { key: k } }],
  };
}

export function updateTxn(k: Buffer, value: Bytes, expectedModRevision: number, lease: string | undefined): ITxnRequest {
  return {
    compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision }],
    success: [{ request_put: { key: k, value: bytes(value), lease, prev_kv: true } }],
    failure: [{ request_range: { key: k } }],
  };
}

export function deleteTxn(k: Buffer, expectedModRevision: number | undefined): ITxnRequest {
  const guard =
    expectedModRevision !== undefined
      ? { key: k, target: 'Mod' as const, result: 'Equal' as const, mod_revision: expectedModRevision }
      : { key: k, target: 'Create' as const, result: 'Greater' as const, create_revision: 0 };
  return {
    compare: [guard],
    success: [{ request_delete_range: { key: k, prev_kv: true } }],
    failure: [{ request_range: { key: k } }],
  };
}

/** The failure branch's read: the key's current value, or undefined when it does not exist. */
function failed(codec: KeyCodec, res: ITxnResponse): TxnResult {
  const raw = res.responses[0]?.response_range?.kvs[0];
  return { succeeded: false, current: raw ? codec.kv(raw) : undefined };
}

export function createResult(codec: KeyCodec, key: string, value: Bytes, res: ITxnResponse): TxnResult {
  if (!res.succeeded) return failed(codec, res);
  const rev = Number(res.header.revision);
  return { succeeded: true, revision: rev, kv: { key, value, createRevision: rev, modRevision: rev, version: 1 } };
}

export function updateResult(codec: KeyCodec, key: string, value: Bytes, res: ITxnResponse): TxnResult {
  if (!res.succeeded) return failed(codec, res);
  const rev = Number(res.header.revision);
  const prevRaw = res.responses[0]?.response_put?.prev_kv;
  const prevKv = prevRaw ? codec.kv(prevRaw) : undefined;
  const kv: KeyValue = {
    key,
    value,
    createRevision: prevKv ? prevKv.createRevision : rev,
    modRevision: rev,
    version: prevKv ? prevKv.version + 1 : 1,
  };
  return prevKv ? { succeeded: true, revision: rev, kv, prevKv } : { succeeded: true, revision: rev, kv };
}

/** A delete's kv is etcd's tombstone: the key at the delete's revision, empty, version 0. */
export function deleteResult(codec: KeyCodec, key: string, res: ITxnResponse): TxnResult {
  if (!res.succeeded) return failed(codec, res);
  const rev = Number(res.header.revision);
  const prevRaw = res.responses[0]?.response_delete_range?.prev_kvs[0];
  // Cannot happen: the guard proved the key existed in the same transaction.
  if (!prevRaw) throw new StorageError(`etcd: delete of ${key} succeeded without a previous value`);
  return {
    succeeded: true,
    revision: rev,
    kv: { key, value: EMPTY_VALUE, createRevision: 0, modRevision: rev, version: 0 },
    prevKv: codec.kv(prevRaw),
  };
}
