/**
 * Keeps a `default` ServiceAccount in every active namespace (kube-controller-manager's serviceaccount
 * controller): created when a namespace appears, re-created when deleted.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestStorage } from '../registry/rest.ts';
import type { Informer } from '../client/informer.ts';
import { isAlreadyExists, isNamespaceTerminating, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { WorkQueue } from '../client/work-queue.ts';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export interface ServiceAccountControllerOptions {
  namespaces: Informer;
  /** Informer over serviceaccounts named `default` (fieldSelector metadata.name=default), all namespaces. */
  serviceAccounts: Informer;
  storage: RestStorage;
  log?: Logger;
}

export function isActive(ns: KObject | undefined): ns is KObject {
  if (!ns || ns.metadata.deletionTimestamp) return false;
  const phase = (ns.status as { phase?: string } | undefined)?.phase;
  return phase === undefined || phase === 'Active';
}

export class ServiceAccountController {
  readonly queue: WorkQueue;

  constructor(private readonly opts: ServiceAccountControllerOptions) {
    this.queue = new WorkQueue({ name: 'serviceaccount', process: (k) => this.sync(k), concurrency: 2, ...(opts.log ? { log: opts.log } : {}) });
    opts.namespaces.addHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    opts.serviceAccounts.addHandler({
      onDelete: (sa) => { if (sa.metadata.name === DEFAULT_SERVICE_ACCOUNT) this.queue.add(sa.metadata.namespace ?? ''); },
    });
  }

  private async sync(nsName: string): Promise<void> {
    if (!isActive(this.opts.namespaces.get('', nsName))) return;
    if (this.opts.serviceAccounts.get(nsName, DEFAULT_SERVICE_ACCOUNT)) return;
    const sa: KObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT, namespace: nsName } };
    try {
      await this.opts.storage.create(systemContext({ namespace: nsName }), sa, {});
    } catch (err) {
      // Exists already (our cache lags), or the namespace went away / started terminating: nothing to do.
      if (isAlreadyExists(err) || isNotFound(err) || isNamespaceTerminating(err)) return;
      if (!isActive(this.opts.namespaces.get('', nsName))) return;
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}
