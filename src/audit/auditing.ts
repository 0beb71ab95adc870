/**
 * The server's auditing: the policy decides each request's level, a RequestAudit collects its event, and every
 * stage not omitted goes to the backend. The answer of the RequestReceived stage decides whether the request may
 * proceed (blocking-strict refuses requests it cannot record).
 */
import type { Attributes } from '../request/authorizer.ts';
import { evaluatePolicy, type Policy } from './policy.ts';
import { nowMicros, RequestAudit, type RequestAuditInit } from './event.ts';
import type { Backend, Stage } from './types.ts';

export class Auditing {
  constructor(readonly policy: Policy, readonly backend: Backend, private readonly log: (line: string) => void) {}

  /** The request's event, or undefined when the policy says None. */
  begin(attrs: Attributes, init: Omit<RequestAuditInit, 'config' | 'attrs'>): RequestAudit | undefined {
    const config = evaluatePolicy(this.policy, attrs);
    if (config.level === 'None') return undefined;
    return new RequestAudit({ ...init, attrs, config });
  }

  /** Sends the stage's snapshot unless the policy omits it; true when it was stored (or omitted). */
  process(ra: RequestAudit, stage: Stage): boolean | Promise<boolean> {
    if (ra.omits(stage)) return true;
    try {
      return this.backend.processEvents([ra.snapshot(stage, nowMicros())]);
    } catch (err) {
      this.log(`audit: ${(err as Error).message}`);
      return false;
    }
  }

  shutdown(): Promise<void> {
    return this.backend.shutdown();
  }
}
