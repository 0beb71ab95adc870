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

/**
 * `f(v)`, synchronously when `v` is a value: the authenticators below stay synchronous as long as their members
 * are (client certificates, token files, cached tokens), so a request costs no promise per layer.
 */
export function andThen<T, U>(v: T | Promise<T>, f: (t: T) => U | Promise<U>): U | Promise<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}

export function unionAuthenticator(members: readonly Authenticator[]): Authenticator {
  const from = (req: AuthRequest, i: number, errs: string[]): AuthResult | Promise<AuthResult> => {
    for (; i < members.length; i++) {
      const r = members[i]!.authenticate(req);
      if (r instanceof Promise) {
        const next = i + 1;
        return r.then((x) => (x.kind === 'authenticated' ? x : from(req, next, x.kind === 'error' ? [...errs, x.message] : errs)));
      }
      if (r.kind === 'authenticated') return r;
      if (r.kind === 'error') errs.push(r.message);
    }
    return errs.length ? { kind: 'error', message: errs.join(', ') } : { kind: 'no-opinion' };
  };
  return {
    name: 'union',
    authenticate(req: AuthRequest): AuthResult | Promise<AuthResult> {
      try {
        return from(req, 0, []);
      } catch (err) {
        return Promise.reject(err);
      }
    },
  };
}

/**
 * A user that is never changed after authentication (token file entries, client certificates per connection):
 * frozen to the arrays, so one object can serve every request with that credential instead of a copy each.
 */
export function frozenUser(user: UserInfo): UserInfo {
  if (Object.isFrozen(user)) return user;
  // The types stay mutable (UserInfo is shared with code that builds users); freezing makes a stray write throw.
  const extra = user.extra && Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, Object.freeze([...v]) as string[]]));
  return Object.freeze({ ...user, groups: Object.freeze([...user.groups]) as string[], ...(extra ? { extra: Object.freeze(extra) } : {}) });
}

/** Frozen results of the frozen results authenticators hand back for the same credential (no copy per request). */
const withGroupMemo = new WeakMap<AuthResult, AuthResult>();

export function withAuthenticatedGroup(inner: Authenticator): Authenticator {
  const add = (r: AuthResult): AuthResult => {
    if (r.kind !== 'authenticated') return r;
    if (!Object.isFrozen(r)) return { ...r, user: addAuthenticatedGroup(r.user) };
    let out = withGroupMemo.get(r);
    if (!out) withGroupMemo.set(r, out = Object.freeze({ ...r, user: addAuthenticatedGroup(r.user) }));
    return out;
  };
  return {
    name: inner.name,
    authenticate(req: AuthRequest): AuthResult | Promise<AuthResult> {
      return andThen(inner.authenticate(req), add);
    },
  };
}

const addedGroupMemo = new WeakMap<UserInfo, UserInfo>();

/** Frozen users (see frozenUser) get one frozen answer, shared by every request that authenticates as them. */
export function addAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER) return user;
  if (user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) return user;
  if (!Object.isFrozen(user)) return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
  let out = addedGroupMemo.get(user);
  if (!out) addedGroupMemo.set(user, out = frozenUser({ ...user, groups: [...user.groups, AUTHENTICATED_GROUP] }));
  return out;
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
    authenticate(req: AuthRequest): AuthResult | Promise<AuthResult> {
      return andThen(inner.authenticate(req), (r) => (r.kind === 'no-opinion' ? anonymous.authenticate(req) : r));
    },
  };
}
