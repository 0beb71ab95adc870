/**
 * kube's audit webhook backend (`--audit-webhook-config-file`): each batch is POSTed as one audit.k8s.io/v1
 * EventList to the kubeconfig's server, retried on any error with exponential backoff starting at
 * `--audit-webhook-initial-backoff` (factor 1.5, 5 attempts), as kube's GenericWebhook with retryOnError.
 */
import { callWebhook } from '../../webhook/call.ts';
import type { WebhookConnection } from '../../webhook/kubeconfig.ts';
import { pluginError, type AuditEvent, type Backend } from '../types.ts';

/** Each attempt's timeout (client-go's default for webhook clients without one). */
const ATTEMPT_TIMEOUT_MS = 30_000;

export class WebhookBackend implements Backend {
  readonly name = 'webhook';
  private readonly abort = new AbortController();

  constructor(private readonly connection: WebhookConnection, private readonly initialBackoffMs: number, private readonly log: (line: string) => void) {}

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    const body = { kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: events };
    try {
      await callWebhook({
        connection: this.connection, body, timeoutMs: ATTEMPT_TIMEOUT_MS, signal: this.abort.signal,
        backoff: { initialMs: this.initialBackoffMs, factor: 1.5, steps: 5 }, retryAll: true,
      });
      return true;
    } catch (err) {
      this.log(pluginError(this.name, err, events.length));
      return false;
    }
  }

  shutdown(): Promise<void> {
    this.abort.abort();
    return Promise.resolve();
  }
}

/** Every backend gets every event (kube's union backend); the answer is true only if all stored it. */
export class UnionBackend implements Backend {
  readonly name: string;

  constructor(private readonly backends: readonly Backend[]) {
    this.name = `union[${backends.map((b) => b.name).join(',')}]`;
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const rs = this.backends.map((b) => b.processEvents(events));
    if (rs.some((r) => typeof r !== 'boolean')) return Promise.all(rs.map((r) => Promise.resolve(r))).then((all) => all.every(Boolean));
    return rs.every(Boolean);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.backends.map((b) => b.shutdown()));
  }
}
