/**
 * What handlers tell the request's audit event (kube's audit.LogRequestObject / LogRequestPatch /
 * LogResponseObject / LogImpersonatedUser). The event itself lives in src/audit; handlers only see this
 * contract on `ctx.audit`, present when the request is audited at Metadata or above.
 */
import type { UserInfo } from '../machinery/objects.ts';

export interface AuditRecorder {
  /** Level Request or RequestResponse: the request body is recorded. */
  readonly recordsRequest: boolean;
  /** Level RequestResponse: the response body is recorded. */
  readonly recordsResponse: boolean;
  /** The decoded request object; also fills the objectRef's name, namespace, uid and resourceVersion when missing. */
  logRequestObject(obj: unknown): void;
  /** A patch body, recorded as sent (JSON). */
  logRequestPatch(patch: Uint8Array): void;
  /**
   * The response value before encoding. A `Status` sets responseStatus at any level; anything else is kept only
   * at RequestResponse. A function is called only when the body is wanted (lists built from cached encodings).
   */
  logResponseObject(obj: unknown): void;
  logImpersonatedUser(user: UserInfo): void;
}
