/**
 * Authenticator composition as kube-apiserver does it:
 *   union: members in order, the first success decides; errors are collected and reported only when no
 *          member succeeds (a bad client cert does not hide a good token);
 *   groups: every authenticated user gets `system:authenticated` (once; never for the anonymous user);
 *   anonymous: asked only when every member had no opinion and none failed (fail-on-error union).
 */
import type { UserInfo } from '../machinery/objects.ts';
import type { AuthRequest, AuthResult, Authenticator } from '../request/authenticator.ts';

export const AUTHENTICATED_GROUP = 'system:authenticated';
export const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';

export function unionAuthenticator(members: readonly Authenticator[]): Authenticator {
  return {
    name: 'union',
    async authenticate(req: AuthRequest): Promise<AuthResult> {
      const errs: string[] = [];
      for (const m of members) {
        const r = await m.authenticate(req);
        if (r.kind === 'authenticated') return r;
        if (r.kind === 'error') errs.push(r.message);
      }
      return errs.length ? { kind: 'error', message: errs.join(', ') } : { kind: 'no-opinion' };
    },
  };
}

export function withAuthenticatedGroup(inner: Authenticator): Authenticator {
  return {
    name: inner.name,
    async authenticate(req: AuthRequest): Promise<AuthResult> {
      const r = await inner.authenticate(req);
      if (r.kind !== 'authenticated') return r;
      return { ...r, user: addAuthenticatedGroup(r.user) };
    },
  };
}

export function addAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER) return user;
  if (user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

export function anonymousAuthenticator(): Authenticator {
  return {
    name: 'anonymous',
    authenticate: () => ({ kind: 'authenticated', method: 'anonymous', user: { username: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] } }),
  };
}

/** `authenticator` first; the anonymous user only when it had nothing to say (and reported no error). */
export function withAnonymousFallback(inner: Authenticator, anonymous: Authenticator): Authenticator {
  return {
    name: inner.name,
    async authenticate(req: AuthRequest): Promise<AuthResult> {
      const r = await inner.authenticate(req);
      return r.kind === 'no-opinion' ? anonymous.authenticate(req) : r;
    },
  };
}
