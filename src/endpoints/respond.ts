/**
 * Writing JSON bodies and errors. Every error leaves through `respondError` so bodies are always a Kubernetes
 * `Status`, in the representation the client accepts. Raw bytes go out through src/request/respond.ts.
 */
import type { RequestContext } from '../request/context.ts';
import { respondBytes } from '../request/respond.ts';
import { negotiate } from './negotiation/accept.ts';
import { encodeAs, goJsonStringify } from './negotiation/encode.ts';
import { wantsPretty } from './params.ts';
import { asStatusError } from '../machinery/errors.ts';

export function respondJson(ctx: RequestContext, code: number, body: unknown, headers?: Record<string, string>): void {
  ctx.audit?.logResponseObject(body);
  const pretty = ctx.query.get('pretty');
  const text = `${goJsonStringify(body, pretty === 'true' || pretty === '1' ? 2 : undefined)}\n`;
  respondBytes(ctx, code, 'application/json', text, headers);
}

/**
 * Any error → Status body with its code (and headers such as Retry-After), in the representation the client
 * accepts as kube's `ErrorNegotiated` does: JSON or YAML (never a Table), pretty for `?pretty` and curl; when
 * nothing in Accept fits, indented JSON with the error's own code.
 */
export function respondError(ctx: RequestContext, err: unknown): void {
  const se = asStatusError(err);
  const status = se.toStatus();
  ctx.audit?.logResponseObject(status);
  const headers: Record<string, string> = { ...(se.headers ?? {}) };
  const retry = status.details?.retryAfterSeconds;
  if (retry && !headers['Retry-After']) headers['Retry-After'] = String(retry);
  const accept = ctx.req.headers['accept'];
  const neg = negotiate(Array.isArray(accept) ? accept.join(', ') : accept, { protobuf: true, cbor: ctx.cborServing === true });
  if (!neg) {
    respondBytes(ctx, se.code, 'application/json', goJsonStringify(status, 2), headers);
    return;
  }
  const ua = ctx.req.headers['user-agent'];
  const pretty = neg.pretty || wantsPretty(ctx.query, Array.isArray(ua) ? ua[0] : ua);
  let body: Uint8Array;
  try {
    body = encodeAs(neg.type, status, pretty);
  } catch {
    // Writing an error must never fail: fall back to JSON.
    respondBytes(ctx, se.code, 'application/json', goJsonStringify(status, 2), headers);
    return;
  }
  respondBytes(ctx, se.code, neg.type, body, headers);
}
