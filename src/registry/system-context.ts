/**
 * The identity and OpContext in-process controllers and bootstrap use when they call the registry directly
 * (kube-apiserver's own loopback client authenticates as `system:apiserver` in `system:masters`).
 */
import type { UserInfo } from '../machinery/objects.ts';
import type { OpContext } from './rest.ts';

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

export type Logger = (msg: string) => void;
