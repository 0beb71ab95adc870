/**
 * Impersonation as kube-apiserver does it: `Impersonate-User` (a `system:serviceaccount:<ns>:<name>` user is
 * impersonated as that service account), repeatable `Impersonate-Group`, `Impersonate-Uid`, and
 * `Impersonate-Extra-<key>` (key lower-cased and %-decoded). Each requested piece is authorized separately
 * with verb `impersonate` on users/groups/serviceaccounts (core) or userextras/uids (authentication.k8s.io);
 * the first refusal is a 403 about that piece. Groups, extras or a uid without a user is a 400.
 * On success the request runs as the impersonated user (plus system:authenticated, or system:unauthenticated
 * for system:anonymous) and the headers are removed.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../machinery/objects.ts';
import { errors } from '../../machinery/errors.ts';
import { respondError } from '../../endpoints/respond.ts';
import type { Attributes, Authorizer } from '../../request/authorizer.ts';
import { forbiddenError } from '../../authz/forbidden.ts';
import type { ServerContext, ServerHandler } from './types.ts';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA = 'impersonate-extra-';
const SA_PREFIX = 'system:serviceaccount:';
const AUTHN_GROUP = 'authentication.k8s.io';

interface Piece {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  fieldPath: string;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with valid names. */
function splitServiceAccount(user: string): { namespace: string; name: string } | undefined {
  if (!user.startsWith(SA_PREFIX)) return undefined;
  const parts = user.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (namespace.length > 63 || !DNS_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}

/** Header values by lower-case name; repeated headers stay separate values. */
export type DistinctHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

function all(headers: DistinctHeaders, name: string): string[] {
  const v = headers[name];
  if (v === undefined) return [];
  return Array.isArray(v) ? [...v] : [v as string];
}

/**
 * Every header line as its own value (Node joins repeated headers with ", " in `req.headers`, which would turn
 * `Impersonate-Group: a` + `Impersonate-Group: b` into one group "a, b").
 */
export function distinctHeaders(raw: readonly string[] | undefined, joined: IncomingHttpHeaders): DistinctHeaders {
  if (!raw) return joined;
  const out: Record<string, string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) (out[raw[i]!.toLowerCase()] ??= []).push(raw[i + 1]!);
  return out;
}

function unescapeExtraKey(k: string): string {
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
}

/** Go's %v of an ObjectReference, as kube's 400 message prints the requests. */
function goRef(p: Piece): string {
  return `{${p.kind} ${p.namespace} ${p.name}  ${p.apiVersion}  ${p.fieldPath}}`;
}

/** The impersonation pieces a request asks for (empty = no impersonation). Throws 400 for pieces without a user. */
export function impersonationRequests(headers: DistinctHeaders): Piece[] {
  const out: Piece[] = [];
  const user = all(headers, USER)[0] ?? '';
  if (user) {
    const sa = splitServiceAccount(user);
    out.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' }
      : { kind: 'User', namespace: '', name: user, apiVersion: '', fieldPath: '' });
  }
  let more = false;
  for (const g of all(headers, GROUP)) {
    more = true;
    out.push({ kind: 'Group', namespace: '', name: g, apiVersion: '', fieldPath: '' });
  }
  for (const h of Object.keys(headers)) {
    if (!h.startsWith(EXTRA)) continue;
    more = true;
    const key = unescapeExtraKey(h.slice(EXTRA.length).toLowerCase());
    for (const v of all(headers, h)) out.push({ kind: 'UserExtra', namespace: '', name: v, apiVersion: `${AUTHN_GROUP}/v1`, fieldPath: key });
  }
  const uid = all(headers, UID)[0] ?? '';
  if (uid) {
    more = true;
    out.push({ kind: 'UID', namespace: '', name: uid, apiVersion: `${AUTHN_GROUP}/v1`, fieldPath: '' });
  }
  if (more && !user) throw errors.badRequest(`requested [${out.map(goRef).join(' ')}] without impersonating a user`);
  return out;
}

/** Whether any header (Node's lower-cased names) starts with `impersonate-`. */
function asksToImpersonate(headers: IncomingHttpHeaders): boolean {
  for (const name in headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

export function withImpersonation(next: ServerHandler, deps: { authorizer: Authorizer }): ServerHandler {
  const impersonating = async (ctx: ServerContext): Promise<void> => {
    let pieces: Piece[];
    const headers = distinctHeaders(ctx.req.rawHeaders, ctx.req.headers);
    try {
      pieces = impersonationRequests(headers);
    } catch (err) {
      respondError(ctx, err);
      return;
    }
    if (!pieces.length) {
      await next(ctx);
      return;
    }
    const groupsSpecified = all(headers, GROUP).length > 0;
    let username = '';
    let groups: string[] = [];
    const extra: Record<string, string[]> = {};
    let uid = '';
    for (const p of pieces) {
      const base = { user: ctx.user, verb: 'impersonate', isResourceRequest: true, path: ctx.info.path, apiVersion: 'v1', namespace: '', name: p.name, subresource: '' };
      let attrs: Attributes;
      switch (p.kind) {
        case 'ServiceAccount':
          attrs = { ...base, apiGroup: '', resource: 'serviceaccounts', namespace: p.namespace };
          username = `${SA_PREFIX}${p.namespace}:${p.name}`;
          if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${p.namespace}`];
          break;
        case 'User':
          attrs = { ...base, apiGroup: '', resource: 'users' };
          username = p.name;
          break;
        case 'Group':
          attrs = { ...base, apiGroup: '', resource: 'groups' };
          groups.push(p.name);
          break;
        case 'UserExtra':
          attrs = { ...base, apiGroup: AUTHN_GROUP, resource: 'userextras', subresource: p.fieldPath };
          (extra[p.fieldPath] ??= []).push(p.name);
          break;
        case 'UID':
          attrs = { ...base, apiGroup: AUTHN_GROUP, resource: 'uids' };
          uid = p.name;
          break;
      }
      const d = await deps.authorizer.authorize(attrs);
      if (d.kind !== 'allow') {
        respondError(ctx, forbiddenError(attrs, d.reason));
        return;
      }
    }
    if (username !== 'system:anonymous') {
      if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
    } else if (!groups.includes('system:unauthenticated')) groups.push('system:unauthenticated');
    const user: UserInfo = { username, groups };
    if (uid) user.uid = uid;
    if (Object.keys(extra).length) user.extra = extra;
    ctx.user = user;
    ctx.audit?.logImpersonatedUser(user);
    for (const h of Object.keys(ctx.req.headers)) {
      if (h === USER || h === GROUP || h === UID || h.startsWith(EXTRA)) delete ctx.req.headers[h];
    }
    await next(ctx);
  };
  // Almost no request impersonates: skip re-reading every raw header line unless one asks to, and hand on
  // next's promise without a frame of our own.
  return function impersonation(ctx) {
    return asksToImpersonate(ctx.req.headers) ? impersonating(ctx) : next(ctx);
  };
}
