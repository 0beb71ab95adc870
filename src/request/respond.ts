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

export function respondBytes(ctx: RequestContext, code: number, contentType: string, body: Uint8Array | string,
  headers: Record<string, string> = {}): void {
  const res = ctx.res;
  if (res.headersSent) {
    res.end();
    return;
  }
  const h: Record<string, string | string[]> = {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
    'Audit-Id': ctx.auditId,
    ...headers,
  };
  if (ctx.warnings.length) h['Warning'] = warningHeaderValues(ctx.warnings);
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  h['Content-Length'] = String(buf.byteLength);
  res.writeHead(code, h);
  if (ctx.req.method === 'HEAD') res.end();
  else res.end(buf);
}
