/**
 * API Priority and Fairness for one server: the bootstrap configuration producer and the configuration
 * consumer (the flow controller the filter asks), started together and stopped together.
 */
import type { RestRegistry } from '../registry/rest.ts';
import type { RequestInfo } from '../request/context.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { FlowController } from './controller.ts';
import { startConfigProducer } from './ensurer.ts';

export { FlowController, type FlowControlStats, type FlowControlSnapshot, type PriorityLevelSnapshot } from './controller.ts';

export interface FlowControlSetup {
  readonly registry: RestRegistry;
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight`. */
  readonly serverConcurrencyLimit: number;
  readonly watchList?: boolean;
  readonly log?: Logger;
  /** The served resources, whose object counts are taken before the first request (LIST work estimates). */
  readonly resources?: () => Iterable<{ group: string; version: string; resource: string }>;
  /** How often the bootstrap objects are checked (kube: one minute). */
  readonly ensureIntervalMs?: number;
}

export interface RunningFlowControl {
  readonly controller: FlowController;
  stop(): void;
}

/** Stored objects of the request's resource: one item and the remaining count of a one-item page. */
export function registryObjectCounter(registry: RestRegistry): (info: RequestInfo) => Promise<number | undefined> {
  return async (info) => {
    const storage = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!storage) return undefined;
    const page = await storage.list(systemContext(), { limit: 1 });
    if (page.remainingItemCount !== undefined) return page.items.length + page.remainingItemCount;
    return page.continue ? undefined : page.items.length;
  };
}

export async function startFlowControl(s: FlowControlSetup): Promise<RunningFlowControl> {
  const log = s.log ? { log: s.log } : {};
  const producer = await startConfigProducer(s.registry, { ...log, ...(s.ensureIntervalMs ? { intervalMs: s.ensureIntervalMs } : {}) });
  const controller = new FlowController({
    registry: s.registry, serverConcurrencyLimit: s.serverConcurrencyLimit, countObjects: registryObjectCounter(s.registry), watchList: s.watchList ?? false, ...log,
  });
  try {
    await controller.start();
    // In the background, as kube's first poll: readiness does not wait for ~60 counts.
    if (s.resources) void controller.primeObjectCounts(s.resources());
  } catch (err) {
    producer.stop();
    controller.stop();
    throw err;
  }
  return {
    controller,
    stop() {
      producer.stop();
      controller.stop();
    },
  };
}
