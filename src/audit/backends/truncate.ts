/**
 * kube's truncate backend (`--audit-*-truncate-enabled`): an event larger than `truncate-max-event-size` at
 * level Request or above loses its request and response objects and gains `audit.k8s.io/truncated: "true"`;
 * one still too large is dropped (logged). Batches are split so none passes `truncate-max-batch-size`.
 */
import { encodeEvent } from '../format.ts';
import { levelAtLeast, pluginError, type AuditEvent, type Backend } from '../types.ts';

export interface TruncateConfig {
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

export const TRUNCATED_ANNOTATION = 'audit.k8s.io/truncated';

const size = (ev: AuditEvent): number => Buffer.byteLength(encodeEvent(ev));

/** The event without its bodies, marked truncated. */
export function truncateEvent(ev: AuditEvent): AuditEvent {
  const { requestObject: _req, responseObject: _res, ...rest } = ev;
  return { ...rest, annotations: { ...(ev.annotations ?? {}), [TRUNCATED_ANNOTATION]: 'true' } };
}

export class TruncateBackend implements Backend {
  readonly name: string;

  constructor(private readonly delegate: Backend, private readonly c: TruncateConfig, private readonly log: (line: string) => void) {
    this.name = `truncate<${delegate.name}>`;
  }

  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    const results: (boolean | Promise<boolean>)[] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    let dropped = 0;
    for (let ev of events) {
      let n = size(ev);
      if (n > this.c.maxEventSize && levelAtLeast(ev.level, 'Request')) {
        ev = truncateEvent(ev);
        n = size(ev);
      }
      if (n > this.c.maxEventSize) {
        dropped++;
        continue;
      }
      if (batch.length && batchSize + n > this.c.maxBatchSize) {
        results.push(this.delegate.processEvents(batch));
        batch = [];
        batchSize = 0;
      }
      batchSize += n;
      batch.push(ev);
    }
    if (batch.length) results.push(this.delegate.processEvents(batch));
    if (dropped) this.log(pluginError('truncate', new Error('event is too large even after truncating'), dropped));
    if (results.some((r) => typeof r !== 'boolean')) return Promise.all(results.map((r) => Promise.resolve(r))).then((rs) => rs.every(Boolean));
    return results.every(Boolean);
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
