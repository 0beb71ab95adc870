/**
 * Turning handler results into responses: negotiate once per request (`negotiateResponse`), then write
 * one object (`respondResource`), a list (`respondList`), or a plain value (`respondObject`, for endpoints
 * without conversions). Conversions (Table, PartialObjectMetadata[List]) happen here, never for `Status`
 * bodies (kube leaves those untouched).
 */
import type { KObject, ListMeta } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import type { ListResult } from '../../registry/rest.ts';
import type { RequestContext } from '../../request/context.ts';
import type { CachedObject } from '../../storage/cacher/types.ts';
import { parseIncludeObject, wantsPretty } from '../params.ts';
import { negotiateOrThrow, type Negotiated, type NegotiateOptions } from './accept.ts';
import { cachedBody, cachedItemRest, cachedJson, encodeAs, withoutTypeMeta, writeBody, writeChunks, type SizedBody } from './encode.ts';
import { canEncodeProtobuf, encodeProtobufItem, protobufListChunks } from './protobuf.ts';
import { partialListOfObjectError, partialObjectMetadata, partialObjectMetadataList, partialOfListError } from './partial.ts';
import { listMetaOf } from './partial.ts';
import { listToTable, objectToTable, type IncludeObject } from './table.ts';

/** What the endpoint serves: used for list kinds and error wording. */
export interface RenderScope {
  readonly def: ResourceDef;
  /** Kind/apiVersion of the objects this endpoint returns (a sub-resource may differ from def.kind). */
  readonly kind: string;
  readonly apiVersion: string;
  readonly group: string;
  /** Objects of this kind have a protobuf form (built-in kinds). */
  readonly protobuf?: boolean;
  /**
   * `false`: no Table form here (kube's REST is no TableConvertor: reviews, bindings, pods/eviction, …), so
   * `as=Table` is not an acceptable representation (406 when nothing else in Accept fits).
   */
  readonly table?: boolean;
}

/** The negotiated representation of one request. */
export interface Representation {
  readonly neg: Negotiated;
  readonly pretty: boolean;
  readonly includeObject: IncludeObject;
}

function header(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function negotiateResponse(ctx: RequestContext, scope: Pick<RenderScope, 'protobuf' | 'table'>,
  opts: Omit<NegotiateOptions, 'allowTransform' | 'protobuf'> = {}): Representation {
  const neg = negotiateOrThrow(header(ctx, 'accept'), {
    ...opts, allowTransform: true, protobuf: scope.protobuf === true, cbor: ctx.cborServing === true,
    ...(scope.table === false ? { forbidTable: true } : {}),
  });
  const pretty = neg.pretty || wantsPretty(ctx.query, header(ctx, 'user-agent'));
  const includeObject = neg.target?.kind === 'Table' ? parseIncludeObject(ctx.query) : 'Metadata';
  return { neg, pretty, includeObject };
}

function isCached(x: unknown): x is CachedObject {
  return typeof x === 'object' && x !== null && 'kv' in x && 'encoded' in x && 'object' in x;
}

function isStatus(x: unknown): boolean {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'Status'
    && (x as { apiVersion?: unknown }).apiVersion === 'v1';
}

/** Converts one object as the representation asks (throws kube's 406 for list-only targets). */
export function transformObject(scope: RenderScope, rep: Representation, obj: KObject, noHeaders = false): unknown {
  const t = rep.neg.target;
  if (!t || isStatus(obj)) return obj;
  switch (t.kind) {
    case 'Table': return objectToTable(scope.def, obj, { version: t.version, includeObject: rep.includeObject, noHeaders });
    case 'PartialObjectMetadata': return partialObjectMetadata(obj, t.version);
    default: throw partialListOfObjectError(scope.group, scope.kind);
  }
}

/** One object (or a Status) with the given code. */
export async function respondResource(ctx: RequestContext, scope: RenderScope, rep: Representation, code: number,
  result: KObject | CachedObject): Promise<void> {
  const type = rep.neg.type;
  ctx.audit?.logResponseObject(isCached(result) ? result.object : result);
  if (isCached(result) && !rep.neg.target) {
    await writeChunks(ctx, code, type, [cachedBody(result, type, rep.pretty)]);
    return;
  }
  const obj = isCached(result) ? result.object : result;
  const value = transformObject(scope, rep, obj);
  await writeChunks(ctx, code, type, [encodeAs(type, value, rep.pretty)]);
}

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('{');

/** A list result: streamed from cached item encodings for compact JSON; built for YAML, pretty and conversions. */
export async function respondList(ctx: RequestContext, scope: RenderScope, rep: Representation, result: ListResult): Promise<void> {
  const type = rep.neg.type;
  const meta = {
    resourceVersion: result.resourceVersion,
    ...(result.continue ? { continue: result.continue } : {}),
    ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}),
  };
  // Built only when the level records responses.
  ctx.audit?.logResponseObject(() => ({ kind: scope.def.listKind, apiVersion: scope.apiVersion, metadata: meta, items: result.items.map((i) => i.object) }));
  const t = rep.neg.target;
  if (t) {
    const items = result.items.map((i) => i.object);
    let value: unknown;
    if (t.kind === 'Table') value = listToTable(scope.def, items, meta, { version: t.version, includeObject: rep.includeObject });
    else if (t.kind === 'PartialObjectMetadataList') value = partialObjectMetadataList(items, meta, t.version);
    else throw partialOfListError(scope.group, scope.def.listKind);
    await writeChunks(ctx, 200, type, [encodeAs(type, value, rep.pretty)]);
    return;
  }
  const head = { kind: scope.def.listKind, apiVersion: scope.apiVersion, metadata: meta };
  const typed = scope.protobuf === true;
  if (type === 'application/vnd.kubernetes.protobuf') {
    await encodeItems(result.items, (co) => encodeProtobufItem(scope.apiVersion, scope.kind, co));
    const chunks = protobufListChunks(scope.apiVersion, scope.kind, scope.def.listKind, meta, result.items);
    if (chunks) {
      await writeChunks(ctx, 200, type, chunks);
      return;
    }
  }
  if (type !== 'application/json' || rep.pretty) {
    // YAML, pretty JSON and protobuf are built whole (protobuf needs the list message's length up front).
    const items = result.items.map((i) => (typed ? withoutTypeMeta(i.object) : i.object));
    await writeChunks(ctx, 200, type, [encodeAs(type, { ...head, items }, rep.pretty)]);
    return;
  }
  await writeBody(ctx, 200, type, await jsonListBody(head, result.items, typed));
}

/**
 * {@link jsonListChunks} as a body streamed while it is sent: the items are encoded (or their cached bytes
 * measured) first, yielding between turns, and the chunks are produced slice by slice by the writer, so
 * no turn of the event loop walks all 20k items of a big list.
 */
export async function jsonListBody(head: { kind: string; apiVersion: string; metadata: ListMeta }, items: readonly CachedObject[], typed: boolean): Promise<SizedBody> {
  const open = JSON.stringify(head);
  const start = Buffer.from(`${open.slice(0, -1)},"items":[`);
  const end = Buffer.from(']}\n');
  const encoded = await encodeItems(items, typed ? cachedItemRest : cachedJson);
  // Each item is preceded by a comma (but the first) and, typed, by the `{` its cached rest lacks.
  const total = start.byteLength + encoded + Math.max(0, items.length - 1) + (typed ? items.length : 0) + end.byteLength;
  function* chunks(): Generator<Uint8Array> {
    yield start;
    for (let i = 0; i < items.length; i++) {
      if (i > 0) yield COMMA;
      if (typed) {
        yield OPEN;
        yield cachedItemRest(items[i]!);
      } else yield cachedJson(items[i]!);
    }
    yield end;
  }
  return { total, chunks: chunks() };
}

/** Synchronous work a list's item encoding may do before it lets other requests run. */
const ENCODE_TURN_MS = 4;

/**
 * Fills the items' cached encodings and sums their bytes, yielding to the event loop every few milliseconds:
 * the first list of 20k objects after a restart (or after they all changed) encodes each one, which is far too
 * long for one turn of the loop. Items already encoded cost a map lookup.
 */
async function encodeItems(items: readonly CachedObject[], encode: (co: CachedObject) => { byteLength: number } | void): Promise<number> {
  let turn = performance.now();
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    bytes += encode(items[i]!)?.byteLength ?? 0;
    if ((i & 63) === 63 && performance.now() - turn > ENCODE_TURN_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
  }
  return bytes;
}

/**
 * The compact JSON of a list as chunks, from the items' cached encodings. Items of a built-in (typed) list carry
 * no `kind`/`apiVersion`, as in kube's typed lists; custom resource lists (unstructured) keep them.
 */
export function jsonListChunks(head: { kind: string; apiVersion: string; metadata: ListMeta }, items: readonly CachedObject[], typed: boolean): Uint8Array[] {
  const open = JSON.stringify(head);
  const chunks: Uint8Array[] = [Buffer.from(`${open.slice(0, -1)},"items":[`)];
  items.forEach((item, i) => {
    if (i > 0) chunks.push(COMMA);
    if (typed) chunks.push(OPEN, cachedItemRest(item));
    else chunks.push(cachedJson(item));
  });
  chunks.push(Buffer.from(']}\n'));
  return chunks;
}

/** A list built from plain objects (deletecollection's answer: list metadata is empty there). */
export async function respondItems(ctx: RequestContext, scope: RenderScope, rep: Representation, code: number,
  items: readonly KObject[], meta: ListMeta = {}): Promise<void> {
  const type = rep.neg.type;
  const t = rep.neg.target;
  let value: unknown;
  if (!t) value = { kind: scope.def.listKind, apiVersion: scope.apiVersion, metadata: listMetaOf(meta), items: scope.protobuf === true ? items.map(withoutTypeMeta) : items };
  else if (t.kind === 'Table') value = listToTable(scope.def, items, meta, { version: t.version, includeObject: rep.includeObject });
  else if (t.kind === 'PartialObjectMetadataList') value = partialObjectMetadataList(items, meta, t.version);
  else throw partialOfListError(scope.group, scope.def.listKind);
  ctx.audit?.logResponseObject(value);
  await writeChunks(ctx, code, type, [encodeAs(type, value, rep.pretty)]);
}

/**
 * A plain value in JSON or YAML per Accept (no conversions), `?pretty` honoured, gzip when large.
 * For endpoints that are not resources (discovery, version) and for Status bodies.
 */
export async function respondObject(ctx: RequestContext, code: number, obj: unknown, headers: Record<string, string> = {}): Promise<void> {
  const neg = negotiateOrThrow(header(ctx, 'accept'), { protobuf: canEncodeProtobuf(obj), cbor: ctx.cborServing === true });
  const pretty = neg.pretty || wantsPretty(ctx.query, header(ctx, 'user-agent'));
  ctx.audit?.logResponseObject(obj);
  await writeChunks(ctx, code, neg.type, [encodeAs(neg.type, obj, pretty)], headers);
}
