/**
 * Binding a pod to a node (kube's BindingREST): `POST …/pods/<name>/binding` and the legacy
 * `POST …/namespaces/<ns>/bindings`, both with a core/v1 Binding. The scheduler's write: it sets
 * `spec.nodeName`, copies the binding's annotations onto the pod (and, with the PodTopologyLabelsAdmission gate,
 * its labels, overwriting the pod's) and marks the PodScheduled condition True, in one guarded update (the binding's uid/resourceVersion, when given, are preconditions).
 *
 * Refusals as kube words them: a body naming another pod is 400; an invalid target is a plain error (500, kube
 * returns its aggregate unwrapped); a pod already on a node or being deleted is 409 on `pods/binding`.
 */
import type { KObject } from '../../../machinery/objects.ts';
import { errors, field, StatusError } from '../../../machinery/errors.ts';
import type { OpContext, RestStorage } from '../../rest.ts';
import { clone, rfc3339 } from '../../object-utils.ts';
import { CreateOnlyStorage, successStatus } from '../../create-only-storage.ts';

interface BindingTarget { kind?: string; name?: string }

export class PodBindingStorage extends CreateOnlyStorage {
  /**
   * @param pods the pods storage of the same version (a getter: the `bindings` resource is built before it)
   * @param fromUrl true for `pods/<name>/binding` (the URL names the pod); false for the `bindings` resource
   * @param copyLabels the binding's labels are copied onto the pod (the PodTopologyLabelsAdmission gate)
   */
  constructor(def: RestStorage['def'], private readonly pods: () => RestStorage, private readonly fromUrl: boolean, private readonly now: () => Date = () => new Date(),
    private readonly copyLabels = false) {
    super(def);
  }

  async create(ctx: OpContext, obj: KObject): Promise<KObject> {
    const name = obj.metadata.name ?? '';
    const target = (obj['target'] ?? {}) as BindingTarget;
    const errs = [];
    if (target.kind !== undefined && target.kind !== '' && target.kind !== 'Node') {
      errs.push(field.notSupported('target.kind', target.kind, ['Node', '<empty>']));
    }
    if (!target.name) errs.push(field.required('target.name', ''));
    if (errs.length) {
      const text = errs.map((e) => e.toString());
      throw errors.internal(text.length > 1 ? `[${text.join(', ')}]` : text[0]!);
    }
    if (!name) throw errors.badRequest('name in URL does not match name in Binding object');
    const conflict = (why: string) => errors.conflict({ kind: 'pods/binding', name }, why);
    const wantUid = obj.metadata.uid;
    const wantRv = obj.metadata.resourceVersion;
    await this.pods().guaranteedUpdate({ ...ctx, subresource: 'binding' }, name, (current) => {
      if (!current) throw errors.notFound({ kind: 'pods', name });
      if (wantUid && current.metadata.uid !== wantUid) {
        throw conflict(`Precondition failed: UID in precondition: ${wantUid}, UID in object meta: ${current.metadata.uid ?? ''}`);
      }
      if (wantRv && current.metadata.resourceVersion !== wantRv) {
        throw conflict(`Precondition failed: ResourceVersion in precondition: ${wantRv}, ResourceVersion in object meta: ${current.metadata.resourceVersion ?? ''}`);
      }
      if (current.metadata.deletionTimestamp) throw conflict(`pod ${name} is being deleted, cannot be assigned to a host`);
      const spec = (current['spec'] ?? {}) as Record<string, unknown>;
      if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
        throw conflict(`pod ${name} is already assigned to node ${JSON.stringify(spec['nodeName'])}`);
      }
      const next = clone(current);
      (next['spec'] as Record<string, unknown>)['nodeName'] = target.name;
      if (obj.metadata.annotations) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...obj.metadata.annotations };
      if (this.copyLabels && obj.metadata.labels) next.metadata.labels = { ...(next.metadata.labels ?? {}), ...obj.metadata.labels };
      markScheduled(next, rfc3339(this.now()));
      return next;
    }, {}).catch((e: unknown) => {
      // The pod is the thing missing, whichever resource was posted to.
      if (e instanceof StatusError && e.code === 404 && !this.fromUrl) throw errors.notFound({ kind: 'pods', name });
      throw e;
    });
    return successStatus();
  }
}

/** podutil.UpdatePodCondition(PodScheduled=True): the transition time moves only when the status changes. */
function markScheduled(pod: KObject, now: string): void {
  const status = (pod['status'] ??= {}) as Record<string, unknown>;
  const conds = (Array.isArray(status['conditions']) ? status['conditions'] : []) as Record<string, unknown>[];
  const i = conds.findIndex((c) => c['type'] === 'PodScheduled');
  if (i >= 0 && conds[i]!['status'] === 'True') return;
  const cond = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now };
  if (i >= 0) conds[i] = cond;
  else conds.push(cond);
  status['conditions'] = conds;
}
