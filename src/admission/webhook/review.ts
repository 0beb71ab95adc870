/**
 * AdmissionReview on the wire (kube's webhook/request and the REST client's response handling):
 * - {@link encodeReview}: admission.k8s.io/v1 or v1beta1 request bytes as kube-apiserver sends them — Go field
 *   order, `object`/`oldObject`/`options` written as `null` when absent, `dryRun` always, `<`, `>`, `&`
 *   escaped, a trailing newline;
 * - {@link readReply}: the webhook's HTTP answer as client-go reads it (a non-2xx is an error built from a
 *   returned Status or from the status code; a 2xx body decodes as JSON or YAML), errors worded as Go's;
 * - {@link verifyReply}: kube's VerifyAdmissionResponse (uid, kind, patch rules per version).
 */
import { parse as parseYaml } from 'yaml';
import { goJsonSyntaxError } from '../../machinery/json/go-errors.ts';
import type { GroupVersionKind, KObject, UserInfo } from '../../machinery/objects.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import { canonicalObject } from '../../registry/codec.ts';
import type { Invocation } from '../matching/index.ts';
import { requestNamespace } from '../matching/rules.ts';

export type ReviewVersion = 'v1' | 'v1beta1';

/** The first version both sides speak (kube's CreateAdmissionObjects), undefined when none. */
export function reviewVersionFor(accepted: readonly string[] | undefined): ReviewVersion | undefined {
  for (const v of accepted ?? []) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** JSON as Go's encoding/json writes it (HTML-significant characters and the JS line separators escaped). */
export function goJson(value: unknown): string {
  const text = JSON.stringify(value);
  return /[<>&\u2028\u2029]/.test(text) ? text.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c) : text;
}

const gvkJson = (k: GroupVersionKind) => ({ group: k.group, version: k.version, kind: k.kind });
const apiVersion = (k: GroupVersionKind): string => (k.group ? `${k.group}/${k.version}` : k.version);

function userInfoJson(u: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (u.username) out['username'] = u.username;
  if (u.uid) out['uid'] = u.uid;
  if (u.groups?.length) out['groups'] = u.groups;
  if (u.extra && Object.keys(u.extra).length) out['extra'] = u.extra;
  return out;
}

/** An object as the review carries it: the invocation's kind, kube's top-level field order. */
function objectJson(obj: KObject | undefined, kind: GroupVersionKind): KObject | null {
  if (!obj) return null;
  return canonicalObject({ ...obj, kind: kind.kind, apiVersion: apiVersion(kind) }, obj.metadata?.resourceVersion);
}

export interface ReviewRequest {
  readonly uid: string;
  readonly version: ReviewVersion;
  readonly attrs: AdmissionAttributes;
  readonly invocation: Invocation;
  /** The objects in the invocation's version. */
  readonly object: KObject | undefined;
  readonly oldObject: KObject | undefined;
}

/** The request body (kube's CreateV1AdmissionReview / CreateV1beta1AdmissionReview, JSON-encoded). */
export function encodeReview(r: ReviewRequest): Buffer {
  const a = r.attrs;
  const inv = r.invocation;
  const request: Record<string, unknown> = {
    uid: r.uid,
    kind: gvkJson(inv.kind),
    resource: { group: inv.resource.group, version: inv.resource.version, resource: inv.resource.resource },
  };
  if (inv.subresource) request['subResource'] = inv.subresource;
  request['requestKind'] = gvkJson(a.requestKind);
  request['requestResource'] = { group: a.requestResource.group, version: a.requestResource.version, resource: a.requestResource.resource };
  if (a.requestSubResource) request['requestSubResource'] = a.requestSubResource;
  if (a.name) request['name'] = a.name;
  const ns = requestNamespace(a);
  if (ns) request['namespace'] = ns;
  request['operation'] = a.operation;
  request['userInfo'] = userInfoJson(a.user);
  request['object'] = objectJson(r.object, inv.kind);
  request['oldObject'] = objectJson(r.oldObject, inv.kind);
  request['dryRun'] = a.dryRun;
  request['options'] = a.options ?? null;
  return Buffer.from(`${goJson({ kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${r.version}`, request })}\n`);
}

/** What a webhook answered, decoded (kube's AdmissionResponse after VerifyAdmissionResponse). */
export interface VerifiedResponse {
  readonly allowed: boolean;
  readonly patch?: Buffer;
  /** '' without a patch; v1beta1 patches are JSONPatch. */
  readonly patchType: string;
  /** metav1.Status of a denial. */
  readonly result?: Record<string, unknown>;
  readonly auditAnnotations?: Record<string, string>;
  readonly warnings?: string[];
}

/** An error decoding or verifying the reply: the message is kube's (the caller prefixes its context). */
export class ReplyError extends Error {
  override name = 'ReplyError';
}

const MAX_UNSTRUCTURED_TEXT = 1024;

/** client-go's NewGenericServerResponse message for a non-2xx without a Status. */
function genericServerMessage(code: number, serverMessage: string): string {
  switch (code) {
    case 409: return 'the server reported a conflict';
    case 404: return 'the server could not find the requested resource';
    case 400: return 'the server rejected our request for an unknown reason';
    case 401: return 'the server has asked for the client to provide credentials';
    case 403: return serverMessage;
    case 406: return serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
    case 415: return serverMessage;
    case 405: return 'the server does not allow this method on the requested resource';
    case 422: return 'the server rejected our request due to an error in our request';
    case 503: return 'the server is currently unable to handle the request';
    case 504: return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429: return 'the server has received too many requests and has asked us to try again later';
    default:
      if (code >= 500) return `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
      return `the server responded with the status code ${code} but did not return more information`;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** The body decoded as kube's universal decoder would read it (JSON, else YAML), or a ReplyError. */
function decodeBody(text: string): unknown {
  if (/^\s*\{/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      throw new ReplyError(`couldn't get version/kind; json parse error: ${goJsonSyntaxError(text) || 'unexpected end of JSON input'}`);
    }
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ReplyError(`error converting YAML to JSON: yaml: ${((e as Error).message.split('\n')[0] ?? '').trim()}`);
  }
  if (!isObj(doc)) {
    throw new ReplyError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  return doc;
}

/** A non-2xx answer as client-go's Result.Error() words it. */
function statusCodeError(status: number, contentType: string, text: string): ReplyError {
  if (text) {
    try {
      const body = decodeBody(text);
      if (isObj(body) && body['kind'] === 'Status' && body['status'] === 'Failure' && typeof body['message'] === 'string') {
        return new ReplyError(body['message']);
      }
    } catch {
      // not a Status: the generic message below
    }
  }
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  const message = media.startsWith('text/') ? text.slice(0, MAX_UNSTRUCTURED_TEXT).trim() : 'unknown';
  return new ReplyError(genericServerMessage(status, message));
}

/** kube's typed decode of the fields it reads: a wrong JSON type is Go's unmarshal error. */
function checkTypes(review: Record<string, unknown>, version: ReviewVersion): void {
  const fail = (value: unknown, struct: string, path: string, goType: string): never => {
    throw new ReplyError(`json: cannot unmarshal ${jsonKind(value) === 'bool' ? 'bool' : jsonKind(value)} into Go struct field ${struct}.${path} of type ${goType}`);
  };
  const resp = review['response'];
  if (resp === undefined || resp === null) return;
  const pkg = version;
  if (!isObj(resp)) fail(resp, 'AdmissionReview', 'response', `${pkg}.AdmissionResponse`);
  const r = resp as Record<string, unknown>;
  const checks: Array<[string, (v: unknown) => boolean, string]> = [
    ['uid', (v) => typeof v === 'string', 'types.UID'],
    ['allowed', (v) => typeof v === 'boolean', 'bool'],
    ['patch', (v) => typeof v === 'string', '[]uint8'],
    ['patchType', (v) => typeof v === 'string', `${pkg}.PatchType`],
    ['status', isObj, 'v1.Status'],
    ['auditAnnotations', isObj, 'map[string]string'],
    ['warnings', Array.isArray, '[]string'],
  ];
  for (const [k, ok, goType] of checks) {
    const v = r[k];
    if (v === undefined || v === null) continue;
    if (!ok(v)) fail(v, 'AdmissionResponse', `response.${k}`, goType);
  }
  for (const [k, v] of Object.entries(isObj(r['auditAnnotations']) ? r['auditAnnotations'] : {})) {
    if (typeof v !== 'string' && v !== null) fail(v, 'AdmissionResponse', `response.auditAnnotations.${k}`, 'string');
  }
  for (const w of Array.isArray(r['warnings']) ? r['warnings'] : []) {
    if (typeof w !== 'string' && w !== null) fail(w, 'AdmissionResponse', 'response.warnings', 'string');
  }
}

/** Go's base64 decoding of a []byte field (StdEncoding, padding required). */
function decodePatch(s: string): Buffer {
  const clean = s.replace(/[\r\n]/g, '');
  const bad = /[^A-Za-z0-9+/=]/.exec(clean);
  if (bad) throw new ReplyError(`illegal base64 data at input byte ${bad.index}`);
  if (clean.length % 4 !== 0) throw new ReplyError(`illegal base64 data at input byte ${clean.length - (clean.length % 4)}`);
  return Buffer.from(clean, 'base64');
}

/** Reads the HTTP answer (client-go's transformResponse + Into); resolves to the decoded review. */
export function readReply(status: number, contentType: string, body: Buffer, version: ReviewVersion): Record<string, unknown> {
  const text = body.toString('utf8');
  if (status < 200 || status > 206) throw statusCodeError(status, contentType, text);
  if (body.length === 0) throw new ReplyError(`0-length response with status code: ${status} and content type: ${contentType}`);
  const doc = decodeBody(text) as Record<string, unknown>;
  checkTypes(doc, version);
  return doc;
}

/** kube's GroupVersionKind.String() of a decoded object's TypeMeta. */
function gvkOf(doc: Record<string, unknown>): string {
  const av = typeof doc['apiVersion'] === 'string' ? doc['apiVersion'] : '';
  const kind = typeof doc['kind'] === 'string' ? doc['kind'] : '';
  const slash = av.lastIndexOf('/');
  const group = slash < 0 ? '' : av.slice(0, slash);
  const ver = slash < 0 ? av : av.slice(slash + 1);
  return `${group}/${ver}, Kind=${kind}`;
}

/** kube's VerifyAdmissionResponse. */
export function verifyReply(uid: string, mutating: boolean, version: ReviewVersion, doc: Record<string, unknown>): VerifiedResponse {
  const r = doc['response'];
  if (!isObj(r)) throw new ReplyError('webhook response was absent');
  const patchRaw = typeof r['patch'] === 'string' ? r['patch'] : '';
  const patch = patchRaw ? decodePatch(patchRaw) : undefined;
  const hasPatchType = r['patchType'] !== undefined && r['patchType'] !== null;
  const base = {
    allowed: r['allowed'] === true,
    ...(isObj(r['status']) ? { result: r['status'] } : {}),
    ...(isObj(r['auditAnnotations']) ? { auditAnnotations: r['auditAnnotations'] as Record<string, string> } : {}),
    ...(Array.isArray(r['warnings']) ? { warnings: (r['warnings'] as unknown[]).map((w) => (typeof w === 'string' ? w : '')) } : {}),
  };
  if (version === 'v1beta1') {
    // v1beta1 never checked uid or kind; a patch is a JSON patch.
    if (!mutating || !patch?.length) return { ...base, patchType: '' };
    return { ...base, patch, patchType: 'JSONPatch' };
  }
  const got = typeof r['uid'] === 'string' ? r['uid'] : '';
  if (got !== uid) throw new ReplyError(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(got)}`);
  const kind = gvkOf(doc);
  if (kind !== 'admission.k8s.io/v1, Kind=AdmissionReview') {
    throw new ReplyError(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${kind}`);
  }
  if (mutating) {
    if (patch?.length && !hasPatchType) throw new ReplyError('webhook returned response.patch but not response.patchType');
    if (!patch?.length && hasPatchType) throw new ReplyError('webhook returned response.patchType but not response.patch');
    const patchType = hasPatchType ? String(r['patchType']) : '';
    if (hasPatchType && patchType === '') throw new ReplyError(`webhook returned invalid response.patchType of ${JSON.stringify(patchType)}`);
    return { ...base, ...(patch?.length ? { patch } : {}), patchType };
  }
  if (patch?.length) throw new ReplyError('validating webhook may not return response.patch');
  if (hasPatchType) throw new ReplyError('validating webhook may not return response.patchType');
  return { ...base, patchType: '' };
}
