/**
 * kube's WithAudit: after authentication (the user is known) and before impersonation. The policy decides the
 * request's level; at Metadata or above the event is recorded at RequestReceived (a refusal from a
 * blocking-strict backend answers 500 before anything runs), ResponseStarted when a long-running request
 * writes its headers, ResponseComplete when the handler is done, and Panic when it throws something that is
 * not a Status (then rethrown for panic recovery). Handlers add bodies and annotations through `ctx.audit` and
 * `ctx.auditAnnotations`.
 */
import type { Auditing } from '../../audit/auditing.ts';
import { nowMicros, type RequestAudit } from '../../audit/event.ts';
import { respondError } from '../../endpoints/respond.ts';
import { respondBytes } from '../../request/respond.ts';
import { attributesOf } from './authorization.ts';
import { isLongRunning } from './max-in-flight.ts';
import type { ServerContext, ServerHandler } from './types.ts';

/** responsewriters.InternalError: plain text, the request URI quoted (kube escapes only &, <, >). */
function internalError(ctx: ServerContext, message: string): void {
  const uri = JSON.stringify(ctx.req.url ?? '/').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  respondBytes(ctx, 500, 'text/plain; charset=utf-8', `Internal Server Error: ${uri}: ${message}\n`, { 'X-Content-Type-Options': 'nosniff' });
}

/** Calls `onCode` once, with the code of the first header block the response writes. */
function watchResponseStart(ctx: ServerContext, onCode: (code: number) => void): void {
  const res = ctx.res as unknown as { writeHead: (...a: unknown[]) => unknown; write: (...a: unknown[]) => unknown; statusCode: number };
  let seen = false;
  const fire = (code: number): void => {
    if (seen) return;
    seen = true;
    onCode(code);
  };
  const writeHead = res.writeHead;
  const write = res.write;
  res.writeHead = function (this: unknown, ...a: unknown[]) {
    fire(typeof a[0] === 'number' ? a[0] : res.statusCode);
    return writeHead.apply(this, a);
  };
  res.write = function (this: unknown, ...a: unknown[]) {
    fire(res.statusCode);
    return write.apply(this, a);
  };
}

export function withAudit(next: ServerHandler, deps: { auditing?: Auditing; log: (line: string) => void }): ServerHandler {
  const auditing = deps.auditing;
  if (!auditing) return next;
  return async function audit(ctx) {
    const receivedMicros = nowMicros();
    const ra: RequestAudit | undefined = auditing.begin(attributesOf(ctx), {
      auditId: ctx.auditId, req: ctx.req, receivedMicros, annotations: () => ctx.auditAnnotations,
    });
    if (!ra) {
      await next(ctx);
      return;
    }
    ctx.audit = ra;
    let stored = auditing.process(ra, 'RequestReceived');
    if (typeof stored !== 'boolean') stored = await stored;
    if (!stored) {
      internalError(ctx, 'failed to store audit event');
      return;
    }
    const longRunning = isLongRunning(ctx.info);
    const pending: Promise<boolean>[] = [];
    if (longRunning) {
      watchResponseStart(ctx, (code) => {
        ra.setResponseCode(code);
        const r = auditing.process(ra, 'ResponseStarted');
        if (typeof r !== 'boolean') pending.push(r);
      });
    }
    try {
      await next(ctx);
    } catch (err) {
      if (!(err instanceof Error && err.name === 'StatusError')) {
        ra.setResponseStatus({
          metadata: {}, status: 'Failure', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`, reason: 'InternalError', code: 500,
        });
        const r = auditing.process(ra, 'Panic');
        if (typeof r !== 'boolean') await r;
        throw err;
      }
      respondError(ctx, err);
    }
    if (pending.length) await Promise.all(pending);
    if (ctx.res.headersSent) ra.setResponseCode(ctx.res.statusCode);
    else {
      // Nothing was written: kube fakes a success status ("Connection closed early").
      ra.setResponseStatus({ metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 });
      if (longRunning) await auditing.process(ra, 'ResponseStarted');
    }
    const done = auditing.process(ra, 'ResponseComplete');
    if (typeof done !== 'boolean') await done;
  };
}

/**
 * kube's WithFailedAuthenticationAudit, around authentication's 401: the policy is evaluated for the empty
 * (unauthenticated) user and, unless None, one event is recorded at ResponseStarted when the refusal's headers go
 * out. `attempted` is its message until the 401 Status written replaces it. The backend's answer does not change
 * the refusal.
 */
export async function auditFailedAuthentication(ctx: ServerContext, auditing: Auditing, receivedMicros: number, attempted: string, refuse: () => void): Promise<void> {
  const ra = auditing.begin({ ...attributesOf(ctx), user: { username: '', groups: [] } }, {
    auditId: ctx.auditId, req: ctx.req, receivedMicros, annotations: () => ctx.auditAnnotations,
  });
  if (!ra) {
    refuse();
    return;
  }
  ctx.audit = ra;
  ra.setResponseStatus({ metadata: {}, message: attempted });
  const pending: Promise<boolean>[] = [];
  watchResponseStart(ctx, (code) => {
    ra.setResponseCode(code);
    const r = auditing.process(ra, 'ResponseStarted');
    if (typeof r !== 'boolean') pending.push(r);
  });
  refuse();
  if (pending.length) await Promise.all(pending);
}
