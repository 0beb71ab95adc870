/**
 * The request context every filter and handler receives. It grows in chain order: `info` is set by the
 * request-info filter, `user` by authentication (handlers run after both, so they may rely on them).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { UserInfo } from '../machinery/objects.ts';
import type { Authorizer } from './authorizer.ts';
import type { AuditRecorder } from './audit.ts';

export type Req = IncomingMessage | Http2ServerRequest;
export type Res = ServerResponse | Http2ServerResponse;

/** What the URL and method say, as kube-apiserver's RequestInfoFactory derives it. */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; lower-case HTTP method for non-resource. */
  readonly verb: string;
  /** 'api' | 'apis' for resource requests, '' otherwise. */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Path segments after /api/v1 or /apis/<g>/<v>. */
  readonly parts: readonly string[];
}

export interface RequestContext {
  readonly req: Req;
  readonly res: Res;
  readonly url: URL;
  readonly query: URLSearchParams;
  readonly info: RequestInfo;
  /** Set by authentication; handlers always see it. */
  user: UserInfo;
  readonly auditId: string;
  /**
   * The FlowSchema and PriorityLevelConfiguration UIDs priority and fairness classified this request with, sent
   * as `X-Kubernetes-PF-*` headers. Like `Audit-Id`, every response writer adds them (commonHeaders in
   * respond.ts) in its one writeHead: headers set earlier with setHeader sent Node down its slower merging path.
   */
  flowSchemaUid?: string;
  priorityLevelUid?: string;
  /** Values for `Warning: 299 - "<text>"` response headers, written with the response. */
  readonly warnings: string[];
  /** Aborted when the client disconnects or the server shuts down. */
  readonly signal: AbortSignal;
  readonly startTime: number;
  /**
   * Annotations for this request's audit event (e.g. `k8s.io/deprecated`), set by handlers as kube's
   * audit.AddAuditAnnotation does; created on first use.
   */
  auditAnnotations?: Record<string, string>;
  /** This request's audit event when auditing records it (level Metadata or above); set by the audit filter. */
  audit?: AuditRecorder;
  /** False when response compression is off for this server (feature gate APIResponseCompression=false). */
  responseCompression?: boolean;
  /** CBOR requests and responses are served (feature gate CBORServingAndStorage); see src/features/serving.ts. */
  cborServing?: boolean;
  /** DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential is honoured (AllowUnsafeMalformedObjectDeletion). */
  unsafeMalformedObjectDeletion?: boolean;
  /** With that gate: the chain's authorizer, for the `unsafe-delete-ignore-read-errors` check. */
  unsafeDeleteAuthorizer?: Authorizer;
}

/**
 * A filter or endpoint. Endpoints that do not serve a path return false so the next one is tried, and say so
 * synchronously: every request passes the endpoints ahead of the one that serves it, and a promise and a
 * microtask turn for each "not mine" was a measurable share of a GET.
 */
export type Handler = (ctx: RequestContext) => Promise<void>;
export type Endpoint = (ctx: RequestContext) => boolean | Promise<boolean>;
