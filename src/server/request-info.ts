/**
 * kube-apiserver's RequestInfoFactory: what a URL and method mean for authorization and routing.
 *   /api/v1/namespaces/ns/pods/p/log → get pods/log "p" in ns;  /apis/apps/v1/deployments → list across namespaces
 *   /api/v1/namespaces/ns            → the namespaces resource, name "ns" (status and finalize are its subresources)
 *   /api/v1/watch/namespaces/ns/pods → watch (legacy prefix);   ?watch=true|1 on a collection GET → watch
 *   GET without a name → list; DELETE without a name → deletecollection; HEAD → get
 *   a list/watch whose fieldSelector pins `metadata.name=x` carries name "x" (authorization sees it)
 * Anything with fewer segments, or another prefix, is a non-resource request with the lower-case method as verb.
 */
import type { RequestInfo } from '../request/context.ts';

const API_PREFIXES = new Set(['api', 'apis']);
const GROUPLESS_PREFIXES = new Set(['api']);
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
const SPECIAL_VERBS_NO_SUBRESOURCES = new Set(['proxy']);
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export class RequestInfoError extends Error {
  override name = 'RequestInfoError';
  constructor(message: string, readonly partial: RequestInfo) {
    super(message);
  }
}

function splitPath(p: string): string[] {
  const t = p.replace(/^\/+|\/+$/g, '');
  return t === '' ? [] : t.split('/');
}

/** strconv.ParseBool as ListOptions decoding uses it; invalid values count as "set" like kube's fallback. */
function watchRequested(query: URLSearchParams): boolean {
  const v = query.getAll('watch');
  if (!v.length) return false;
  const s = v[0]!.toLowerCase();
  return !(s === 'false' || s === '0' || s === 'f');
}

/** The name an exact `metadata.name=x` (or `==`) requirement pins, if the selector has one. */
export function exactNameFromFieldSelector(sel: string): string | undefined {
  for (const term of splitSelector(sel)) {
    const m = /^\s*metadata\.name\s*(==|=)\s*(.*?)\s*$/.exec(term);
    if (m) return unescapeSelectorValue(m[2]!);
  }
  return undefined;
}

/** Splits on commas that are not escaped with a backslash (field selector syntax). */
function splitSelector(sel: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i]!;
    if (c === '\\' && i + 1 < sel.length) { cur += c + sel[i + 1]; i++; continue; }
    if (c === ',') { out.push(cur); cur = ''; continue; }
    cur += c;
  }
  out.push(cur);
  return out;
}

function unescapeSelectorValue(v: string): string {
  return v.replace(/\\([\\,=])/g, '$1');
}

/** content.IsPathSegmentName: not `.`/`..`, no `/` or `%`. */
function isPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/**
 * Derives the request info. Throws RequestInfoError (with the partial info) for `/api/v1/watch` without a
 * resource, as kube does ("unable to determine kind and namespace from url").
 */
export function newRequestInfo(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const base = { isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [] as string[] };
  let parts = splitPath(path);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return base;
  const info = { ...base, apiPrefix: parts[0]! };
  parts = parts.slice(1);
  if (!GROUPLESS_PREFIXES.has(info.apiPrefix)) {
    if (parts.length < 3) return base;
    info.apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  info.isResourceRequest = true;
  info.apiVersion = parts[0]!;
  parts = parts.slice(1);

  if (SPECIAL_VERBS.has(parts[0]!)) {
    if (parts.length < 2) throw new RequestInfoError(`unable to determine kind and namespace from url, ${url.pathname}${url.search}`, info);
    info.verb = parts[0]!;
    parts = parts.slice(1);
  } else {
    switch (method) {
      case 'POST': info.verb = 'create'; break;
      case 'GET': case 'HEAD': info.verb = 'get'; break;
      case 'PUT': info.verb = 'update'; break;
      case 'PATCH': info.verb = 'patch'; break;
      case 'DELETE': info.verb = 'delete'; break;
      default: info.verb = '';
    }
  }

  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      info.namespace = parts[1]!;
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }
  info.parts = parts;
  if (parts.length >= 3 && !SPECIAL_VERBS_NO_SUBRESOURCES.has(info.verb)) info.subresource = parts[2]!;
  if (parts.length >= 2) info.name = parts[1]!;
  if (parts.length >= 1) info.resource = parts[0]!;

  if (!info.name && info.verb === 'get') {
    info.verb = watchRequested(url.searchParams) ? 'watch' : 'list';
    const fs = url.searchParams.get('fieldSelector');
    if (fs) {
      const name = exactNameFromFieldSelector(fs);
      if (name !== undefined && isPathSegmentName(name)) info.name = name;
    }
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}

/** Distinct (method, path) pairs remembered; past this the memo starts over (URLs are client-chosen). */
const INFO_MEMO_MAX = 4096;
const infoMemo = new Map<string, RequestInfo>();

/**
 * newRequestInfo, remembered per (method, path) when the query cannot change the answer: clients repeat the
 * same few URLs, and deriving the info costs a split and several arrays per request. A GET or HEAD with a query
 * is derived afresh (`watch` and `fieldSelector` change a collection's verb and name). The memoized infos are
 * frozen, since every request with that URL shares one.
 */
export function requestInfoFor(method: string, url: URL): RequestInfo {
  if (url.search !== '' && (method === 'GET' || method === 'HEAD')) return newRequestInfo(method, url);
  const key = `${method} ${url.pathname}`;
  let info = infoMemo.get(key);
  if (info) return info;
  info = newRequestInfo(method, url);
  Object.freeze(info.parts);
  Object.freeze(info);
  if (infoMemo.size >= INFO_MEMO_MAX) infoMemo.clear();
  infoMemo.set(key, info);
  return info;
}
