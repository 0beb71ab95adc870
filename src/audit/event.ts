/**
 * One request's audit event as kube's AuditContext keeps it: metadata from the request (LogRequestMetadata),
 * what handlers report through the AuditRecorder contract (request/response objects, impersonation), and a
 * snapshot per stage for the backends. Bodies are captured only at the levels that record them; a Secret's data
 * never enters a Metadata-level event because nothing below Request keeps a body.
 */
import type { Attributes } from '../request/authorizer.ts';
import type { AuditRecorder } from '../request/audit.ts';
import type { Req } from '../request/context.ts';
import type { UserInfo } from '../machinery/objects.ts';
import type { RequestAuditConfig } from './policy.ts';
import { levelAtLeast, type AuditEvent, type EventUser, type ObjectReference, type ResponseStatus, type Stage } from './types.ts';

/** kube's maxUserAgentLength and its suffix. */
const MAX_USER_AGENT = 1024;
const USER_AGENT_TRUNCATED = '...TRUNCATED';

/** Microseconds since the epoch (of `at`, a performance.now() reading); that clock has sub-millisecond resolution. */
export function nowMicros(at: number = performance.now()): number {
  return Math.round((performance.timeOrigin + at) * 1000);
}

let secondPrefix = '';
let secondOf = -1;

/** metav1.MicroTime's JSON form: RFC 3339 in UTC with exactly six fractional digits. */
export function microTime(us: number): string {
  const sec = Math.floor(us / 1_000_000);
  if (sec !== secondOf) {
    // One date formatting per second; the fraction is appended.
    secondOf = sec;
    secondPrefix = new Date(sec * 1000).toISOString().slice(0, 19);
  }
  const frac = us - sec * 1_000_000;
  return `${secondPrefix}.${frac < 100_000 ? String(frac).padStart(6, '0') : String(frac)}Z`;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`) prints as Go prints it: the IPv4 form. */
function goIp(s: string): string | undefined {
  const t = s.trim();
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);
  const ip = v4 ? v4[1]! : t;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return ip.split('.').every((o) => Number(o) <= 255) ? ip.split('.').map(Number).join('.') : undefined;
  if (/^[0-9a-f:.]+$/i.test(ip) && ip.includes(':')) return ip.toLowerCase();
  return undefined;
}

function header(req: Req, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The peer address of a connection, formatted once per connection (keep-alive requests share it). */
const peerIps = new WeakMap<object, string | undefined>();

function peerIp(req: Req): string | undefined {
  const socket = req.socket as object | undefined;
  if (!socket) return undefined;
  if (peerIps.has(socket)) return peerIps.get(socket);
  const ip = goIp((req.socket as { remoteAddress?: string }).remoteAddress ?? '');
  peerIps.set(socket, ip);
  return ip;
}

/** kube's utilnet.SourceIPs: X-Forwarded-For entries, X-Real-Ip when new, then the peer unless it repeats the last. */
export function sourceIPs(req: Req): string[] {
  const xff = header(req, 'x-forwarded-for');
  const real = header(req, 'x-real-ip');
  const peer = peerIp(req);
  if (!xff && !real) return peer ? [peer] : [];
  const out: string[] = [];
  if (xff) for (const part of xff.split(',')) {
    const ip = goIp(part);
    if (ip) out.push(ip);
  }
  const realIp = real ? goIp(real) : undefined;
  if (realIp && !out.includes(realIp)) out.push(realIp);
  if (peer && out[out.length - 1] !== peer) out.push(peer);
  return out;
}

function eventUser(u: UserInfo): EventUser {
  // The unauthenticated user of a failed authentication is `"user":{}` in kube's events.
  const out: EventUser = u.username ? { username: u.username } : {};
  if (u.uid) out.uid = u.uid;
  if (u.groups?.length) out.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) out.extra = Object.fromEntries(Object.keys(u.extra).sort().map((k) => [k, [...u.extra![k]!]]));
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isStatus(v: unknown): v is Record<string, unknown> {
  return isObj(v) && v.kind === 'Status' && v.apiVersion === 'v1';
}

/** A copy without metadata.managedFields (items of a list too), as kube's copyWithoutManagedFields. */
export function withoutManagedFields(v: unknown): unknown {
  if (!isObj(v)) return v;
  let out = v;
  const meta = v.metadata;
  if (isObj(meta) && 'managedFields' in meta) {
    const { managedFields: _drop, ...rest } = meta;
    out = { ...v, metadata: rest };
  }
  if (Array.isArray(v.items) && v.items.some((i) => isObj(i) && isObj(i.metadata) && 'managedFields' in i.metadata)) {
    out = { ...out, items: v.items.map(withoutManagedFields) };
  }
  return out;
}

/** A detached copy: later changes to the object (defaults, storage) must not change what was recorded. */
function detach(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v)) as unknown;
}

const REF_FIELDS = ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const;

/** ObjectReference fields in Go's order. */
function orderedRef(r: ObjectReference): ObjectReference {
  const out: ObjectReference = {};
  for (const k of REF_FIELDS) if (r[k]) out[k] = r[k];
  return out;
}

export interface RequestAuditInit {
  readonly auditId: string;
  readonly config: RequestAuditConfig;
  readonly attrs: Attributes;
  readonly req: Req;
  /** Microseconds since the epoch. */
  readonly receivedMicros: number;
  /** The request's annotation map (ctx.auditAnnotations), read at every stage. */
  readonly annotations: () => Record<string, string> | undefined;
}

/** The event of one audited request (level Metadata or above). */
export class RequestAudit implements AuditRecorder {
  readonly recordsRequest: boolean;
  readonly recordsResponse: boolean;
  readonly config: RequestAuditConfig;
  private readonly base: Pick<AuditEvent, 'auditID' | 'requestURI' | 'verb' | 'user' | 'sourceIPs' | 'userAgent'>;
  private readonly receivedMicros: number;
  private receivedText: string | undefined;
  private readonly annotations: () => Record<string, string> | undefined;
  private objectRef: ObjectReference | undefined;
  private impersonatedUser: EventUser | undefined;
  private requestObject: unknown;
  private responseObject: unknown;
  responseStatus: ResponseStatus | undefined;

  constructor(o: RequestAuditInit) {
    this.config = o.config;
    this.recordsRequest = levelAtLeast(o.config.level, 'Request');
    this.recordsResponse = levelAtLeast(o.config.level, 'RequestResponse');
    let ua = header(o.req, 'user-agent');
    if (ua && ua.length > MAX_USER_AGENT) ua = ua.slice(0, MAX_USER_AGENT) + USER_AGENT_TRUNCATED;
    const a = o.attrs;
    this.base = {
      auditID: o.auditId, requestURI: o.req.url ?? '/', verb: a.verb, user: eventUser(a.user),
      sourceIPs: sourceIPs(o.req), ...(ua ? { userAgent: ua } : {}),
    };
    if (a.isResourceRequest) {
      const ref: ObjectReference = {};
      if (a.resource) ref.resource = a.resource;
      if (a.namespace) ref.namespace = a.namespace;
      if (a.name) ref.name = a.name;
      if (a.apiGroup) ref.apiGroup = a.apiGroup;
      if (a.apiVersion) ref.apiVersion = a.apiVersion;
      if (a.subresource) ref.subresource = a.subresource;
      this.objectRef = ref;
    }
    this.receivedMicros = o.receivedMicros;
    this.annotations = o.annotations;
  }

  logRequestObject(obj: unknown): void {
    const ref = (this.objectRef ??= {});
    const meta = isObj(obj) && isObj(obj.metadata) ? obj.metadata : undefined;
    if (meta) {
      if (!ref.namespace && typeof meta.namespace === 'string' && meta.namespace) ref.namespace = meta.namespace;
      if (!ref.name && typeof meta.name === 'string' && meta.name) ref.name = meta.name;
      if (!ref.uid && typeof meta.uid === 'string' && meta.uid) ref.uid = meta.uid;
      if (!ref.resourceVersion && typeof meta.resourceVersion === 'string' && meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
    }
    if (!this.recordsRequest) return;
    this.requestObject = detach(this.config.omitManagedFields ? withoutManagedFields(obj) : obj);
  }

  logRequestPatch(patch: Uint8Array): void {
    if (!this.recordsRequest) return;
    try {
      this.requestObject = JSON.parse(Buffer.from(patch).toString('utf8')) as unknown;
    } catch {
      // A YAML apply body: recorded as the text it was.
      this.requestObject = Buffer.from(patch).toString('utf8');
    }
  }

  logResponseObject(obj: unknown): void {
    const v = typeof obj === 'function' && !this.recordsResponse ? undefined : typeof obj === 'function' ? (obj as () => unknown)() : obj;
    if (isStatus(v)) {
      const s: ResponseStatus = { metadata: {} };
      if (typeof v.status === 'string' && v.status) s.status = v.status;
      if (typeof v.message === 'string' && v.message) s.message = v.message;
      if (typeof v.reason === 'string' && v.reason) s.reason = v.reason;
      if (v.details !== undefined) s.details = v.details;
      if (typeof v.code === 'number' && v.code) s.code = v.code;
      this.responseStatus = s;
    }
    if (!this.recordsResponse || v === undefined) return;
    this.responseObject = this.config.omitManagedFields ? withoutManagedFields(v) : v;
  }

  logImpersonatedUser(user: UserInfo): void {
    const u = eventUser(user);
    // kube always sets the groups of an impersonated user, empty or not.
    this.impersonatedUser = { ...u, groups: [...(user.groups ?? [])] };
  }

  /** kube's SetEventResponseStatusCode: the code written, on the Status when one was logged. */
  setResponseCode(code: number): void {
    (this.responseStatus ??= { metadata: {} }).code = code;
  }

  setResponseStatus(s: ResponseStatus): void {
    this.responseStatus = s;
  }

  /** Whether this stage is omitted by the policy. */
  omits(stage: Stage): boolean {
    return this.config.omitStages.includes(stage);
  }

  /** The event as of `stage` (a new object; backends may keep it). */
  snapshot(stage: Stage, stageMicros: number = nowMicros()): AuditEvent {
    const received = (this.receivedText ??= microTime(this.receivedMicros));
    const ann = this.annotations();
    // Built field by field in Go's order (an object literal with spreads costs more per request).
    const ev = { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: this.config.level, auditID: this.base.auditID, stage,
      requestURI: this.base.requestURI, verb: this.base.verb, user: this.base.user } as AuditEvent;
    if (this.impersonatedUser) ev.impersonatedUser = this.impersonatedUser;
    if (this.base.sourceIPs?.length) ev.sourceIPs = this.base.sourceIPs;
    if (this.base.userAgent !== undefined) ev.userAgent = this.base.userAgent;
    if (this.objectRef) ev.objectRef = orderedRef(this.objectRef);
    if (this.responseStatus) ev.responseStatus = { ...this.responseStatus };
    if (this.requestObject !== undefined) ev.requestObject = this.requestObject;
    if (this.responseObject !== undefined) ev.responseObject = this.responseObject;
    ev.requestReceivedTimestamp = received;
    ev.stageTimestamp = stage === 'RequestReceived' ? received : microTime(stageMicros);
    if (ann) {
      const keys = Object.keys(ann);
      if (keys.length) {
        const sorted: Record<string, string> = {};
        for (const k of keys.sort()) sorted[k] = ann[k]!;
        ev.annotations = sorted;
      }
    }
    return ev;
  }
}
