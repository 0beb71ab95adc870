/**
 * Publishes the cluster's root CA as ConfigMap `kube-root-ca.crt` (key `ca.crt`, with kube's description
 * annotation) in every active namespace; re-creates it when deleted and restores it when changed
 * (kube-controller-manager's root-ca-cert-publisher).
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestStorage } from '../registry/rest.ts';
import type { Informer } from '../client/informer.ts';
import { isAlreadyExists, isNamespaceTerminating, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { isActive } from './serviceaccount-controller.ts';
import { WorkQueue } from '../client/work-queue.ts';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. '
  + 'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaPublisherOptions {
  namespaces: Informer;
  /** Informer over configmaps named `kube-root-ca.crt` (fieldSelector metadata.name=kube-root-ca.crt). */
  configMaps: Informer;
  storage: RestStorage;
  rootCaPem: string;
  log?: Logger;
}

export class RootCaPublisher {
  readonly queue: WorkQueue;

  constructor(private readonly opts: RootCaPublisherOptions) {
    this.queue = new WorkQueue({ name: 'root-ca-cert-publisher', process: (k) => this.sync(k), concurrency: 2, ...(opts.log ? { log: opts.log } : {}) });
    opts.namespaces.addHandler({
      onAdd: (ns) => this.queue.add(ns.metadata.name ?? ''),
      onUpdate: (_, ns) => { if (isActive(ns)) this.queue.add(ns.metadata.name ?? ''); },
    });
    const onCm = (cm: KObject) => { if (cm.metadata.name === ROOT_CA_CONFIGMAP) this.queue.add(cm.metadata.namespace ?? ''); };
    opts.configMaps.addHandler({ onUpdate: (_, cm) => onCm(cm), onDelete: onCm });
  }

  private upToDate(cm: KObject): boolean {
    const data = cm.data as Record<string, string> | undefined;
    return !!data && Object.keys(data).length === 1 && data['ca.crt'] === this.opts.rootCaPem
      && !!cm.metadata.annotations?.[DESCRIPTION_ANNOTATION];
  }

  private async sync(nsName: string): Promise<void> {
    if (!isActive(this.opts.namespaces.get('', nsName))) return;
    const ctx = () => systemContext({ namespace: nsName });
    const cached = this.opts.configMaps.get(nsName, ROOT_CA_CONFIGMAP);
    try {
      if (!cached) {
        await this.opts.storage.create(ctx(), {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, namespace: nsName, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { 'ca.crt': this.opts.rootCaPem },
        }, {});
        return;
      }
      if (this.upToDate(cached)) return;
      await this.opts.storage.guaranteedUpdate(ctx(), ROOT_CA_CONFIGMAP, (cur) => {
        if (!cur) throw notFound;
        if (this.upToDate(cur)) return cur;
        const copy = structuredClone(cur);
        copy.data = { 'ca.crt': this.opts.rootCaPem };
        copy.metadata.annotations = { ...(cur.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION };
        return copy;
      }, {});
    } catch (err) {
      // A lagging cache (exists / deleted meanwhile: the informer event requeues us) or a namespace going away.
      if (isAlreadyExists(err) || isNamespaceTerminating(err) || err === notFound) return;
      if (isNotFound(err) || !isActive(this.opts.namespaces.get('', nsName))) return;
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}

const notFound = new Error('configmap not found');
