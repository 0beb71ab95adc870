/**
 * The discovery endpoint: GET /api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>, with aggregated
 * discovery (apidiscovery.k8s.io v2/v2beta1) on /api and /apis when the Accept header asks for it.
 *
 * Aggregated responses carry `Vary: Accept` and an ETag (quoted upper-case hex sha512 of the JSON body, as
 * kube-apiserver computes it); a matching If-None-Match gets 304. Bodies are encoded once per catalog state
 * and re-encoded only after the catalog changes.
 */
import { createHash } from 'node:crypto';
import { stringify as toYaml } from 'yaml';
import type { Catalog } from '../../api/catalog.ts';
import type { Endpoint, RequestContext } from '../../request/context.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { commonHeaders, respondBytes } from '../../request/respond.ts';
import { respondError } from '../respond.ts';
import { apiGroupDoc, apiGroupList, apiResourceList, apiVersions, groupDiscoveryList } from './documents.ts';
import { DISCOVERY_MEDIA_TYPES, negotiateDiscovery } from './negotiate.ts';

export interface DiscoveryEndpointOptions {
  catalog: Catalog;
  /** Overrides the address reported in /api's serverAddressByClientCIDRs (default: the request's local address). */
  serverAddress?: string;
}

interface Encoded { body: Buffer; etag: string }

function encode(doc: unknown): Encoded {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
}

function localAddress(ctx: RequestContext): string {
  const sock = (ctx.req as { socket?: { localAddress?: string; localPort?: number } }).socket;
  let host = sock?.localAddress ?? '127.0.0.1';
  if (host.startsWith('::ffff:')) host = host.slice(7);
  const port = sock?.localPort ?? 443;
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export function createDiscoveryEndpoint(opts: DiscoveryEndpointOptions): Endpoint {
  const { catalog } = opts;
  let cache = new Map<string, Encoded>();
  // Invalidate on catalog change (CRDs); the subscription lives as long as the catalog.
  catalog.onChange(() => { cache = new Map(); });

  const cached = (key: string, build: () => unknown): Encoded => {
    let e = cache.get(key);
    if (!e) cache.set(key, (e = encode(build())));
    return e;
  };

  /** No discovery document lives more than three segments deep (/apis/<group>/<version>). */
  const mightServe = (path: string): boolean => path.startsWith('/api') && path.split('/', 6).length <= 5;
  const serve = async function discoveryEndpoint(ctx: RequestContext): Promise<boolean> {
    const method = ctx.req.method ?? 'GET';
    let path = ctx.url.pathname;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const segs = path.split('/').slice(1);
    const root = segs[0];
    if (root !== 'api' && root !== 'apis') return false;
    if (segs.length > 3 || (root === 'api' && segs.length > 2)) return false;

    // Resolve the document before looking at the method so unknown paths fall through untouched.
    let build: (() => unknown) | undefined;
    let key = '';
    const aggregatable = segs.length === 1;
    if (root === 'api') {
      if (segs.length === 1) { key = 'api'; build = () => apiVersions(opts.serverAddress ?? localAddress(ctx)); }
      else if (segs[1] === 'v1' && catalog.groups().some((g) => g.name === '')) { key = 'api/v1'; build = () => apiResourceList(catalog, '', 'v1'); }
    } else if (segs.length === 1) {
      key = 'apis'; build = () => apiGroupList(catalog);
    } else {
      const g = catalog.groups().find((x) => x.name === segs[1] && x.name !== '');
      if (g && segs.length === 2) { key = `apis/${g.name}`; build = () => apiGroupDoc(g); }
      else if (g && segs.length === 3 && g.versions.includes(segs[2]!)) {
        const v = segs[2]!;
        key = `apis/${g.name}/${v}`; build = () => apiResourceList(catalog, g.name, v);
      }
    }
    if (!build) return false;
    if (method !== 'GET' && method !== 'HEAD') {
      respondError(ctx, new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}));
      return true;
    }

    const media = negotiateDiscovery(headerOf(ctx, 'accept'), aggregatable);
    if (media.kind === 'none') {
      respondError(ctx, errors.notAcceptable(DISCOVERY_MEDIA_TYPES));
      return true;
    }
    if (media.kind === 'aggregated') {
      const enc = cached(`agg:${root}:${media.version}`, () => groupDiscoveryList(catalog, root, media.version));
      const headers = { Vary: 'Accept', ETag: enc.etag };
      if (headerOf(ctx, 'if-none-match') === enc.etag) {
        ctx.res.writeHead(304, commonHeaders(ctx, { ...headers, 'Cache-Control': 'no-cache, private' }));
        ctx.res.end();
        return true;
      }
      respondBytes(ctx, 200, media.contentType, enc.body, headers);
      return true;
    }
    // /api depends on the connection's local address, so it is not cached.
    const enc = key === 'api' ? encode(build()) : cached(key, build);
    const headers: Record<string, string> = aggregatable ? { Vary: 'Accept' } : {};
    if (media.format === 'yaml') respondBytes(ctx, 200, media.contentType, toYaml(JSON.parse(enc.body.toString())), headers);
    else respondBytes(ctx, 200, media.contentType, enc.body, headers);
    return true;
  };
  return (ctx) => (mightServe(ctx.url.pathname) ? serve(ctx) : false);
}

function headerOf(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
