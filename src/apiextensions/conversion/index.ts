/**
 * Version conversion of custom resources (apiextensions-apiserver pkg/apiserver/conversion):
 *
 * - `None`: only `apiVersion` is rewritten (nop_converter.go).
 * - `Webhook`: a `ConversionReview` (apiextensions.k8s.io/v1; v1beta1 when that is the only version the CRD
 *   lists) is POSTed to `clientConfig.url`, or to the referenced Service (`https://<name>.<ns>.svc:<port><path>`
 *   unless the caller resolves services, see {@link ConverterDeps}), trusting `caBundle`, 30 s timeout.
 *   The reply must be a v1 ConversionReview with the request's uid, `result.status: Success` and one object
 *   per object sent, each of the desired apiVersion, the same kind, name, namespace and uid; from the reply's
 *   metadata only labels and annotations are kept (kube's restoreObjectMeta). Failures are 500 Internal
 *   errors worded as kube's (`conversion webhook for stable.example.com/v2, Kind=CronTab failed: …`).
 *
 * Objects already in the desired version are not sent; a list is converted in one review.
 */
import { randomUUID } from 'node:crypto';
import type { KObject } from '../../machinery/objects.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { postJson } from '../../webhook/client.ts';
import { isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.ts';

export interface CrdConverter {
  /** Converts one object to `toApiVersion` (`group/version`). Rejects with a 500 StatusError on failure. */
  convert(obj: KObject, toApiVersion: string): Promise<KObject>;
  /** Converts several objects (a list) in one call; order kept. */
  convertMany(objs: readonly KObject[], toApiVersion: string): Promise<KObject[]>;
  /** `None` or `Webhook`. */
  readonly strategy: 'None' | 'Webhook';
}

export interface ConverterDeps {
  /**
   * Turns a service reference into the base URL to dial (`https://10.0.0.5:443`), e.g. from the Service's
   * ClusterIP or endpoints. Undefined result or no resolver: the in-cluster DNS name is dialed.
   */
  resolveService?(namespace: string, name: string, port: number): Promise<string | undefined>;
  /** Override of the 30 s timeout (tests). */
  timeoutMs?: number;
}

type J = Record<string, unknown>;
const obj = (v: unknown): J => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as J) : {});

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The smallest reply size limit: kube's conversion client sets none, and a reply carries every object of a
 * list page (each up to etcd's 1.5 MiB), so webhook's 3 MiB default is far too small. Replies to large
 * requests may be twice the request's size (converted objects can grow).
 */
export const MIN_CONVERSION_REPLY_BYTES = 64 * 1024 * 1024;

let defaultServiceResolver: ConverterDeps['resolveService'];

/**
 * The service resolver converters use when `createCrdConverter` gets none (set once at server start by code
 * that can read Services, e.g. to dial a ClusterIP). Pass undefined to clear it (tests).
 */
export function setDefaultServiceResolver(resolver: ConverterDeps['resolveService']): void {
  defaultServiceResolver = resolver;
}

/** The Go rendering of a GroupVersionKind (`stable.example.com/v1, Kind=CronTab`). */
function gvkString(apiVersion: string | undefined, kind: string | undefined): string {
  return `${apiVersion ?? ''}, Kind=${kind ?? ''}`;
}

function nopConvert(o: KObject, toApiVersion: string): KObject {
  return { ...o, apiVersion: toApiVersion };
}

/** True for objects that are only TypeMeta (kube converts those without calling the webhook). */
function isEmptyObject(o: KObject): boolean {
  const keys = Object.keys(o);
  return keys.length === 2 && keys.includes('kind') && keys.includes('apiVersion');
}

export function createCrdConverter(crd: KObject, deps: ConverterDeps = {}): CrdConverter {
  const conversion = obj(obj(crd['spec'])['conversion']);
  if (conversion['strategy'] !== 'Webhook') {
    return {
      strategy: 'None',
      convert: (o, to) => Promise.resolve(nopConvert(o, to)),
      convertMany: (objs, to) => Promise.resolve(objs.map((o) => nopConvert(o, to))),
    };
  }
  const webhook = obj(conversion['webhook']);
  const clientConfig = obj(webhook['clientConfig']);
  const reviewVersions = Array.isArray(webhook['conversionReviewVersions']) ? webhook['conversionReviewVersions'].map(String) : ['v1'];
  const reviewVersion = reviewVersions.find((v) => v === 'v1' || v === 'v1beta1');
  const caBundle = typeof clientConfig['caBundle'] === 'string' && clientConfig['caBundle'] !== ''
    ? Buffer.from(clientConfig['caBundle'], 'base64').toString('utf8') : undefined;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const targetUrl = async (): Promise<string> => {
    if (typeof clientConfig['url'] === 'string') return clientConfig['url'];
    const svc = obj(clientConfig['service']);
    const ns = String(svc['namespace'] ?? '');
    const name = String(svc['name'] ?? '');
    const port = typeof svc['port'] === 'number' ? svc['port'] : 443;
    const path = typeof svc['path'] === 'string' ? svc['path'] : '';
    const resolve = deps.resolveService ?? defaultServiceResolver;
    const base = (await resolve?.(ns, name, port)) ?? `https://${name}.${ns}.svc:${port}`;
    return `${base.replace(/\/$/, '')}${path}`;
  };

  const convertMany = async (objs: readonly KObject[], to: string): Promise<KObject[]> => {
    const pending: number[] = [];
    objs.forEach((o, i) => {
      if (o.apiVersion !== to && !isEmptyObject(o)) pending.push(i);
    });
    const out = objs.map((o) => (isEmptyObject(o) ? nopConvert(o, to) : o));
    if (pending.length === 0) return out;
    const first = objs[pending[0]!]!;
    const gvk = gvkString(first.apiVersion, first.kind);
    const fail = (why: string): never => {
      throw errors.internal(why);
    };
    if (!reviewVersion) fail('no supported conversion review versions');
    const uid = randomUUID();
    const request = {
      kind: 'ConversionReview',
      apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
      request: { uid, desiredAPIVersion: to, objects: pending.map((i) => objs[i]) },
    };
    let reply: { status: number; body: unknown };
    let url = '';
    try {
      url = withTimeoutParam(await targetUrl(), timeoutMs);
      const maxResponseBytes = Math.max(MIN_CONVERSION_REPLY_BYTES, 2 * Buffer.byteLength(JSON.stringify(request)));
      reply = await postJson({ url, ...(caBundle ? { caPem: caBundle } : {}), timeoutMs, body: request, maxResponseBytes });
    } catch (e) {
      if (e instanceof StatusError) throw e;
      return fail(`conversion webhook for ${gvk} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (reply.status < 200 || reply.status > 299) {
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? '');
      const why = reply.status >= 500
        ? `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`
        : `the server responded with the status code ${reply.status} but did not return more information`;
      fail(`conversion webhook for ${gvk} failed: ${why}`);
    }
    const converted = responseObjects(reply.body, uid, reviewVersion!);
    if (typeof converted === 'string') return fail(`conversion webhook for ${gvk} failed: ${converted}`);
    if (converted.length !== pending.length) {
      fail(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${pending.length}`);
    }
    const single = objs.length === 1;
    pending.forEach((idx, k) => {
      const original = objs[idx]!;
      const c = obj(converted[k]) as KObject;
      const at = single ? 'invalid object at index 0' : `invalid converted object at index ${k}`;
      if (c.apiVersion !== to) fail(`conversion webhook for ${gvk} returned ${at}: invalid groupVersion (expected ${to}, received ${String(c.apiVersion ?? '')})`);
      if (c.kind !== original.kind) fail(`conversion webhook for ${gvk} returned ${at}: invalid kind (expected ${original.kind ?? ''}, received ${String(c.kind ?? '')})`);
      const mismatch = sameIdentity(original, c);
      if (mismatch) fail(`conversion webhook for ${gvk} returned ${single ? 'invalid object' : `invalid converted object at index ${k}`}: ${mismatch}`);
      const metaErr = restoreObjectMeta(original, c);
      if (metaErr) fail(`conversion webhook for ${gvk} returned invalid metadata${single ? '' : ` in object at index ${k}`}: ${metaErr}`);
      out[idx] = c;
    });
    return out;
  };

  return {
    strategy: 'Webhook',
    convertMany,
    convert: async (o, to) => (await convertMany([o], to))[0]!,
  };
}

/** kube's webhook client adds `?timeout=30s` (the request's deadline) to the URL. */
function withTimeoutParam(url: string, ms: number): string {
  const t = `timeout=${Math.ceil(ms / 1000)}s`;
  return url.includes('?') ? `${url}&${t}` : `${url}?${t}`;
}

/** The converted objects of a reply, or why the reply is unusable (kube's getConvertedObjectsFromResponse). */
function responseObjects(body: unknown, uid: string, reviewVersion: string): unknown[] | string {
  const review = obj(body);
  const want = `apiextensions.k8s.io/${reviewVersion}`;
  if (reviewVersion === 'v1' && (review['apiVersion'] !== want || review['kind'] !== 'ConversionReview')) {
    return `expected webhook response of ${want}, Kind=ConversionReview, got ${String(review['apiVersion'] ?? '')}, Kind=${String(review['kind'] ?? '')}`;
  }
  if (!('response' in review) || review['response'] === null) return 'no response provided';
  const response = obj(review['response']);
  if (reviewVersion === 'v1' && response['uid'] !== uid) return `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(String(response['uid'] ?? ''))}`;
  const result = obj(response['result']);
  if (result['status'] !== 'Success') {
    if (typeof result['message'] === 'string' && result['message'] !== '') return result['message'];
    return `response.result.status was '${String(result['status'] ?? '')}', not 'Success'`;
  }
  return Array.isArray(response['convertedObjects']) ? response['convertedObjects'] : [];
}

function sameIdentity(a: KObject, b: KObject): string | undefined {
  const am = obj(a.metadata);
  const bm = obj(b.metadata);
  if (a.kind !== b.kind) return `must have the same kind: ${a.kind ?? ''} != ${String(b.kind ?? '')}`;
  if ((am['name'] ?? '') !== (bm['name'] ?? '')) return `must have the same name: ${String(am['name'] ?? '')} != ${String(bm['name'] ?? '')}`;
  if ((am['namespace'] ?? '') !== (bm['namespace'] ?? '')) return `must have the same namespace: ${String(am['namespace'] ?? '')} != ${String(bm['namespace'] ?? '')}`;
  if ((am['uid'] ?? '') !== (bm['uid'] ?? '')) return `must have the same UID: ${String(am['uid'] ?? '')} != ${String(bm['uid'] ?? '')}`;
  return undefined;
}

/**
 * The converted object keeps the original metadata, except labels and annotations, which the webhook may
 * change (validated as kube validates them). Mutates `converted`; returns an error text when invalid.
 */
function restoreObjectMeta(original: KObject, converted: KObject): string | undefined {
  if (!('metadata' in converted)) return 'missing metadata in converted object';
  const response = converted.metadata as unknown;
  if (response === null || typeof response !== 'object' || Array.isArray(response)) return `invalid metadata of type ${typeof response} in converted object`;
  const meta: J = structuredClone(obj(original.metadata));
  for (const fld of ['labels', 'annotations'] as const) {
    const r = (response as J)[fld];
    if (r === undefined || r === null) {
      delete meta[fld];
      continue;
    }
    if (typeof r !== 'object' || Array.isArray(r)) return `invalid metadata.${fld} of type ${Array.isArray(r) ? '[]interface {}' : typeof r} in converted object`;
    for (const [k, v] of Object.entries(r as J)) {
      if (typeof v !== 'string') return `metadata.${fld}[${k}] must be a string, but is ${typeof v} in converted object`;
      if (fld === 'labels') {
        const e = [...isQualifiedName(k).map((m) => `metadata.labels: Invalid value: ${JSON.stringify(k)}: ${m}`),
          ...isValidLabelValue(v).map((m) => `metadata.labels: Invalid value: ${JSON.stringify(v)}: ${m}`)];
        if (e.length) return e.length === 1 ? e[0] : `[${e.join(', ')}]`;
      }
    }
    meta[fld] = r;
  }
  converted.metadata = meta as KObject['metadata'];
  return undefined;
}
