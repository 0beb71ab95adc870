/**
 * Query parameters of resource requests, decoded and validated the way kube-apiserver's parameter codec and
 * `metav1/validation` do it, so bad input yields the same Status (400 for values that do not parse, 422
 * `<Kind>Options.meta.k8s.io "" is invalid` for values that parse but are not allowed).
 *
 * Conversion rules (k8s.io/apimachinery/pkg/runtime/conversion.go): only the first value of a repeated
 * parameter counts; a boolean is false only for `0` or `false` (any case) — so a bare `?watch` is true;
 * integers go through Go's `strconv.ParseInt`, whose error text is the 400 message.
 */
import { errors, FieldError, field, StatusError } from '../machinery/errors.ts';
import type { DeleteParams, GetParams, ListParams, WatchParams, WriteParams } from '../registry/rest.ts';

/** Max length of a field manager (metav1 validation `FieldManagerMaxLength`). */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** A `FieldError` whose value is printed as Go's `%#v` of a string slice (`[]string{"x"}`). */
class GoSliceValueError extends FieldError {
  constructor(path: string, private readonly values: readonly string[], detail: string) {
    super('FieldValueNotSupported', path, detail);
  }
  override body(): string {
    return `Unsupported value: []string{${this.values.map((v) => JSON.stringify(v)).join(', ')}}: ${this.detail}`;
  }
}

/** Go's `strconv.ParseBool`-free rule used by the parameter codec: false only for `0`/`false`. */
export function parseBoolParam(value: string): boolean {
  return !(value === '0' || value.toLowerCase() === 'false');
}

/** Go's `strconv.ParseInt(s, 10, 64)`, with its error text. */
export function parseIntParam(value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n > 9223372036854775807n || n < -9223372036854775808n) {
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  }
  return Number(n);
}

function first(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null ? undefined : v;
}

function optBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = first(q, name);
  return v === undefined ? undefined : parseBoolParam(v);
}

function optInt(q: URLSearchParams, name: string): number | undefined {
  const v = first(q, name);
  // Pointer-typed ints treat an empty value as unset.
  return v === undefined || v === '' ? undefined : parseIntParam(v);
}

/** `<Kind>.meta.k8s.io "" is invalid: ...` with details {group, kind, causes} (no name, as kube's NewInvalid). */
function invalidOptions(kind: string, errs: FieldError[]): StatusError {
  return errors.invalid({ kind, group: 'meta.k8s.io' }, errs);
}

/** Validated ListOptions for list, watch and deletecollection. */
export interface ListQuery extends WatchParams {
  readonly watch: boolean;
  /** `sendInitialEvents` as sent (undefined when absent): validation needs to tell absent from false. */
  readonly sendInitialEventsSet: boolean;
}

/**
 * ListOptions as kube's `ValidateListOptions` checks them (WatchList treated as enabled so that
 * `sendInitialEvents` works, as the issue requires). Selectors are passed through as strings: the registry
 * parses them and reports bad syntax.
 */
export function parseListQuery(q: URLSearchParams, opts: { forceWatch?: boolean } = {}): ListQuery {
  const watch = opts.forceWatch === true || (optBool(q, 'watch') ?? false);
  const limit = optInt(q, 'limit');
  const timeoutSeconds = optInt(q, 'timeoutSeconds');
  const allowWatchBookmarks = optBool(q, 'allowWatchBookmarks');
  const sendInitialEvents = optBool(q, 'sendInitialEvents');
  const resourceVersion = first(q, 'resourceVersion') ?? '';
  const match = first(q, 'resourceVersionMatch') ?? '';
  const cont = first(q, 'continue') ?? '';
  const errs: FieldError[] = [];
  if (watch) {
    if (sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      errs.push(field.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (match) {
      if (sendInitialEvents === undefined) {
        errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== 'NotOlderThan') errs.push(field.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (cont) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match) {
      if (!resourceVersion) {
        errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      }
      if (cont) errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan') {
        errs.push(field.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
      }
      if (match === 'Exact' && resourceVersion === '0') {
        errs.push(field.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
    if (sendInitialEvents !== undefined) errs.push(field.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length) throw invalidOptions('ListOptions', errs);
  const out: ListQuery = {
    watch,
    sendInitialEventsSet: sendInitialEvents !== undefined,
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(match ? { resourceVersionMatch: match } : {}),
    ...(limit !== undefined && limit > 0 ? { limit } : {}),
    ...(cont ? { continue: cont } : {}),
    ...(q.has('labelSelector') ? { labelSelector: first(q, 'labelSelector') } : {}),
    ...(q.has('fieldSelector') ? { fieldSelector: first(q, 'fieldSelector') } : {}),
    ...(allowWatchBookmarks !== undefined ? { allowWatchBookmarks } : {}),
    ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
  };
  return out;
}

/** Only the ListParams the registry wants (drops watch-only fields). */
export function toListParams(q: ListQuery): ListParams {
  const { resourceVersion, resourceVersionMatch, limit, continue: cont, labelSelector, fieldSelector } = q;
  return {
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    ...(resourceVersionMatch !== undefined ? { resourceVersionMatch } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(cont !== undefined ? { continue: cont } : {}),
    ...(labelSelector !== undefined ? { labelSelector } : {}),
    ...(fieldSelector !== undefined ? { fieldSelector } : {}),
  };
}

export function parseGetQuery(q: URLSearchParams): GetParams {
  const rv = first(q, 'resourceVersion');
  return rv ? { resourceVersion: rv } : {};
}

/** Options shared by create, update and patch (CreateOptions / UpdateOptions / PatchOptions). */
export interface WriteQuery extends WriteParams {
  readonly dryRun: boolean;
  /** As sent; empty when absent (the handler then infers one from the User-Agent). */
  readonly fieldManager: string;
  readonly force?: boolean;
}

function dryRunValues(q: URLSearchParams): string[] {
  return q.getAll('dryRun');
}

function validateDryRun(values: string[]): FieldError[] {
  // Allowed set is {"All"}; a bare `?dryRun` is the empty string, which kube rejects too.
  if (values.every((v) => v === 'All')) return [];
  return [new GoSliceValueError('dryRun', values, 'supported values: "All"')];
}

function validateFieldManager(fm: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fm) > FIELD_MANAGER_MAX_LENGTH) errs.push(field.tooLong('fieldManager', '', FIELD_MANAGER_MAX_LENGTH));
  let pos = 0;
  for (const ch of fm) {
    if (!isPrintable(ch)) {
      const cp = ch.codePointAt(0) ?? 0;
      errs.push(field.invalid('fieldManager', fm,
        `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${pos})`));
    }
    pos += Buffer.byteLength(ch);
  }
  return errs;
}

/** Go's unicode.IsPrint, close enough: letters, marks, numbers, punctuation, symbols and ASCII space. */
export function isPrintable(ch: string): boolean {
  if (ch === ' ') return true;
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/**
 * Parses CreateOptions/UpdateOptions/PatchOptions. `kind` names the options kind in the 422 message.
 * For apply patches `fieldManager` is required (PatchOptions validation).
 */
export function parseWriteQuery(q: URLSearchParams, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  opts: { apply?: boolean } = {}): WriteQuery {
  const dry = dryRunValues(q);
  const fieldManager = first(q, 'fieldManager') ?? '';
  const fv = first(q, 'fieldValidation') ?? '';
  const force = optBool(q, 'force');
  const errs: FieldError[] = [];
  if (kind === 'PatchOptions') {
    if (opts.apply) {
      if (!fieldManager) errs.push(field.required('fieldManager', 'is required for apply patch'));
    } else if (force !== undefined) {
      errs.push(field.forbidden('force', 'may not be specified for non-apply patch'));
    }
  }
  errs.push(...validateFieldManager(fieldManager));
  errs.push(...validateDryRun(dry));
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(fv)) {
    errs.push(field.notSupported('fieldValidation', fv, ['', 'Ignore', 'Strict', 'Warn']));
  }
  if (errs.length) throw invalidOptions(kind, errs);
  return {
    dryRun: dry.length > 0,
    fieldManager,
    fieldValidation: (fv || 'Warn') as 'Ignore' | 'Warn' | 'Strict',
    ...(force !== undefined ? { force } : {}),
  };
}

/**
 * The field manager kube infers from the User-Agent when none is given: the part before the first `/`,
 * unprintable characters dropped, cut to 128 bytes (handlers/create.go `prefixFromUserAgent`).
 */
export function managerFromUserAgent(ua: string | undefined): string {
  const head = (ua ?? '').split('/')[0] ?? '';
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (!isPrintable(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

export interface DeleteQuery extends DeleteParams {
  readonly dryRun: boolean;
}

const PROPAGATION = ['Orphan', 'Background', 'Foreground'] as const;

/**
 * DeleteOptions from the body (when one was sent: `body` is the decoded JSON object) or else from the query,
 * validated as kube's `ValidateDeleteOptions`.
 */
export function parseDeleteOptions(q: URLSearchParams, body: Record<string, unknown> | undefined): DeleteQuery {
  let dry: string[];
  let grace: number | undefined;
  let orphan: boolean | undefined;
  let policy: string | undefined;
  let preconditions: { uid?: string; resourceVersion?: string } | undefined;
  if (body) {
    const k = body['kind'];
    if (k !== undefined && k !== 'DeleteOptions') {
      throw errors.badRequest(`the object provided is unrecognized (must be of type DeleteOptions): no kind ${JSON.stringify(k)} is registered for version ${JSON.stringify(typeof body['apiVersion'] === 'string' ? body['apiVersion'] : 'meta.k8s.io/v1')}`);
    }
    dry = asStringList(body['dryRun'], 'dryRun');
    grace = asOptInt(body['gracePeriodSeconds'], 'gracePeriodSeconds');
    orphan = asOptBool(body['orphanDependents'], 'orphanDependents');
    policy = asOptString(body['propagationPolicy'], 'propagationPolicy');
    const pre = body['preconditions'];
    if (pre !== undefined && pre !== null) {
      if (typeof pre !== 'object' || Array.isArray(pre)) throw decodeFieldError('preconditions', 'object', pre);
      const p = pre as Record<string, unknown>;
      const uid = asOptString(p['uid'], 'preconditions.uid');
      const rv = asOptString(p['resourceVersion'], 'preconditions.resourceVersion');
      preconditions = { ...(uid !== undefined ? { uid } : {}), ...(rv !== undefined ? { resourceVersion: rv } : {}) };
    }
  } else {
    dry = dryRunValues(q);
    grace = optInt(q, 'gracePeriodSeconds');
    orphan = optBool(q, 'orphanDependents');
    policy = first(q, 'propagationPolicy');
  }
  const errs: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined) {
    errs.push(field.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && !(PROPAGATION as readonly string[]).includes(policy)) {
    errs.push(field.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errs.push(...validateDryRun(dry));
  if (errs.length) throw invalidOptions('DeleteOptions', errs);
  return {
    dryRun: dry.length > 0,
    ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}),
    ...(orphan !== undefined ? { orphanDependents: orphan } : {}),
    ...(policy !== undefined ? { propagationPolicy: policy as DeleteParams['propagationPolicy'] } : {}),
    ...(preconditions ? { preconditions } : {}),
  };
}

function decodeFieldError(path: string, want: string, got: unknown): StatusError {
  const t = Array.isArray(got) ? 'array' : got === null ? 'null' : typeof got;
  return errors.badRequest(`json: cannot unmarshal ${t} into Go struct field DeleteOptions.${path} of type ${want}`);
}

function asStringList(v: unknown, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw decodeFieldError(path, '[]string', v);
  return v as string[];
}

function asOptInt(v: unknown, path: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw decodeFieldError(path, 'int64', v);
  return v;
}

function asOptBool(v: unknown, path: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw decodeFieldError(path, 'bool', v);
  return v;
}

function asOptString(v: unknown, path: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw decodeFieldError(path, 'string', v);
  return v;
}

/** TableOptions: `includeObject` (None | Object | Metadata, default Metadata). */
export function parseIncludeObject(q: URLSearchParams): 'None' | 'Object' | 'Metadata' {
  const v = first(q, 'includeObject') ?? '';
  if (v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  throw errors.badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(v)}: must be 'Metadata', 'Object', 'None', or empty`);
}

/** `?pretty`: strconv.ParseBool of the value (invalid → false); absent → pretty for curl/Wget/browsers. */
export function wantsPretty(q: URLSearchParams, userAgent: string | undefined): boolean {
  const v = q.get('pretty');
  if (v !== null && v !== '') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}
