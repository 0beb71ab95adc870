/**
 * WATCH: a stream of newline-delimited `{"type": ..., "object": ...}` frames (Content-Type application/json,
 * chunked on HTTP/1.1, a stream on HTTP/2), flushed per event.
 *
 * Lifecycle (one owner, disposed exactly once): the registry's watch is opened first — errors before the
 * stream starts are ordinary Status responses — then headers go out; the stream ends when the registry
 * closes the watch (an `ERROR` frame carries the Status when it closed with an error), when
 * `timeoutSeconds` passes (default: kube's min-request-timeout 1800 s × random [1, 2)), when the client goes
 * away, or when the server shuts down (`ctx.signal`).
 *
 * Encoding once: frames are memoized in `ObjectEvent.encoded` by representation, so N watchers of one event
 * share one buffer. Table watches send column definitions with the first object only (kube's NoHeaders
 * switch), so the first frame is per-watcher and the rest are shared.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { WatchParams } from '../../registry/rest.ts';
import type { RequestContext } from '../../request/context.ts';
import type { ObjectEvent, ObjectWatch } from '../../storage/cacher/types.ts';
import { cachedBody, cachedJson, goJsonStringify } from '../negotiation/encode.ts';
import { encodeProtobufValue, PROTOBUF_TYPE, protobufWatchFrame } from '../negotiation/protobuf.ts';
import { CBOR, CBOR_SEQ, cborWatchEvent, encodeCborValue } from '../negotiation/cbor.ts';
import { negotiateResponse, transformObject, type Representation } from '../negotiation/render.ts';
import { toListParams, type ListQuery } from '../params.ts';
import { commonHeaders, warningHeaderValues } from '../../request/respond.ts';
import { asStatusError, errors, StatusError } from '../../machinery/errors.ts';
import { opContext, type HandlerScope } from './scope.ts';

/** kube-apiserver's default `--min-request-timeout`. */
export const MIN_REQUEST_TIMEOUT_SECONDS = 1800;
/** A watcher whose socket holds more than this many unsent bytes reports itself backed up. */
export const WATCH_BACKLOG_BYTES = 1024 * 1024;

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';
export const INITIAL_EVENTS_LIST_BLUEPRINT_ANNOTATION = 'k8s.io/initial-events-list-blueprint';

/** Does the field selector pin `metadata.name` to exactly `name`? (`metadata.name=x` or `==x`). */
function selectorPinsName(selector: string, name: string): boolean {
  return selector.split(',').some((term) => {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    return m !== null && m[1] === name;
  });
}

function representationKey(rep: Representation, noHeaders: boolean): string {
  const t = rep.neg.target;
  const base = `watch:${rep.neg.type}`;
  if (!t) return base;
  if (t.kind === 'Table') return `${base};table;v=${t.version};include=${rep.includeObject};noHeaders=${noHeaders}`;
  return `${base};${t.kind};v=${t.version}`;
}

export async function handleWatch(ctx: RequestContext, s: HandlerScope, q: ListQuery): Promise<void> {
  const watchList = q.sendInitialEvents === true && q.allowWatchBookmarks === true;
  const rep = negotiateResponse(ctx, s.render, { watch: true, forbidTable: watchList });
  let fieldSelector = q.fieldSelector;
  if (s.name) {
    // A watch addressed to one object (legacy /watch/ paths): kube turns the name into a field selector.
    if (fieldSelector && fieldSelector.trim() !== '') {
      if (!selectorPinsName(fieldSelector, s.name)) throw errors.badRequest("fieldSelector metadata.name doesn't match requested name");
    } else {
      fieldSelector = `metadata.name=${s.name}`;
    }
  }
  const timeoutSeconds = q.timeoutSeconds && q.timeoutSeconds > 0
    ? q.timeoutSeconds
    : MIN_REQUEST_TIMEOUT_SECONDS * (1 + Math.random());
  const params: WatchParams = {
    ...toListParams({ ...q, ...(fieldSelector !== undefined ? { fieldSelector } : {}) }),
    ...(q.allowWatchBookmarks !== undefined ? { allowWatchBookmarks: q.allowWatchBookmarks } : {}),
    ...(q.sendInitialEvents !== undefined ? { sendInitialEvents: q.sendInitialEvents } : {}),
    timeoutSeconds: Math.ceil(timeoutSeconds),
  };

  const res = ctx.res;
  const out = res as unknown as NodeJS.WritableStream & { writableLength: number; destroyed: boolean };
  let started = false;
  let ended = false;
  let noHeaders = false;
  const pending: Array<{ ev?: ObjectEvent; err?: Error; close?: true }> = [];
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let watch: ObjectWatch | undefined;
  let timer: NodeJS.Timeout | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    if (timer) clearTimeout(timer);
    ctx.signal.removeEventListener('abort', end);
    res.removeListener('close', end);
    watch?.dispose();
    if (!out.destroyed) res.end();
    finish();
  };

  const bookmarkObject = (ev: ObjectEvent): KObject => {
    const annotations: Record<string, string> = {};
    if (ev.initialEventsEnd) {
      annotations[INITIAL_EVENTS_END_ANNOTATION] = 'true';
      if (watchList) {
        const t = rep.neg.target;
        const blueprint = t?.kind === 'PartialObjectMetadata'
          ? { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${t.version}`, metadata: {}, items: null }
          : { kind: s.def.listKind, apiVersion: s.apiVersion, metadata: {}, items: null };
        // Encoded as the negotiated type, like kube's watchListTransformer.
        const encoded = rep.neg.type === PROTOBUF_TYPE ? encodeProtobufValue(blueprint)
          : rep.neg.type === CBOR ? encodeCborValue(blueprint) : Buffer.from(`${goJsonStringify(blueprint)}\n`);
        annotations[INITIAL_EVENTS_LIST_BLUEPRINT_ANNOTATION] = encoded.toString('base64');
      }
    }
    return {
      kind: s.kind,
      apiVersion: s.apiVersion,
      metadata: { resourceVersion: String(ev.revision), ...(ev.initialEventsEnd ? { annotations } : {}) },
    };
  };

  const proto = rep.neg.type === PROTOBUF_TYPE;
  // CBOR (gate CBORServingAndStorage): a CBOR sequence, one tagged WatchEvent item per event.
  const cbor = rep.neg.type === CBOR;
  /** One frame: a JSON line, a length-delimited protobuf WatchEvent, or one CBOR WatchEvent item. */
  const wrap = (type: string, value: unknown): Uint8Array => (proto
    ? protobufWatchFrame(type, encodeProtobufValue(value))
    : cbor ? cborWatchEvent(type, encodeCborValue(value))
      : Buffer.from(`{"type":"${type}","object":${goJsonStringify(value)}}\n`));

  const frameFor = (ev: ObjectEvent): Uint8Array => {
    if (ev.type === 'BOOKMARK' || !ev.object) {
      const obj = bookmarkObject(ev);
      let value: unknown = obj;
      try {
        value = transformObject(s.render, rep, obj, true);
      } catch {
        value = obj;
      }
      return wrap(ev.type, value);
    }
    const key = representationKey(rep, noHeaders);
    const shareable = !(rep.neg.target?.kind === 'Table' && !noHeaders);
    const cached = shareable ? ev.encoded.get(key) : undefined;
    if (cached) return cached;
    let frame: Uint8Array;
    if (!rep.neg.target && proto) {
      frame = protobufWatchFrame(ev.type, cachedBody(ev.object, PROTOBUF_TYPE, false));
    } else if (!rep.neg.target && cbor) {
      frame = cborWatchEvent(ev.type, cachedBody(ev.object, CBOR, false));
    } else if (!rep.neg.target) {
      const obj = cachedJson(ev.object);
      const headStr = Buffer.from(`{"type":"${ev.type}","object":`);
      const buf = Buffer.allocUnsafe(headStr.byteLength + obj.byteLength + 2);
      buf.set(headStr, 0);
      buf.set(obj, headStr.byteLength);
      buf.write('}\n', headStr.byteLength + obj.byteLength);
      frame = buf;
    } else {
      let value: unknown;
      try {
        value = transformObject(s.render, rep, ev.object.object, noHeaders);
      } catch {
        // kube logs the failed transformation and sends the object as it is.
        value = ev.object.object;
      }
      frame = wrap(ev.type, value);
    }
    if (shareable) ev.encoded.set(key, frame);
    if (rep.neg.target?.kind === 'Table') noHeaders = true;
    return frame;
  };

  const writeFrame = (frame: Uint8Array): boolean => {
    if (ended || out.destroyed) return false;
    out.write(frame);
    s.onWatchEvent?.(s.group, s.version, s.kind, frame.byteLength);
    return out.writableLength <= WATCH_BACKLOG_BYTES;
  };

  const errorFrame = (err: Error): Uint8Array => {
    let se: StatusError = asStatusError(err);
    // Raw storage errors for lost history surface as kube's 410 Expired event.
    if (!(err instanceof StatusError) && /too old resource version|compacted/i.test(err.message)) {
      se = new StatusError(410, 'Expired', err.message);
    }
    return wrap('ERROR', se.toStatus());
  };

  const sink = {
    onEvent(ev: ObjectEvent): boolean {
      if (ended) return false;
      if (!started) {
        pending.push({ ev });
        return true;
      }
      try {
        return writeFrame(frameFor(ev));
      } catch (e) {
        writeFrame(errorFrame(e instanceof Error ? e : new Error(String(e))));
        end();
        return false;
      }
    },
    onClose(err?: Error): void {
      if (ended) return;
      if (!started) {
        pending.push(err ? { err } : { close: true });
        return;
      }
      if (err) writeFrame(errorFrame(err));
      end();
    },
  };

  watch = await s.storage.watch(opContext(ctx, s), params, sink);
  if (ctx.signal.aborted) {
    end();
    return await done;
  }

  // Headers now; events from here on are written directly.
  const headers: Record<string, string | string[]> = commonHeaders(ctx, {
    // kube names JSON plainly and other stream types with `;stream=watch`.
    // CBOR watches are CBOR sequences (kube answers application/cbor-seq even when asked for application/cbor).
    'Content-Type': proto ? `${PROTOBUF_TYPE};stream=watch` : cbor ? CBOR_SEQ : 'application/json',
    'Cache-Control': 'no-cache, private',
  });
  if (ctx.warnings.length) headers['Warning'] = warningHeaderValues(ctx.warnings);
  res.writeHead(200, headers);
  (res as { flushHeaders?: () => void }).flushHeaders?.();
  started = true;
  ctx.signal.addEventListener('abort', end, { once: true });
  res.once('close', end);
  // setTimeout overflows past 2^31-1 ms; longer timeouts are capped (≈24 days).
  timer = setTimeout(end, Math.min(timeoutSeconds * 1000, 2 ** 31 - 1));
  timer.unref?.();
  for (const p of pending.splice(0)) {
    if (ended) break;
    if (p.ev) sink.onEvent(p.ev);
    else sink.onClose(p.err);
  }
  await done;
}
