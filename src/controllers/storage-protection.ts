/**
 * kube-controller-manager's pvc-protection and pv-protection controllers: the StorageObjectInUseProtection
 * admission plugin gives every claim and volume a finalizer; these remove it from a claim being deleted once no
 * scheduled, still running pod names it, and from a volume being deleted once it is not Bound. Without them a
 * deleted claim (or a namespace holding one) would stay Terminating for ever.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestStorage } from '../registry/rest.ts';
import type { Informer } from '../client/informer.ts';
import { isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { WorkQueue } from '../client/work-queue.ts';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

export interface StorageProtectionOptions {
  claims: Informer;
  volumes: Informer;
  pods: Informer;
  claimStorage: RestStorage;
  volumeStorage: RestStorage;
  log?: Logger;
}

const waiting = (o: KObject | undefined, finalizer: string): o is KObject =>
  !!o && !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(finalizer);

type Volume = { name?: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown };

/** The claims a pod names: its persistentVolumeClaim volumes and its generic ephemeral volumes' `<pod>-<volume>`. */
export function claimsOf(pod: KObject): string[] {
  const spec = (pod['spec'] ?? {}) as { volumes?: Volume[] };
  const out: string[] = [];
  for (const v of spec.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName) out.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) out.push(`${pod.metadata.name ?? ''}-${v.name ?? ''}`);
  }
  return out;
}

/** podUsesPVC: only a scheduled pod that has not finished holds its claims (the kubelet starts no new ones). */
export function podHoldsClaim(pod: KObject, claim: string): boolean {
  const spec = (pod['spec'] ?? {}) as { nodeName?: string };
  const phase = (pod['status'] as { phase?: string } | undefined)?.phase;
  if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return false;
  return claimsOf(pod).includes(claim);
}

export class StorageProtectionController {
  readonly queue: WorkQueue;

  constructor(private readonly opts: StorageProtectionOptions) {
    this.queue = new WorkQueue({ name: 'storage-protection', process: (k) => this.sync(k), concurrency: 2, ...(opts.log ? { log: opts.log } : {}) });
    const onClaim = (c: KObject) => { if (waiting(c, PVC_PROTECTION_FINALIZER)) this.queue.add(`pvc/${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`); };
    opts.claims.addHandler({ onAdd: onClaim, onUpdate: (_, c) => onClaim(c) });
    const onVolume = (v: KObject) => { if (waiting(v, PV_PROTECTION_FINALIZER)) this.queue.add(`pv/${v.metadata.name ?? ''}`); };
    opts.volumes.addHandler({ onAdd: onVolume, onUpdate: (_, v) => onVolume(v) });
    // A pod that finishes or goes away may free the claims it held.
    const onPod = (p: KObject) => {
      for (const claim of claimsOf(p)) onClaim(opts.claims.get(p.metadata.namespace ?? '', claim) as KObject);
    };
    opts.pods.addHandler({ onUpdate: (_, p) => onPod(p), onDelete: onPod });
  }

  private async sync(key: string): Promise<void> {
    const [kind, ...rest] = key.split('/');
    if (kind === 'pvc') {
      const [namespace, name] = rest as [string, string];
      const claim = this.opts.claims.get(namespace, name);
      if (!waiting(claim, PVC_PROTECTION_FINALIZER)) return;
      const held = this.opts.pods.list().some((p) => (p.metadata.namespace ?? '') === namespace && podHoldsClaim(p, name));
      if (!held) await this.release(this.opts.claimStorage, namespace, name, PVC_PROTECTION_FINALIZER);
    } else {
      const name = rest[0]!;
      const volume = this.opts.volumes.get('', name);
      if (!waiting(volume, PV_PROTECTION_FINALIZER)) return;
      if ((volume['status'] as { phase?: string } | undefined)?.phase === 'Bound') return;
      await this.release(this.opts.volumeStorage, '', name, PV_PROTECTION_FINALIZER);
    }
  }

  private async release(storage: RestStorage, namespace: string, name: string, finalizer: string): Promise<void> {
    try {
      await storage.guaranteedUpdate(systemContext(namespace ? { namespace } : {}), name, (cur) => {
        if (!cur) throw gone;
        if (!(cur.metadata.finalizers ?? []).includes(finalizer)) return cur;
        const copy = structuredClone(cur);
        copy.metadata.finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
        return copy;
      }, {});
    } catch (err) {
      if (err === gone || isNotFound(err)) return; // deleted already
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}

const gone = new Error('object gone');
