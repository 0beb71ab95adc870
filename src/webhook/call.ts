/**
 * One webhook call as kube's GenericWebhook makes it: POST the review, retry transient failures (500, 504, 429,
 * a reset connection) with exponential backoff, and turn a non-2xx reply into an error worded like client-go's.
 * Timeouts are per attempt; the whole call is bounded by `steps` attempts.
 */
import { postJson, WebhookTimeoutError, type PostJsonResult } from './client.ts';
import type { WebhookConnection } from './kubeconfig.ts';

export interface RetryBackoff {
  /** First delay (kube: 500ms). */
  readonly initialMs: number;
  /** Multiplier per step (kube: 1.5). */
  readonly factor: number;
  /** Attempts in all (kube: 5). */
  readonly steps: number;
}

/** kube's DefaultRetryBackoff (webhook.DefaultRetryBackoffWithInitialDelay(500ms)). */
export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { initialMs: 500, factor: 1.5, steps: 5 };

/** A reply with a non-2xx status. */
export class WebhookStatusError extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super(statusMessage(status, body));
    this.name = 'WebhookStatusError';
  }
}

function statusMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string' && (body as { kind?: unknown }).kind === 'Status') {
    return (body as { message: string }).message;
  }
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  if (status >= 500 && text) return `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${status} but did not return more information`;
}

function retriable(err: unknown): boolean {
  if (err instanceof WebhookStatusError) return err.status === 500 || err.status === 504 || err.status === 429 || err.status === 503;
  if (err instanceof WebhookTimeoutError) return false;
  return err instanceof Error && /ECONNRESET|socket hang up/.test(err.message);
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> => new Promise((resolve) => {
  const t = setTimeout(done, ms);
  function done(): void {
    clearTimeout(t);
    signal?.removeEventListener('abort', done);
    resolve();
  }
  signal?.addEventListener('abort', done, { once: true });
});

export interface CallOptions {
  readonly connection: WebhookConnection;
  readonly body: unknown;
  readonly timeoutMs: number;
  readonly backoff?: RetryBackoff;
  readonly signal?: AbortSignal;
  /** Retry every failure, timeouts and 4xx included (kube's audit webhook: a dropped event is worse than a late one). */
  readonly retryAll?: boolean;
}

/** Resolves with the 2xx reply; rejects with the last error once retries are spent or the error is final. */
export async function callWebhook(o: CallOptions): Promise<PostJsonResult> {
  const b = o.backoff ?? DEFAULT_RETRY_BACKOFF;
  let delay = b.initialMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await postJson({ ...o.connection, timeoutMs: o.timeoutMs, body: o.body, signal: o.signal });
      if (r.status < 200 || r.status > 299) throw new WebhookStatusError(r.status, r.body);
      return r;
    } catch (err) {
      if (attempt >= b.steps || !(o.retryAll || retriable(err)) || o.signal?.aborted) throw err;
    }
    await sleep(delay, o.signal);
    delay *= b.factor;
  }
}
