/**
 * The 403 body kube-apiserver writes (responsewriters.ForbiddenStatusError + apierrors.NewForbidden):
 *   resource:     `configmaps is forbidden: User "u" cannot list resource "configmaps" in API group "" in the namespace "ns"`
 *   named:        `pods "p" is forbidden: User "u" cannot get resource "pods/log" in API group "" in the namespace "ns"`
 *   cluster:      `... at the cluster scope`
 *   non-resource: `forbidden: User "u" cannot get path "/foo"` with empty details
 * followed by `: <reason>` when the authorizer gave one.
 */
import { StatusError } from '../machinery/errors.ts';
import type { Attributes } from '../request/authorizer.ts';

// Avoid emitting errors that look like valid HTML (kube's sanitizer); quotes stay.
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Go's %q for the strings we print (ASCII printable stays, quotes and backslashes are escaped). */
function q(s: string): string {
  return JSON.stringify(s);
}

export function forbiddenMessage(a: Attributes): string {
  const user = a.user.username;
  if (!a.isResourceRequest) return `User ${q(user)} cannot ${a.verb} path ${q(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${q(a.namespace)}` : 'at the cluster scope';
  return `User ${q(user)} cannot ${a.verb} resource ${q(resource)} in API group ${q(a.apiGroup)} ${scope}`;
}

export function forbiddenError(a: Attributes, reason?: string): StatusError {
  const msg = sanitize(forbiddenMessage(a)) + (reason ? `: ${reason}` : '');
  const gr = a.resource ? (a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource) : '';
  if (!gr && !a.apiGroup) return new StatusError(403, 'Forbidden', `forbidden: ${msg}`, {});
  const message = a.name ? `${gr} ${q(a.name)} is forbidden: ${msg}` : `${gr} is forbidden: ${msg}`;
  const details: { name?: string; group?: string; kind?: string } = {};
  if (a.name) details.name = a.name;
  if (a.apiGroup) details.group = a.apiGroup;
  if (a.resource) details.kind = a.resource;
  return new StatusError(403, 'Forbidden', message, details);
}
