/**
 * Request bodies: read with kube-apiserver's 3 MiB limit, decoded from JSON or YAML, checked against the
 * endpoint's group/version/kind, with strict-decoding findings (duplicate keys, unknown ObjectMeta keys)
 * handled per `fieldValidation` exactly as kube's create/update handlers do:
 *   Strict → 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: ...`
 *   Warn   → one `Warning` header per finding; Ignore → silent.
 */
import { isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { RequestContext } from '../../request/context.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { decodeEnvelope, decodeMessage, decodeProtobuf } from '../../api/protobuf/codec.ts';
import { messageSpec } from '../../api/protobuf/schema.ts';
import { JsonSyntaxError, scanJson, type ScanOptions, type SchemaNode } from '../../machinery/json/scan.ts';
import { typeErrorFor } from './type-check.ts';
import { CBOR, CborDecodeError, decodeCborValue } from './cbor.ts';

/** kube-apiserver's default `MaxRequestBodyBytes`. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** Media types accepted for object bodies (create/update), in kube's order. */
export const INPUT_TYPES = ['application/json', 'application/yaml', PROTOBUF] as const;
/** With the feature gate CBORServingAndStorage, CBOR bodies too (kube lists its serializer last). */
const INPUT_TYPES_WITH_CBOR = [...INPUT_TYPES, CBOR] as const;
export type InputType = (typeof INPUT_TYPES_WITH_CBOR)[number];

/**
 * Reads the whole body, failing with 413 as soon as it passes `limit` (the rest is discarded, not buffered).
 */
export async function readBody(ctx: RequestContext, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const req = ctx.req;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw errors.requestEntityTooLarge(`Request entity too large: limit is ${limit}`);
  }
  // Already consumed (or no body at all on a finished stream): nothing more will arrive.
  if (req.readableEnded) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  return await new Promise<Buffer>((resolve, reject) => {
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += b.byteLength;
      if (size > limit) {
        // Keep draining so the connection stays usable, but stop keeping bytes.
        req.resume();
        finish(errors.requestEntityTooLarge(`Request entity too large: limit is ${limit}`));
        return;
      }
      chunks.push(b);
    };
    const onEnd = () => finish();
    const onError = (e: Error) => finish(e);
    const onAborted = () => finish(new Error('request aborted'));
    // A stream closed before 'end' (client gone, HTTP/2 reset) would otherwise leave the read pending forever.
    const onClose = () => finish(req.readableEnded ? undefined : new Error('request aborted'));
    req.on('data', onData);
    req.on('close', onClose);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/** The media type of the request body without parameters, lower case; '' when absent. */
export function contentTypeOf(ctx: RequestContext): string {
  const raw = ctx.req.headers['content-type'];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (!v) return '';
  return (v.split(';')[0] ?? '').trim().toLowerCase();
}

/** Content-Type → input type; empty means JSON (kube uses its first serializer); unknown → 415. */
export function inputTypeOf(ctx: RequestContext): InputType {
  const ct = contentTypeOf(ctx);
  if (ct === '' || ct === 'application/json') return 'application/json';
  if (ct === 'application/yaml') return 'application/yaml';
  if (ct === PROTOBUF) return PROTOBUF;
  if (ct === CBOR && ctx.cborServing === true) return CBOR;
  throw errors.unsupportedMediaType(ctx.cborServing === true ? [...INPUT_TYPES_WITH_CBOR] : [...INPUT_TYPES]);
}

/** Go's summarizeData: the first 30 bytes, raw for JSON objects, hex otherwise. */
function summarize(body: Buffer): string {
  if (body.byteLength === 0) return '<empty>';
  const max = 30;
  if (body[0] === 0x7b) return body.byteLength > max ? `${body.subarray(0, max).toString()} ...` : body.toString();
  return body.byteLength > max ? `${body.subarray(0, max).toString('hex')} ...` : body.toString('hex');
}

export interface DecodedBody {
  readonly value: unknown;
  /** Strict decoding findings (duplicate / unknown fields), in kube's wording without the prefix. */
  readonly strict: string[];
}

/** A decoding failure before the kind is known (kube's `couldn't get version/kind` / YAML errors). */
class BodySyntaxError extends Error {}

/**
 * A CBOR body kube could not decode. `topLevel`: found while reading apiVersion/kind (malformed data, keys of
 * the top-level map), worded as an unrecognized object; otherwise the kind was known and the message names it.
 */
class CborBodyError extends BodySyntaxError {
  constructor(message: string, readonly topLevel: boolean) {
    super(message);
  }
}

/** Source offset of a YAML node (0 when unknown). */
function offsetOf(node: Node): number {
  return node.range?.[0] ?? 0;
}

/**
 * Parses a body of the given type into a plain value. Syntax errors throw BodySyntaxError with kube's text.
 * `objectMeta` enables the unknown-ObjectMeta-key check.
 */
export function parseBody(body: Buffer, type: InputType, opts: ScanOptions = {}): DecodedBody {
  if (type === PROTOBUF) {
    // Typed clients (kubectl's create generators) send protobuf; it has no strict decoding in kube either.
    try {
      return { value: decodeProtobuf(body), strict: [] };
    } catch (e) {
      throw new BodySyntaxError(e instanceof Error ? e.message : String(e));
    }
  }
  if (type === CBOR) return parseCbor(body, opts);
  const text = body.toString('utf8');
  if (type === 'application/json') {
    let scan;
    try {
      scan = scanJson(text, opts);
    } catch (e) {
      if (e instanceof JsonSyntaxError) throw new BodySyntaxError(`couldn't get version/kind; json parse error: ${e.message}`);
      throw e;
    }
    return { value: JSON.parse(text) as unknown, strict: scan.strict };
  }
  try {
    return parseYaml(text, opts);
  } catch (e) {
    // Pathologically deep documents exhaust the stack in the parser or walkers: a bad request, not a crash.
    if (e instanceof RangeError) throw new BodySyntaxError('error converting YAML to JSON: yaml: exceeded max depth');
    throw e;
  }
}

/**
 * CBOR (gate CBORServingAndStorage): duplicate keys, NaN and infinities are errors, not strict findings (kube
 * rejects such maps outright); unknown fields are found on the JSON form, as for YAML.
 */
function parseCbor(body: Buffer, opts: ScanOptions): DecodedBody {
  let value: unknown;
  try {
    value = decodeCborValue(body);
  } catch (e) {
    if (e instanceof CborDecodeError) throw new CborBodyError(e.message, e.topLevel);
    throw e;
  }
  const strict: string[] = [];
  if (opts.objectMeta || opts.topLevelFields || opts.schema) {
    // fxamacker stops at the first unknown key and names its position in its map, not its path.
    const first = scanJson(JSON.stringify(value ?? null), opts).strict.find((s) => s.startsWith('unknown field'));
    if (first) strict.push(`cbor: found unknown field at map element index ${mapIndexOf(value, first.slice('unknown field '.length))}`);
  }
  return { value, strict };
}

/** The index of the last key of a JSON-quoted scan path (`"spec.containers[0].foo"`) within its own map. */
function mapIndexOf(root: unknown, quotedPath: string): number {
  let path: string;
  try {
    path = JSON.parse(quotedPath) as string;
  } catch {
    return 0;
  }
  const parts = path.split('.');
  const last = parts.pop() ?? '';
  let cur: unknown = root;
  for (const part of parts) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return 0;
    cur = (cur as Record<string, unknown> | undefined)?.[m[1] ?? ''];
    for (const idx of (m[2] ?? '').matchAll(/\[(\d+)\]/g)) cur = (cur as unknown[] | undefined)?.[Number(idx[1])];
  }
  if (cur === null || typeof cur !== 'object') return 0;
  return Math.max(0, Object.keys(cur).indexOf(last));
}

/** YAML: YAML 1.1 scalars like kube's go-yaml v2; duplicate keys are strict findings, not errors. */
function parseYaml(text: string, opts: ScanOptions): DecodedBody {
  const docs = parseAllDocuments(text, { version: '1.1', uniqueKeys: false, prettyErrors: false });
  if (!Array.isArray(docs)) throw new BodySyntaxError('error converting YAML to JSON: yaml: invalid document stream');
  const real = docs.filter((d) => d.contents !== null || d.errors.length > 0);
  if (real.length > 1) throw new BodySyntaxError('error converting YAML to JSON: yaml: multiple documents are not supported in one request body');
  const doc = real[0];
  if (!doc) return { value: null, strict: [] };
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0]?.line;
    const msg = err.message.split('\n')[0] ?? err.message;
    throw new BodySyntaxError(`error converting YAML to JSON: yaml: ${line !== undefined ? `line ${line}: ` : ''}${msg}`);
  }
  const strict: string[] = [];
  const lineOf = lineCounter(text);
  const walk = (node: unknown) => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
        if (seen.has(k)) {
          const off = isScalar(pair.key) ? offsetOf(pair.key) : 0;
          strict.push(`line ${lineOf(off)}: key ${JSON.stringify(k)} already set in map`);
        }
        seen.add(k);
        walk(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item);
    }
  };
  walk(doc.contents);
  const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
  // Unknown ObjectMeta keys, found on the JSON form as kube does after YAML→JSON.
  if (opts.objectMeta || opts.topLevelFields || opts.schema) {
    try {
      strict.push(...scanJson(JSON.stringify(value ?? null), opts).strict.filter((s) => s.startsWith('unknown field')));
    } catch {
      // toJS output always serializes; nothing to report otherwise.
    }
  }
  return { value, strict };
}

function lineCounter(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

export interface DecodeObjectOptions {
  readonly def: ResourceDef;
  /** Kind and apiVersion the endpoint serves (a sub-resource like scale has its own). */
  readonly kind: string;
  readonly apiVersion: string;
  readonly fieldValidation: 'Ignore' | 'Warn' | 'Strict';
  /** Is this (group, version, kind) known at all? Decides kube's error wording for a foreign kind. */
  readonly isKnownKind?: (apiVersion: string, kind: string) => boolean;
  /** Where Warn findings go. */
  readonly warnings: string[];
  /** Top-level field names of the kind, when known: enables `unknown field "x"` for other keys. */
  readonly topLevelFields?: ReadonlySet<string>;
  /** The kind's whole field structure (built-in kinds): unknown fields at any depth. */
  readonly schema?: SchemaNode;
}

function versionOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
}

function internalGroupName(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? 'core' : (apiVersion.slice(0, slash).split('.')[0] ?? '');
}

/**
 * Decodes an object body for create/update: JSON or YAML, must be an object; a missing `apiVersion` or
 * `kind` is filled from the endpoint (kube's decoder defaults them); a different kind or version is a 400
 * in kube's words. Returns a fresh, mutable object.
 */
export function decodeObject(body: Buffer, type: InputType, o: DecodeObjectOptions): KObject {
  let decoded: DecodedBody;
  try {
    decoded = parseBody(body, type, {
      objectMeta: true,
      ...(o.topLevelFields ? { topLevelFields: o.topLevelFields } : {}),
      ...(o.schema ? { schema: o.schema } : {}),
    });
  } catch (e) {
    if (e instanceof CborBodyError && !e.topLevel) {
      throw errors.badRequest(`${o.kind} in version ${JSON.stringify(versionOf(o.apiVersion))} cannot be handled as a ${o.kind}: ${e.message}`);
    }
    if (e instanceof CborBodyError) {
      throw errors.badRequest(`the object provided is unrecognized (must be of type ${o.kind}): unable to determine group/version/kind: ${e.message} (${summarize(body)})`);
    }
    if (e instanceof BodySyntaxError) {
      throw errors.badRequest(`the object provided is unrecognized (must be of type ${o.kind}): ${e.message} (${summarize(body)})`);
    }
    throw e;
  }
  const v = decoded.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    const t = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;
    if (v === null) {
      throw errors.badRequest(`Object 'Kind' is missing in '${body.toString('utf8').trim()}'`);
    }
    if (type === CBOR) {
      const ct = t === 'array' ? 'array' : t === 'string' ? 'UTF-8 text string' : t === 'boolean' ? 'primitives' : (v as number) < 0 ? 'negative integer' : Number.isInteger(v) ? 'positive integer' : 'primitives';
      throw errors.badRequest(`the object provided is unrecognized (must be of type ${o.kind}): unable to determine group/version/kind: cbor: cannot unmarshal ${ct} into Go value of type v1.TypeMeta (${summarize(body)})`);
    }
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${o.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${t === 'number' ? 'number' : t} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`
      + ` (${summarize(body)})`);
  }
  const obj = v as Record<string, unknown>;
  const bodyKind = typeof obj['kind'] === 'string' && obj['kind'] !== '' ? obj['kind'] : o.kind;
  const bodyApiVersion = typeof obj['apiVersion'] === 'string' && obj['apiVersion'] !== '' ? obj['apiVersion'] : o.apiVersion;
  if (obj['kind'] !== undefined && typeof obj['kind'] !== 'string') {
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${o.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${typeof obj['kind']} into Go struct field .kind of type string (${summarize(body)})`);
  }
  if (obj['apiVersion'] !== undefined && typeof obj['apiVersion'] !== 'string') {
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${o.kind}): couldn't get version/kind; json parse error: json: cannot unmarshal ${typeof obj['apiVersion']} into Go struct field .apiVersion of type string (${summarize(body)})`);
  }
  const known = o.isKnownKind ?? (() => true);
  if (bodyKind !== o.kind) {
    const why = known(bodyApiVersion, bodyKind)
      ? `converting (${bodyApiVersion.includes('/') ? bodyApiVersion.replace('/', '.') : bodyApiVersion}.${bodyKind}) to (${internalGroupName(o.apiVersion)}.${o.kind}): unknown conversion`
      : `no kind ${JSON.stringify(bodyKind)} is registered for version ${JSON.stringify(bodyApiVersion)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`;
    throw errors.badRequest(`${bodyKind} in version ${JSON.stringify(versionOf(bodyApiVersion))} cannot be handled as a ${o.kind}: ${why}`);
  }
  if (bodyApiVersion !== o.apiVersion) {
    if (!known(bodyApiVersion, bodyKind)) {
      throw errors.badRequest(`${bodyKind} in version ${JSON.stringify(versionOf(bodyApiVersion))} cannot be handled as a ${o.kind}: no kind ${JSON.stringify(bodyKind)} is registered for version ${JSON.stringify(bodyApiVersion)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
    }
    throw errors.badRequest(`the API version in the data (${bodyApiVersion}) does not match the expected API version (${o.apiVersion})`);
  }
  const md = obj['metadata'];
  if (md !== undefined && md !== null && (typeof md !== 'object' || Array.isArray(md))) {
    throw errors.badRequest(`${o.kind} in version ${JSON.stringify(versionOf(o.apiVersion))} cannot be handled as a ${o.kind}: json: cannot unmarshal ${Array.isArray(md) ? 'array' : typeof md} into Go struct field ${o.kind}.metadata of type v1.ObjectMeta`);
  }
  // Go's decoder fails on the first value of the wrong type before strict findings count (built-in kinds
  // only: they are the ones with a schema; protobuf bodies are typed by construction).
  if (o.schema && type !== PROTOBUF) {
    const typeError = typeErrorFor(obj, o.apiVersion, o.kind, type === 'application/json' ? { jsonText: body.toString('utf8') } : {});
    if (typeError) throw errors.badRequest(`${o.kind} in version ${JSON.stringify(versionOf(o.apiVersion))} cannot be handled as a ${o.kind}: ${typeError}`);
  }
  reportStrict(decoded.strict, o.fieldValidation, o.warnings, `${o.kind} in version ${JSON.stringify(versionOf(o.apiVersion))} cannot be handled as a ${o.kind}`);
  const out: KObject = { ...obj, apiVersion: bodyApiVersion, kind: bodyKind, metadata: (md ?? {}) as KObject['metadata'] };
  // Keep kube's field order: kind, apiVersion, metadata first.
  const { kind, apiVersion, metadata, ...rest } = out;
  return { kind, apiVersion, metadata, ...rest };
}

/** Applies a fieldValidation directive to strict findings. */
export function reportStrict(strict: readonly string[], directive: 'Ignore' | 'Warn' | 'Strict', warnings: string[], prefix: string): void {
  if (!strict.length || directive === 'Ignore') return;
  if (directive === 'Warn') {
    warnings.push(...strict);
    return;
  }
  throw errors.badRequest(`${prefix}: strict decoding error: ${strict.join(', ')}`);
}

/** Where kube-apiserver decodes DeleteOptions bodies: the meta internal scheme (its name in errors). */
const META_SCHEME = 'k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27';
/**
 * Kinds that scheme registers by kind alone, in every version ("allow delete options to be decoded across all
 * versions"), and the unversioned ones (Status, discovery kinds).
 */
const ANY_VERSION_META_KINDS: ReadonlySet<string> = new Set([
  'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList',
]);
/** What else it registers per version (the options, WatchEvent and conversion targets). */
const META_SCHEME_KINDS: Readonly<Record<string, ReadonlySet<string>>> = {
  'meta.k8s.io/v1': new Set(['ListOptions', 'GetOptions', 'PatchOptions', 'WatchEvent', 'Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']),
  'meta.k8s.io/v1beta1': new Set(['Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList']),
};

/**
 * The 400 kube's delete handlers answer for a body of another kind than DeleteOptions, or undefined when the
 * body is a DeleteOptions. A missing apiVersion/kind is defaulted to meta.k8s.io/v1, Kind=DeleteOptions; any
 * apiVersion is accepted with Kind=DeleteOptions (typed clients send their own group version: `v1`, `apps/v1`,
 * `apiextensions.k8s.io/v1`, … and custom resource groups' clients theirs).
 */
export function deleteOptionsKindError(apiVersion: string, kind: string): StatusError | undefined {
  const k = kind === '' ? 'DeleteOptions' : kind;
  if (k === 'DeleteOptions') return undefined;
  const gv = apiVersion === '' ? 'meta.k8s.io/v1' : apiVersion;
  if (ANY_VERSION_META_KINDS.has(k) || META_SCHEME_KINDS[gv]?.has(k)) {
    return errors.badRequest(`converting (v1.${k}) to (v1.DeleteOptions): unknown conversion`);
  }
  return errors.badRequest(`no kind ${JSON.stringify(k)} is registered for version ${JSON.stringify(gv)} in scheme ${JSON.stringify(META_SCHEME)}`);
}

/**
 * A protobuf DeleteOptions body: the meta/v1 message whatever group version the envelope names (see
 * deleteOptionsKindError), returned in its JSON form with the envelope's apiVersion and kind.
 */
function decodeDeleteOptionsProtobuf(body: Buffer): Record<string, unknown> {
  let env;
  try {
    env = decodeEnvelope(body);
  } catch (e) {
    throw errors.badRequest(e instanceof Error ? e.message : String(e));
  }
  const kindError = deleteOptionsKindError(env.apiVersion, env.kind);
  if (kindError) throw kindError;
  let options;
  try {
    options = decodeMessage(env.raw, messageSpec('meta.DeleteOptions')) as Record<string, unknown>;
  } catch (e) {
    throw errors.badRequest(e instanceof Error ? e.message : String(e));
  }
  return { kind: 'DeleteOptions', apiVersion: env.apiVersion || 'meta.k8s.io/v1', ...options };
}

/** Decodes an optional DeleteOptions body (JSON, YAML, protobuf or CBOR); undefined for an empty body. */
export function decodeOptionsBody(ctx: RequestContext, body: Buffer): Record<string, unknown> | undefined {
  if (body.byteLength === 0) return undefined;
  const type = inputTypeOf(ctx);
  if (type === PROTOBUF) return decodeDeleteOptionsProtobuf(body);
  let decoded: DecodedBody;
  try {
    decoded = parseBody(body, type);
  } catch (e) {
    if (e instanceof BodySyntaxError) throw errors.badRequest(e.message);
    throw e;
  }
  const v = decoded.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw errors.badRequest(`Object 'Kind' is missing in '${body.toString('utf8').trim()}'`);
  }
  const obj = v as Record<string, unknown>;
  const kindError = typeof obj['kind'] === 'string' || typeof obj['apiVersion'] === 'string'
    ? deleteOptionsKindError(typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '', typeof obj['kind'] === 'string' ? obj['kind'] : '')
    : undefined;
  if (kindError) throw kindError;
  return obj;
}

export { BodySyntaxError, CborBodyError, StatusError };
