/**
 * Serializers and the response writer.
 *
 * - JSON: compact with a trailing newline (Go's json.Encoder), or indented for `pretty`.
 * - YAML: keys sorted, block style, sequences not indented under their key — the shape of sigs.k8s.io/yaml
 *   (JSON → go-yaml v2) that kube-apiserver answers with.
 * - Cached objects: the compact encodings are kept in `CachedObject.encoded` by media type, so a revision is
 *   encoded once however many GETs, LISTs and watchers read it.
 * - gzip when the client accepts it and the body is over 128 KiB (kube's APIResponseCompression threshold).
 * - Bodies are written as a list of chunks (cached item encodings) in slices of at most 64 KiB, at most 512 KiB
 *   per turn of the event loop, waiting for 'drain' when more than 1 MiB is queued: a 20k-item list never
 *   becomes one giant buffer, and its TLS encryption (synchronous in Node) never holds the loop for more than a
 *   few milliseconds, so probes and exempt requests are answered between the turns of every list being sent.
 */
import { constants as zc, createGzip } from 'node:zlib';
import { stringify as yamlStringify } from 'yaml';
import type { CachedObject } from '../../storage/cacher/types.ts';
import type { RequestContext } from '../../request/context.ts';
import { commonHeaders, warningHeaderValues } from '../../request/respond.ts';
import type { ServedType } from './accept.ts';
import { encodeProtobufValue } from './protobuf.ts';
import { encodeCborValue } from './cbor.ts';

export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/**
 * Most bytes handed to the socket in one write. A write to a TLS socket encrypts on the spot: 64 KiB is well
 * under a millisecond of work, where a whole 20 MB list was hundreds of milliseconds. Bodies up to this size
 * are written at once.
 */
export const STREAM_SLICE_BYTES = 64 * 1024;
/** Bytes one response writes per turn of the event loop before it lets other requests run. */
const TURN_BYTES = 512 * 1024;
/** Unsent bytes a response may queue before it waits for the socket to drain. */
const MAX_QUEUED_BYTES = 1024 * 1024;

const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * JSON text as Go's encoding/json writes it (kube's serializer): `<`, `>`, `&`, U+2028 and U+2029 escaped.
 * In JSON.stringify output those characters only occur inside strings, so a plain replace is exact.
 */
export function goJsonStringify(value: unknown, indent?: number): string {
  const text = indent ? JSON.stringify(value, null, indent) : JSON.stringify(value);
  return /[<>&\u2028\u2029]/.test(text) ? text.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c) : text;
}

export function encodeJson(value: unknown, pretty: boolean): Buffer {
  return Buffer.from(`${goJsonStringify(value, pretty ? 2 : undefined)}\n`);
}

export function encodeYaml(value: unknown): Buffer {
  return Buffer.from(yamlStringify(value, {
    sortMapEntries: true,
    indentSeq: false,
    lineWidth: 0,
    version: '1.1',
    aliasDuplicateObjects: false,
  }));
}

export function encodeAs(type: ServedType, value: unknown, pretty: boolean): Buffer {
  if (type === 'application/vnd.kubernetes.protobuf') return encodeProtobufValue(value);
  if (type === 'application/cbor') return encodeCborValue(value); // CBOR has no pretty form
  return type === 'application/yaml' ? encodeYaml(value) : encodeJson(value, pretty);
}

/**
 * The compact JSON of a cached object without trailing newline (for embedding in lists and watch events),
 * memoized on the object.
 */
export function cachedJson(co: CachedObject): Uint8Array {
  let b = co.encoded.get('application/json');
  if (!b) {
    b = Buffer.from(goJsonStringify(co.object));
    co.encoded.set('application/json', b);
  }
  return b;
}

const ITEM_KEY = 'application/json;item';

/** The object without `kind` and `apiVersion`: how a typed (built-in) list carries its items. */
export function withoutTypeMeta(obj: object): object {
  const o = obj as Record<string, unknown>;
  if (o['kind'] === undefined && o['apiVersion'] === undefined) return obj;
  const out: Record<string, unknown> = {};
  for (const k in o) if (k !== 'kind' && k !== 'apiVersion') out[k] = o[k];
  return out;
}

/**
 * The compact JSON of a cached object as an item of a built-in list (no `kind`/`apiVersion`: kube's typed lists
 * leave their items' TypeMeta empty) WITHOUT its opening `{`, memoized per revision: a view into
 * {@link cachedJson}'s bytes after the type fields (canonical objects start with them), so a revision is still
 * encoded once for GETs, watch events and both kinds of lists. The caller writes the `{`.
 */
export function cachedItemRest(co: CachedObject): Uint8Array {
  let b = co.encoded.get(ITEM_KEY);
  if (b) return b;
  const j = cachedJson(co);
  const o = co.object as Record<string, unknown>;
  if (typeof o['kind'] === 'string' && typeof o['apiVersion'] === 'string') {
    const prefix = `{"kind":${JSON.stringify(o['kind'])},"apiVersion":${JSON.stringify(o['apiVersion'])}`;
    if (j.byteLength > prefix.length && Buffer.from(j.buffer, j.byteOffset, prefix.length).toString('latin1') === prefix) {
      b = j.subarray(prefix.length + (j[prefix.length] === 0x2c ? 1 : 0));
    }
  }
  b ??= Buffer.from(goJsonStringify(withoutTypeMeta(co.object))).subarray(1);
  co.encoded.set(ITEM_KEY, b);
  return b;
}

/** A whole-body encoding of a cached object (JSON with newline or YAML), memoized unless pretty. */
export function cachedBody(co: CachedObject, type: ServedType, pretty: boolean): Uint8Array {
  if (type === 'application/json') {
    if (pretty) return encodeJson(co.object, true);
    const key = 'application/json+nl';
    let b = co.encoded.get(key);
    if (!b) {
      const j = cachedJson(co);
      const out = Buffer.allocUnsafe(j.byteLength + 1);
      out.set(j, 0);
      out[j.byteLength] = 0x0a;
      b = out;
      co.encoded.set(key, b);
    }
    return b;
  }
  let b = co.encoded.get(type);
  if (!b) {
    b = type === 'application/yaml' ? encodeYaml(co.object) : type === 'application/cbor' ? encodeCborValue(co.object) : encodeProtobufValue(co.object);
    co.encoded.set(type, b);
  }
  return b;
}

/** Does the client accept gzip (Accept-Encoding, any case, q≠0)? */
export function acceptsGzip(ctx: RequestContext): boolean {
  const raw = ctx.req.headers['accept-encoding'];
  const v = Array.isArray(raw) ? raw.join(',') : raw;
  if (!v) return false;
  return v.split(',').some((tok) => {
    const [name, ...params] = tok.trim().split(';');
    if ((name ?? '').trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

function baseHeaders(ctx: RequestContext, contentType: string, extra: Record<string, string>): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = commonHeaders(ctx, {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
  });
  Object.assign(h, extra);
  if (ctx.warnings.length) h['Warning'] = warningHeaderValues(ctx.warnings);
  return h;
}

async function drain(ctx: RequestContext): Promise<void> {
  const res = ctx.res as NodeJS.WritableStream & { writableEnded?: boolean; destroyed?: boolean };
  if (res.destroyed || ctx.signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.removeListener('drain', done);
      res.removeListener('close', done);
      ctx.signal.removeEventListener('abort', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
    ctx.signal.addEventListener('abort', done, { once: true });
  });
}

/** A body whose size is known before its bytes exist: `chunks` may be produced while the body is sent. */
export interface SizedBody {
  readonly total: number;
  readonly chunks: Iterable<Uint8Array>;
}

/**
 * Writes a response made of chunks (total size known up front). Compresses with gzip (level 1, as kube)
 * when accepted and over the threshold. Resolves when everything was handed to the socket.
 */
export async function writeChunks(ctx: RequestContext, code: number, contentType: string,
  chunks: readonly Uint8Array[], headers: Record<string, string> = {}): Promise<void> {
  let total = 0;
  for (const c of chunks) total += c.byteLength;
  await writeBody(ctx, code, contentType, { total, chunks }, headers);
}

/** {@link writeChunks} for a body whose chunks are produced as they are sent (a large list). */
export async function writeBody(ctx: RequestContext, code: number, contentType: string,
  body: SizedBody, headers: Record<string, string> = {}): Promise<void> {
  const res = ctx.res;
  if (res.headersSent) {
    res.end();
    return;
  }
  const { total, chunks } = body;
  const h = baseHeaders(ctx, contentType, headers);
  const head = ctx.req.method === 'HEAD';
  if (!head && total > GZIP_THRESHOLD_BYTES && ctx.responseCompression !== false && acceptsGzip(ctx)) {
    h['Content-Encoding'] = 'gzip';
    h['Vary'] = 'Accept-Encoding';
    res.writeHead(code, h);
    const gz = createGzip({ level: 1, flush: zc.Z_NO_FLUSH });
    const out = res as unknown as NodeJS.WritableStream;
    gz.on('data', (d: Buffer) => {
      if (!out.write(d)) gz.pause();
    });
    out.on('drain', () => gz.resume());
    const finished = new Promise<void>((resolve) => {
      gz.on('end', () => {
        res.end();
        resolve();
      });
      gz.on('error', () => {
        res.destroy();
        resolve();
      });
    });
    for (const c of chunks) {
      if (ctx.signal.aborted) break;
      if (!gz.write(c)) await new Promise<void>((r) => gz.once('drain', r));
    }
    gz.end();
    await finished;
    return;
  }
  h['Content-Length'] = String(total);
  res.writeHead(code, h);
  if (head) {
    res.end();
    return;
  }
  if (total <= STREAM_SLICE_BYTES) {
    // Small bodies (nearly every answer) go out in one write without yielding.
    const all = Array.isArray(chunks) ? (chunks as readonly Uint8Array[]) : [...chunks];
    (res as unknown as { end(b: Uint8Array): void }).end(all.length === 1 ? all[0]! : Buffer.concat(all, total));
    return;
  }
  await streamSlices(ctx, chunks);
  res.end();
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Hands `chunks` to the response in slices of about {@link STREAM_SLICE_BYTES}: small chunks (list items) are
 * joined, big ones (a body built whole) are cut without copying. After {@link TURN_BYTES} the writer waits for
 * the next turn of the event loop, so other requests run in between; with more than {@link MAX_QUEUED_BYTES}
 * unsent it waits for 'drain' (memory stays bounded per response, not by the body).
 */
async function streamSlices(ctx: RequestContext, chunks: Iterable<Uint8Array>): Promise<void> {
  const w = ctx.res as unknown as NodeJS.WritableStream & { destroyed?: boolean };
  // A client that went away ends the stream (its signal may fire only later).
  const gone = (): boolean => ctx.signal.aborted || w.destroyed === true;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const out = w as unknown as { writableLength: number };
  let turnBytes = 0;
  const send = async (buf: Uint8Array): Promise<void> => {
    w.write(buf);
    turnBytes += buf.byteLength;
    // A few slices per turn keep a big list's throughput; a socket the client does not empty is waited for.
    if (out.writableLength > MAX_QUEUED_BYTES) await drain(ctx);
    else if (turnBytes >= TURN_BYTES) await nextTurn();
    else return;
    turnBytes = 0;
  };
  const flush = async (): Promise<void> => {
    if (!batch.length) return;
    const buf = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batchBytes);
    batch = [];
    batchBytes = 0;
    await send(buf);
  };
  for (const c of chunks) {
    if (gone()) return;
    if (c.byteLength >= STREAM_SLICE_BYTES) {
      await flush();
      for (let off = 0; off < c.byteLength && !gone(); off += STREAM_SLICE_BYTES) {
        await send(c.subarray(off, Math.min(c.byteLength, off + STREAM_SLICE_BYTES)));
      }
      continue;
    }
    batch.push(c);
    batchBytes += c.byteLength;
    if (batchBytes >= STREAM_SLICE_BYTES) await flush();
  }
  if (!gone()) await flush();
}
