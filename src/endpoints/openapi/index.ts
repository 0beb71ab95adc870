/**
 * The OpenAPI endpoint: /openapi/v2 (Swagger 2.0, JSON), /openapi/v3 (index of per-group-version documents
 * with content hashes) and /openapi/v3/<path>. Documents are built from the catalog on first request and
 * kept until the catalog changes.
 *
 * Caching as kube-openapi's handlers do: every document has an ETag (quoted upper-case hex sha512 of its
 * bytes) and If-None-Match answers 304; a v3 URL with the current `?hash=` is immutable
 * (`Cache-Control: public, immutable`, Expires a year ahead); a stale hash redirects (301) to the current URL.
 */
import { createHash } from 'node:crypto';
import type { Catalog } from '../../api/catalog.ts';
import type { Endpoint, RequestContext } from '../../request/context.ts';
import { errors } from '../../machinery/errors.ts';
import { commonHeaders, respondBytes } from '../../request/respond.ts';
import { respondError } from '../respond.ts';
import { swaggerV2, v3Document, v3Keys, type DocumentOptions } from './documents.ts';
import type { SchemaSource } from '../../api/openapi/schemas.ts';
import { parseAccept } from '../discovery/negotiate.ts';
import { encodeSwaggerProtobuf } from './protobuf-v2.ts';
import { createProtobufSchemaSource } from './protobuf-source.ts';
import { withCustomResourceSchemas } from './custom-resources.ts';

/**
 * gnostic's protobuf form of Swagger 2.0 (kubectl ≤ 1.28, older client-go). Clients ask with the `@v1.0`
 * spelling; the response uses the `.v1.0` one, which Go's mime parser accepts (as kube-openapi does).
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const V2_PROTOBUF_SUBTYPES = new Set(['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf']);

export interface OpenApiEndpointOptions {
  catalog: Catalog;
  /** Kind schemas; default: generated from our protobuf type descriptions (permissive placeholders where none). */
  schemas?: SchemaSource;
  /**
   * Patch media types to advertise on PATCH operations. kubectl computes strategic merge patches from
   * OpenAPI v3 only when `application/strategic-merge-patch+json` is listed; list it once the server
   * applies them.
   */
  patchContentTypes?: readonly string[];
  /**
   * Build every document in the background this long after creation (ms), one per event-loop turn, so the
   * first client does not wait ~0.3-1 s for the index hashes. Negative disables. Default 1000. The timer is
   * unref'd: it never keeps the process alive, and the work is finite.
   */
  warmAfterMs?: number;
  /**
   * The warm-up timer starts when this settles (the server passes its readiness), not at creation: building
   * every document costs ~0.2 s of CPU, which would otherwise compete with the start itself.
   */
  warmWhen?: Promise<unknown>;
}

/** Built-in kinds accept all of these (custom resources will drop strategic merge patch). */
export const DEFAULT_PATCH_CONTENT_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

interface Encoded { body: Buffer; hash: string }

function hashed(body: Buffer): Encoded {
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() };
}

function encode(doc: unknown): Encoded {
  return hashed(Buffer.from(JSON.stringify(doc)));
}

/** 'json', 'protobuf' (only where allowed) or undefined when nothing acceptable is asked for; by q, then order. */
function negotiate(ctx: RequestContext, allowProtobuf: boolean): 'json' | 'protobuf' | undefined {
  const h = ctx.req.headers['accept'];
  const accept = Array.isArray(h) ? h.join(', ') : h;
  for (const e of parseAccept(accept)) {
    if ((e.type === '*' && e.subtype === '*') || (e.type === 'application' && (e.subtype === 'json' || e.subtype === '*'))) return 'json';
    if (allowProtobuf && e.type === 'application' && V2_PROTOBUF_SUBTYPES.has(e.subtype)) return 'protobuf';
  }
  return undefined;
}

export function createOpenApiEndpoint(opts: OpenApiEndpointOptions): Endpoint {
  const { catalog } = opts;
  const docOpts: DocumentOptions = { patchContentTypes: opts.patchContentTypes ?? DEFAULT_PATCH_CONTENT_TYPES };
  // Custom resources: their CRD's schema (custom-resources.ts); built-in kinds: the type descriptions.
  docOpts.schemas = withCustomResourceSchemas(opts.schemas ?? createProtobufSchemaSource());
  let cache = new Map<string, Encoded | null>();
  // The Swagger document object, shared by its JSON and protobuf encodings.
  let v2doc: Record<string, unknown> | undefined;
  catalog.onChange(() => { cache = new Map(); v2doc = undefined; });
  const swaggerDoc = (): Record<string, unknown> => (v2doc ??= swaggerV2(catalog, docOpts));

  const v3 = (key: string): Encoded | undefined => {
    if (!cache.has(`v3:${key}`)) {
      const doc = v3Document(catalog, key, docOpts);
      cache.set(`v3:${key}`, doc ? encode(doc) : null);
    }
    return cache.get(`v3:${key}`) ?? undefined;
  };
  const once = (key: string, encoder: () => Encoded): Encoded => {
    let e = cache.get(key);
    if (!e) cache.set(key, (e = encoder()));
    return e;
  };

  const send = (ctx: RequestContext, enc: Encoded, headers: Record<string, string> = {}, contentType = 'application/json'): void => {
    const etag = `"${enc.hash}"`;
    const h: Record<string, string> = { ETag: etag, Vary: 'Accept', ...headers };
    if (ctx.req.headers['if-none-match'] === etag) {
      ctx.res.writeHead(304, commonHeaders(ctx, { ...h, 'Cache-Control': h['Cache-Control'] ?? 'no-cache, private' }));
      ctx.res.end();
      return;
    }
    respondBytes(ctx, 200, contentType, enc.body, h);
  };

  const warmAfter = opts.warmAfterMs ?? 1000;
  if (warmAfter >= 0) {
    const keysToWarm = (): string[] => v3Keys(catalog);
    const warm = (): void => void setTimeout(() => {
      const queue = keysToWarm();
      const step = (): void => {
        const k = queue.shift();
        if (k === undefined) {
          once('v2', () => encode(swaggerDoc()));
          return;
        }
        v3(k);
        setImmediate(step).unref();
      };
      step();
    }, warmAfter).unref();
    if (opts.warmWhen) opts.warmWhen.then(warm, () => {});
    else warm();
  }

  const serve = async function openApiEndpoint(ctx: RequestContext, path: string): Promise<boolean> {
    const method = ctx.req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      respondBytes(ctx, 405, 'text/plain; charset=utf-8', '405: Method Not Allowed');
      return true;
    }
    const isV2 = path === '/openapi/v2';
    const format = negotiate(ctx, isV2);
    if (!format) {
      // v3 documents are served as JSON only; v2 also in gnostic protobuf.
      respondError(ctx, errors.notAcceptable(isV2 ? ['application/json', OPENAPI_V2_PROTOBUF] : ['application/json']));
      return true;
    }
    if (isV2) {
      if (format === 'protobuf') {
        send(ctx, once('v2pb', () => hashed(encodeSwaggerProtobuf(swaggerDoc()))), {}, OPENAPI_V2_PROTOBUF);
      } else {
        send(ctx, once('v2', () => encode(swaggerDoc())));
      }
      return true;
    }
    if (path === '/openapi/v3') {
      send(ctx, once('v3index', () => encode({
        paths: Object.fromEntries(v3Keys(catalog).flatMap((k) => {
          const enc = v3(k);
          return enc ? [[k, { serverRelativeURL: `/openapi/v3/${k}?hash=${enc.hash}` }]] : [];
        })),
      })));
      return true;
    }
    const key = path.slice('/openapi/v3/'.length);
    const enc = v3(key);
    if (!enc) {
      respondBytes(ctx, 404, 'text/plain; charset=utf-8', '404 page not found\n');
      return true;
    }
    const hash = ctx.query.get('hash');
    if (hash !== null && hash !== '') {
      if (hash !== enc.hash) {
        const location = `/openapi/v3/${key}?hash=${enc.hash}`;
        respondBytes(ctx, 301, 'text/html; charset=utf-8', `<a href="${location}">Moved Permanently</a>.\n\n`, { Location: location });
        return true;
      }
      const expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
      send(ctx, enc, { 'Cache-Control': 'public, immutable', Expires: expires });
      return true;
    }
    send(ctx, enc);
    return true;
  };
  return (ctx) => {
    if (!ctx.url.pathname.startsWith('/openapi/')) return false;
    const path = ctx.url.pathname.replace(/\/+$/, '');
    return path === '/openapi/v2' || path === '/openapi/v3' || path.startsWith('/openapi/v3/') ? serve(ctx, path) : false;
  };
}
