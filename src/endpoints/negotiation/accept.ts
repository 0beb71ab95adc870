/**
 * Output media type negotiation, as kube-apiserver's `negotiation.NegotiateMediaTypeOptions`:
 * the `Accept` clauses are ordered by q-value (then specificity), and the first clause that names a type we
 * serve (exactly, `application/*` or `*∕*`) with acceptable parameters wins. Parameters:
 *   `as`, `g`, `v`  — a conversion target: `Table` (JSON/YAML only), `PartialObjectMetadata`,
 *                     `PartialObjectMetadataList`, all in `meta.k8s.io` `v1` or `v1beta1`;
 *   `stream=watch`  — only for types with a stream form (JSON; YAML has none);
 *   `pretty=1`, others ignored.
 * No clause fits → 406. Keelson serves JSON, YAML, protobuf (built-in kinds) and, with the feature gate
 * CBORServingAndStorage (`opts.cbor`), CBOR (`application/cbor`; watches answer `application/cbor-seq`, which
 * is also accepted by name on watches).
 */
import { StatusError } from '../../machinery/errors.ts';

export type ServedType = 'application/json' | 'application/yaml' | 'application/vnd.kubernetes.protobuf' | 'application/cbor';

/** The types we serve, in kube's order; the first is the default. */
export const SERVED_TYPES: readonly ServedType[] = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
/** Types with a watch stream form (YAML has no stream serializer in kube-apiserver). */
export const STREAM_TYPES: readonly ServedType[] = ['application/json', 'application/vnd.kubernetes.protobuf'];
// CBOR (gate CBORServingAndStorage): kube appends its serializer after the others.
const SERVED_WITH_CBOR: readonly ServedType[] = [...SERVED_TYPES, 'application/cbor'];
const STREAM_WITH_CBOR: readonly ServedType[] = [...STREAM_TYPES, 'application/cbor'];

/** The served types for these options (CBOR only with the gate). */
export function servedTypes(opts: { readonly cbor?: boolean } = {}): readonly ServedType[] {
  return opts.cbor ? SERVED_WITH_CBOR : SERVED_TYPES;
}

function streamTypes(opts: { readonly cbor?: boolean }): readonly ServedType[] {
  return opts.cbor ? STREAM_WITH_CBOR : STREAM_TYPES;
}

export type TargetKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface ConversionTarget {
  readonly kind: TargetKind;
  readonly group: 'meta.k8s.io';
  readonly version: 'v1' | 'v1beta1';
}

export interface Negotiated {
  readonly type: ServedType;
  readonly target?: ConversionTarget;
  readonly pretty: boolean;
  readonly stream?: 'watch';
}

export interface AcceptClause {
  type: string;
  subtype: string;
  q: number;
  params: Record<string, string>;
}

/** Parses an Accept header (RFC 7231 §5.3.2) into clauses sorted by preference. */
export function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  for (const part of splitOutsideQuotes(header, ',')) {
    const pieces = splitOutsideQuotes(part, ';').map((s) => s.trim());
    const mt = pieces.shift();
    if (!mt) continue;
    const slash = mt.indexOf('/');
    const type = (slash < 0 ? mt : mt.slice(0, slash)).trim().toLowerCase();
    const subtype = (slash < 0 ? '*' : mt.slice(slash + 1)).trim().toLowerCase();
    if (!type || !subtype) continue;
    let q = 1;
    const params: Record<string, string> = {};
    for (const p of pieces) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      let v = p.slice(eq + 1).trim();
      if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
      if (k === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? n : 0;
      } else {
        params[k] = v;
      }
    }
    out.push({ type, subtype, q, params });
  }
  const score = (c: AcceptClause) => (c.type === '*' ? 0 : 2) + (c.subtype === '*' ? 0 : 1);
  // Stable: equal preference keeps the client's order.
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (b.c.q - a.c.q) || (score(b.c) - score(a.c)) || (a.i - b.i))
    .map((x) => x.c)
    .filter((c) => c.q > 0);
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    if (ch === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out;
}

/** What an endpoint allows: the verb decides whether Table and streams are possible. */
export interface NegotiateOptions {
  /** The request is a watch: only stream-capable types; `stream=watch` allowed. */
  readonly watch?: boolean;
  /** Conversions are allowed (resource GET/LIST/WATCH and write responses; not for errors). */
  readonly allowTransform?: boolean;
  /** Watch-list (`sendInitialEvents` + bookmarks): Table is not offered (kube's watchListEndpointRestrictions). */
  readonly forbidTable?: boolean;
  /** The kind has a protobuf schema (built-in kinds; not custom resources or plain values). */
  readonly protobuf?: boolean;
  /** CBOR is served (feature gate CBORServingAndStorage). */
  readonly cbor?: boolean;
}

function targetFrom(params: Record<string, string>): ConversionTarget | undefined | null {
  const as = params['as'];
  const g = params['g'];
  const v = params['v'];
  if (as === undefined && g === undefined && v === undefined) return undefined;
  if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) return null;
  if (as !== 'Table' && as !== 'PartialObjectMetadata' && as !== 'PartialObjectMetadataList') return null;
  return { kind: as, group: g, version: v };
}

/**
 * Picks the representation, or returns undefined when nothing acceptable is offered.
 * An empty or missing Accept header means JSON.
 */
export function negotiate(accept: string | undefined, opts: NegotiateOptions = {}): Negotiated | undefined {
  // Clients send the same few Accept headers over and over: remember the answers (bounded).
  const key = `${opts.watch ? 1 : 0}${opts.allowTransform ? 1 : 0}${opts.forbidTable ? 1 : 0}${opts.protobuf ? 1 : 0}${opts.cbor ? 1 : 0}${accept ?? ''}`;
  if (memo.has(key)) return memo.get(key);
  const result = negotiateUncached(accept, opts);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, result);
  return result;
}

const MEMO_LIMIT = 512;
const memo = new Map<string, Negotiated | undefined>();

function negotiateUncached(accept: string | undefined, opts: NegotiateOptions): Negotiated | undefined {
  const streams = streamTypes(opts);
  const candidates = (opts.watch ? streams : servedTypes(opts)).filter((t) => opts.protobuf === true || t !== 'application/vnd.kubernetes.protobuf');
  if (!accept || !accept.trim()) return Object.freeze({ type: candidates[0] ?? 'application/json', pretty: false });
  for (const clause of parseAccept(accept)) {
    for (const served of candidates) {
      const [t, st] = served.split('/') as [string, string];
      const typeMatches = (clause.type === t && (clause.subtype === st || clause.subtype === '*'))
        || (clause.type === '*' && clause.subtype === '*')
        // A watch answers CBOR as a CBOR sequence; asking for the sequence by name is the same.
        || (opts.watch === true && served === 'application/cbor' && clause.type === t && clause.subtype === 'cbor-seq');
      if (!typeMatches) continue;
      const stream = clause.params['stream'];
      if (stream !== undefined && stream !== '' && (stream !== 'watch' || !streams.includes(served))) continue;
      const target = targetFrom(clause.params);
      if (target === null) continue;
      if (target) {
        if (!opts.allowTransform) continue;
        // Tables exist only as JSON and YAML (kube's AllowsMediaTypeTransform).
        if (target.kind === 'Table' && (opts.forbidTable || served === 'application/vnd.kubernetes.protobuf' || served === 'application/cbor')) continue;
      }
      return Object.freeze({
        type: served,
        pretty: clause.params['pretty'] === '1',
        ...(target ? { target: Object.freeze(target) } : {}),
        ...(stream === 'watch' ? { stream: 'watch' as const } : {}),
      });
    }
  }
  return undefined;
}

/**
 * The 406 kube-apiserver answers when no clause fits. Its router (go-restful) rejects types it does not
 * produce at all with "406: Not Acceptable" and the list of representations; a served type with parameters
 * we cannot honour gets the handler's "only the following media types are accepted" form.
 */
export function notAcceptable(accept: string, opts: NegotiateOptions = {}): StatusError {
  // The router knows every served type (watch routes too); only the handler knows about streams.
  const served = servedTypes(opts);
  const anyTypeServed = parseAccept(accept).some((c) => served.some((s) => {
    const [t, st] = s.split('/') as [string, string];
    return (c.type === t && (c.subtype === st || c.subtype === '*')) || (c.type === '*' && c.subtype === '*');
  }));
  if (!anyTypeServed) {
    return new StatusError(406, 'NotAcceptable',
      `406: Not Acceptable\n\nAvailable representations: ${served.join(', ')}`, {});
  }
  const list = opts.watch ? streamTypes(opts).map((t) => `${t};stream=watch`) : [...served];
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${list.join(', ')}`);
}

/** negotiate() or throw the 406. */
export function negotiateOrThrow(accept: string | undefined, opts: NegotiateOptions = {}): Negotiated {
  const n = negotiate(accept, opts);
  if (!n) throw notAcceptable(accept ?? '', opts);
  return n;
}
