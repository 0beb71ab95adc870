/**
 * kube's URL library (apiserver/pkg/cel/library/urls.go): url, isURL and the getters, parsing as Go's
 * url.ParseRequestURI (absolute URIs or absolute paths; no fragments split off; scheme lower-cased).
 */
import { chargeTraversal } from '../runtime-cost.ts';
import { celError, fn, opaqueType, type CelJsEnv } from './register.ts';

export class CelURL {
  constructor(
    readonly raw: string,
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
  ) {}
  equals(o: unknown): boolean {
    return o instanceof CelURL && o.raw === this.raw;
  }
  toString(): string {
    return this.raw;
  }
  hostname(): string {
    const h = this.host;
    if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
    const c = h.lastIndexOf(':');
    return c >= 0 ? h.slice(0, c) : h;
  }
  port(): string {
    const h = this.host;
    const after = h.startsWith('[') ? h.slice(h.indexOf(']') + 1) : h.slice(Math.max(0, h.lastIndexOf(':')));
    return after.startsWith(':') ? after.slice(1) : '';
  }
}

const CTL = /[\x00-\x1f\x7f]/;
const BAD_ESCAPE = /%(?![0-9a-fA-F]{2})(.{0,2})/;

/** ParseRequestURI; the URL or Go's error text after `parse "<raw>": `. */
export function parseURL(raw: string): CelURL | string {
  const fail = (msg: string): string => `parse ${JSON.stringify(raw)}: ${msg}`;
  if (CTL.test(raw)) return fail('net/url: invalid control character in URL');
  if (raw === '') return fail('empty url');
  let rest = raw;
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/]*:/.test(rest) && !rest.startsWith('/')) {
    return fail(/^[0-9+.-]/.test(rest) ? 'first path segment in URL cannot contain colon' : 'missing protocol scheme');
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) return fail('invalid URI for request');
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.slice(at + 1);
    const err = checkHost(authority);
    if (err) return fail(err);
    host = authority;
  }
  const bad = BAD_ESCAPE.exec(rest);
  if (bad) return fail(`invalid URL escape ${JSON.stringify(`%${bad[1]}`)}`);
  return new CelURL(raw, scheme, host, rest, rawQuery);
}

function checkHost(host: string): string | undefined {
  let port = '';
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return "missing ']' in host";
    port = host.slice(close + 1);
    if (port !== '' && !/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
    return undefined;
  }
  const c = host.lastIndexOf(':');
  if (c >= 0) {
    port = host.slice(c);
    if (!/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
    host = host.slice(0, c);
  }
  const badChar = /[^A-Za-z0-9\-._~!$&'()*+,;=%]/.exec(host);
  if (badChar) return `invalid character ${JSON.stringify(badChar[0])} in host name`;
  return undefined;
}

function urlOrThrow(s: string): CelURL {
  chargeTraversal(s.length);
  const r = parseURL(s);
  if (typeof r === 'string') throw celError(`URL parse error during conversion from string: ${r}`);
  return r;
}

function unescapeQuery(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** url.ParseQuery as u.Query() uses it: malformed pairs are skipped. */
function query(u: CelURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const k = unescapeQuery(eq < 0 ? pair : pair.slice(0, eq));
    const v = unescapeQuery(eq < 0 ? '' : pair.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

export function registerURLs(env: CelJsEnv): void {
  opaqueType(env, 'kubernetes.URL', CelURL, true);
  fn(env, 'url(string): kubernetes.URL', urlOrThrow);
  fn(env, 'isURL(string): bool', (s: string) => (chargeTraversal(s.length), typeof parseURL(s) !== 'string'));
  fn(env, 'kubernetes.URL.getScheme(): string', (u: CelURL) => u.scheme);
  fn(env, 'kubernetes.URL.getHost(): string', (u: CelURL) => u.host);
  fn(env, 'kubernetes.URL.getHostname(): string', (u: CelURL) => u.hostname());
  fn(env, 'kubernetes.URL.getPort(): string', (u: CelURL) => u.port());
  fn(env, 'kubernetes.URL.getEscapedPath(): string', (u: CelURL) => u.path);
  fn(env, 'kubernetes.URL.getQuery(): map<string, list<string>>', query);
}
