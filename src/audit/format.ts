/**
 * The two line formats of the log backend: `json` (one Event per line, as kube's JSON serializer writes it:
 * Go's HTML escaping, a trailing newline) and `legacy` (kube's audit.EventString one-liner).
 */
import type { AuditEvent } from './types.ts';

const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

const encoded = new WeakMap<AuditEvent, string>();

/** The event's JSON line (with `\n`), computed once per event however many backends write it. */
export function encodeEvent(ev: AuditEvent): string {
  let line = encoded.get(ev);
  if (line === undefined) {
    const text = JSON.stringify(ev);
    line = `${/[<>&\u2028\u2029]/.test(text) ? text.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c) : text}\n`;
    encoded.set(ev, line);
  }
  return line;
}

/** Go's %q for plain strings (what EventString prints with). */
const q = (s: string): string => JSON.stringify(s);

/** Go's RFC3339Nano: trailing zeros of the fraction dropped. */
function rfc3339Nano(micro: string): string {
  const m = /^(.*T\d\d:\d\d:\d\d)\.(\d+)Z$/.exec(micro);
  if (!m) return micro;
  const frac = m[2]!.replace(/0+$/, '');
  return `${m[1]}${frac ? `.${frac}` : ''}Z`;
}

/** kube's EventString. */
export function legacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = ev.user.groups.map(q).join(',');
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asGroups = ev.impersonatedUser.groups.map(q).join(',');
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(asUser)} asgroups=${q(asGroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"\n`;
}
