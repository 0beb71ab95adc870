/**
 * The error catalog: every failure a request can meet is a `StatusError`, turned into a Kubernetes `Status`
 * body at one boundary (`toStatus`). Messages follow kube-apiserver's wording because clients parse them
 * (kubectl prints them verbatim; client-go matches on reason and code).
 */

export type StatusReason =
  | 'BadRequest' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Gone'
  | 'Invalid' | 'ServerTimeout' | 'Timeout' | 'TooManyRequests' | 'MethodNotAllowed' | 'NotAcceptable'
  | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'InternalError' | 'Expired' | 'ServiceUnavailable' | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** Identifies the object an error is about: `kind` here is what kube-apiserver puts in details.kind. */
export interface Qualified {
  /** For most errors kube-apiserver reports the resource (plural), e.g. `configmaps`; for Invalid the Kind. */
  kind: string;
  group?: string;
  name?: string;
}

export class StatusError extends Error {
  override name = 'StatusError';
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
    /** The Status's list metadata: an expired continue token's 410 carries a fresh token here. */
    readonly listMeta?: { continue?: string },
  ) {
    super(message);
  }

  toStatus(): Status {
    // Key order as kube-apiserver writes it (details before code), so bodies compare byte for byte.
    // An empty reason is left out, as Go's omitempty does.
    return {
      kind: 'Status', apiVersion: 'v1', metadata: { ...this.listMeta }, status: 'Failure', message: this.message,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

function details(q: Qualified, extra: Partial<StatusDetails> = {}): StatusDetails {
  const d: StatusDetails = {};
  if (q.name !== undefined) d.name = q.name;
  if (q.group) d.group = q.group;
  d.kind = q.kind;
  return { ...d, ...extra };
}

/** `configmaps "x"` or `configmaps.apps "x"`: kube-apiserver's qualified resource + name. */
export function qualifiedName(q: Qualified): string {
  const res = q.group ? `${q.kind}.${q.group}` : q.kind;
  return q.name !== undefined ? `${res} "${q.name}"` : res;
}

export const errors = {
  notFound: (q: Qualified) => new StatusError(404, 'NotFound', `${qualifiedName(q)} not found`, details(q)),
  alreadyExists: (q: Qualified) => new StatusError(409, 'AlreadyExists', `${qualifiedName(q)} already exists`, details(q)),
  /** Optimistic concurrency failure: the exact text clients match on. */
  conflict: (q: Qualified, why = 'the object has been modified; please apply your changes to the latest version and try again') =>
    new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedName(q)}: ${why}`, details(q)),
  /** 422 Invalid: `q.kind` is the Kind (e.g. ConfigMap), one cause per field path. */
  invalid: (q: Qualified, causes: FieldError[]) => {
    const list = causes.map((c) => c.toString()).join(', ');
    const msg = `${q.group ? `${q.kind}.${q.group}` : q.kind} "${q.name ?? ''}" is invalid: ${causes.length > 1 ? `[${list}]` : list}`;
    return new StatusError(422, 'Invalid', msg, details(q, { causes: causes.map((c) => c.toCause()) }));
  },
  badRequest: (message: string, causes?: StatusCause[]) => new StatusError(400, 'BadRequest', message, causes ? { causes } : undefined),
  unauthorized: (message = 'Unauthorized') => new StatusError(401, 'Unauthorized', message),
  /** `configmaps is forbidden: User "x" cannot list resource "configmaps" in API group "" in the namespace "ns"` */
  forbidden: (q: Qualified, reason: string) =>
    new StatusError(403, 'Forbidden', `${qualifiedName(q)} is forbidden: ${reason}`, details(q)),
  forbiddenPlain: (message: string) => new StatusError(403, 'Forbidden', message, {}),
  gone: (message: string) => new StatusError(410, 'Gone', message),
  expired: (message: string) => new StatusError(410, 'Expired', message),
  methodNotSupported: (q: Qualified, action: string) =>
    new StatusError(405, 'MethodNotAllowed', `${action} is not supported on resources of kind ${JSON.stringify(q.group ? `${q.kind}.${q.group}` : q.kind)}`, details(q)),
  notAcceptable: (available: string[]) =>
    new StatusError(406, 'NotAcceptable', `406: Not Acceptable\n\nAvailable representations: ${available.join(', ')}`, {}),
  unsupportedMediaType: (accepted: string[]) =>
    new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),
  requestEntityTooLarge: (message = 'the server has received a request that is too large') =>
    new StatusError(413, 'RequestEntityTooLarge', message),
  tooManyRequests: (message = 'Too many requests, please try again later.', retryAfterSeconds = 1) =>
    new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) }),
  /** The 504 for a resourceVersion the server has not reached (message and cause as kube-apiserver). */
  tooLargeResourceVersion: (requested: number, current: number, retryAfterSeconds = 1) =>
    new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`,
      { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) }),
  timeout: (message: string, retryAfterSeconds = 0) => new StatusError(504, 'Timeout', message, retryAfterSeconds ? { retryAfterSeconds } : {}),
  serviceUnavailable: (message: string) => new StatusError(503, 'ServiceUnavailable', message),
  internal: (message: string) =>
    new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),
};

/** One field-level validation failure, worded as k8s.io/apimachinery/pkg/util/validation/field does. */
export class FieldError {
  constructor(
    readonly type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueForbidden'
      | 'FieldValueDuplicate' | 'FieldValueTooLong' | 'FieldValueTooMany' | 'FieldValueNotFound' | 'InternalError',
    readonly field: string,
    readonly detail: string,
    readonly value?: unknown,
    readonly hasValue = value !== undefined,
  ) {}

  /** `Invalid value: "Bad_Name": <detail>` / `Required value` / `Unsupported value: "x": supported values: ...`. */
  body(): string {
    const v = this.hasValue ? `: ${formatValue(this.value)}` : '';
    switch (this.type) {
      case 'FieldValueRequired': return `Required value${this.detail ? `: ${this.detail}` : ''}`;
      case 'FieldValueInvalid': return `Invalid value${v}${this.detail ? `: ${this.detail}` : ''}`;
      case 'FieldValueNotSupported': return `Unsupported value${v}${this.detail ? `: ${this.detail}` : ''}`;
      case 'FieldValueForbidden': return `Forbidden${this.detail ? `: ${this.detail}` : ''}`;
      case 'FieldValueDuplicate': return `Duplicate value${v}`;
      case 'FieldValueTooLong': return `Too long${this.detail ? `: ${this.detail}` : ''}`;
      case 'FieldValueTooMany': return `Too many${this.detail ? `: ${this.detail}` : ''}`;
      case 'FieldValueNotFound': return `Not found${v}`;
      default: return `Internal error: ${this.detail}`;
    }
  }

  toString(): string {
    return `${this.field}: ${this.body()}`;
  }

  toCause(): StatusCause {
    return { reason: this.type, message: this.body(), field: this.field };
  }
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  return JSON.stringify(v);
}

export const field = {
  required: (path: string, detail = '') => new FieldError('FieldValueRequired', path, detail),
  invalid: (path: string, value: unknown, detail: string) => new FieldError('FieldValueInvalid', path, detail, value, true),
  notSupported: (path: string, value: unknown, supported: string[]) =>
    new FieldError('FieldValueNotSupported', path, `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`, value, true),
  forbidden: (path: string, detail: string) => new FieldError('FieldValueForbidden', path, detail),
  duplicate: (path: string, value: unknown) => new FieldError('FieldValueDuplicate', path, '', value, true),
  tooLong: (path: string, value: unknown, max: number) => new FieldError('FieldValueTooLong', path, `may not be more than ${max} bytes`, value, false),
  notFound: (path: string, value: unknown) => new FieldError('FieldValueNotFound', path, '', value, true),
};

/** Any thrown value → StatusError (unknown errors become 500 without leaking internals beyond the message). */
export function asStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return errors.internal(message);
}

export function isStatus(err: unknown, code: number): boolean {
  return err instanceof StatusError && err.code === code;
}

export const isNotFound = (err: unknown): boolean => isStatus(err, 404);
export const isAlreadyExists = (err: unknown): boolean => err instanceof StatusError && err.reason === 'AlreadyExists';
export const isConflict = (err: unknown): boolean => err instanceof StatusError && err.reason === 'Conflict';

/** kube-apiserver marks "namespace is terminating" refusals with this cause reason (v1.NamespaceTerminatingCause). */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof StatusError && (err.details?.causes ?? []).some((c) => c.reason === NAMESPACE_TERMINATING_CAUSE);
}

/** A bad flag, option or configuration file: the server refuses to start with this message. */
export class OptionsError extends Error {
  override name = 'OptionsError';
}
