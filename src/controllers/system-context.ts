/**
 * The identity and OpContext in-process controllers and bootstrap use when they call the registry directly
 * (kube-apiserver's own loopback client authenticates as `system:apiserver` in `system:masters`).
 */
import type { UserInfo } from '../machinery/objects.ts';
import type { OpContext } from '../registry/rest.ts';
import { StatusError } from '../machinery/errors.ts';

export const SYSTEM_USER: UserInfo = Object.freeze({ username: 'system:apiserver', groups: ['system:masters'] }) as UserInfo;

/** A fresh context per call: `warnings` is mutable and must not be shared between calls. */
export function systemContext(opts: { namespace?: string; subresource?: string; signal?: AbortSignal } = {}): OpContext {
  return {
    namespace: opts.namespace ?? '',
    user: SYSTEM_USER,
    dryRun: false,
    fieldManager: 'kube-apiserver',
    subresource: opts.subresource ?? '',
    warnings: [],
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
}

export function isStatus(err: unknown, code: number): boolean {
  return err instanceof StatusError && err.code === code;
}

export const isNotFound = (err: unknown): boolean => isStatus(err, 404);
export const isAlreadyExists = (err: unknown): boolean => err instanceof StatusError && err.reason === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => err instanceof StatusError && err.reason === 'Conflict';

/** kube-apiserver marks "namespace is terminating" refusals with this cause reason (v1.NamespaceTerminatingCause). */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof StatusError && (err.details?.causes ?? []).some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE);
}

export type Logger = (msg: string) => void;
