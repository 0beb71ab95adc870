/**
 * audit.k8s.io/v1 shapes: the Event a backend receives (fields in kube's order, so JSON lines read like
 * kube-apiserver's), levels and stages, and the Backend contract every sink (log, webhook, buffered, truncate)
 * implements.
 */

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** `a` is at least `b` (kube's Level.GreaterOrEqual). */
export const levelAtLeast = (a: Level, b: Level): boolean => LEVELS.indexOf(a) >= LEVELS.indexOf(b);

export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** metav1.Status as the event carries it: `metadata` is always present (Go's non-omitempty ListMeta). */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  /** RFC 3339 with microseconds, UTC (metav1.MicroTime). */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/**
 * A sink for events. `processEvents` answers whether every event was stored; blocking backends may answer
 * with a promise (a webhook call), which the request then waits for.
 */
export interface Backend {
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Flushes what is buffered and releases files and timers. */
  shutdown(): Promise<void>;
  readonly name: string;
}

/** kube's audit.HandlePluginError wording, for the server log. */
export function pluginError(plugin: string, err: unknown, count: number): string {
  return `Error in audit plugin '${plugin}' affecting ${count} audit events: ${err instanceof Error ? err.message : String(err)}`;
}
