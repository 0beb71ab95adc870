/**
 * Writing a response's bytes with the headers every answer carries (Content-Type, Cache-Control, Audit-Id, the
 * request's Warning headers, Content-Length). Filters, endpoints and encoders all end here; the Status and
 * negotiation-aware writers in src/endpoints build on it.
 */
import type { RequestContext } from './context.ts';

/** Adds the collected `Warning` headers (RFC 7234 §5.5 form kube-apiserver uses). */
export function warningHeaderValues(warnings: readonly string[]): string[] {
  return [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`);
}

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';

/** Adds the headers every response of this request carries (Audit-Id, the priority and fairness UIDs) to `h`. */
export function commonHeaders<H extends Record<string, string | string[]>>(ctx: RequestContext, h: H): H {
  const r = h as Record<string, string | string[]>;
  if (ctx.auditId) r['Audit-Id'] = ctx.auditId;
  if (ctx.flowSchemaUid !== undefined) {
    r[FLOW_SCHEMA_UID_HEADER] = ctx.flowSchemaUid;
    r[PRIORITY_LEVEL_UID_HEADER] = ctx.priorityLevelUid ?? '';
  }
  return h;
}

export function respondBytes(ctx: RequestContext, code: number, contentType: string, body: Uint8Array | string,
  headers: Record<string, string> = {}): void {
  const res = ctx.res;
  if (res.headersSent) {
    res.end();
    return;
  }
  const h: Record<string, string | string[]> = commonHeaders(ctx, {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
  });
  Object.assign(h, headers);
  if (ctx.warnings.length) h['Warning'] = warningHeaderValues(ctx.warnings);
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  h['Content-Length'] = String(buf.byteLength);
  res.writeHead(code, h);
  if (ctx.req.method === 'HEAD') res.end();
  else res.end(buf);
}
