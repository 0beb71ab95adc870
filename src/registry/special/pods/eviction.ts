/**
 * Evicting a pod (kube's EvictionREST, `POST …/pods/<name>/eviction` with a policy/v1 Eviction): a delete that
 * respects the pod's PodDisruptionBudget.
 *
 * Order as kube: the pod must exist (404); pods that are terminal, pending or already being deleted are deleted
 * without asking a budget; otherwise the budgets of the namespace whose selector matches the pod decide —
 * none: delete; more than one: 500 (unsupported); one: the budget must have been processed by the disruption
 * controller (status.observedGeneration), allow a disruption (status.disruptionsAllowed > 0), else 429 with a
 * `DisruptionBudget` cause. An allowed eviction decrements disruptionsAllowed and records the pod in
 * status.disruptedPods (one guarded status write), then deletes the pod with the eviction's delete options.
 * Unready pods follow `unhealthyPodEvictionPolicy` (AlwaysAllow: no budget check; IfHealthyBudget (default):
 * allowed while the budget is healthy enough). Dry-run evaluates everything and writes nothing.
 */
import type { KObject } from '../../../machinery/objects.ts';
import { parseLabelSelector } from '../../../machinery/selectors/labels.ts';
import { errors, StatusError } from '../../../machinery/errors.ts';
import type { DeleteParams, OpContext, RestStorage } from '../../rest.ts';
import { clone, rfc3339 } from '../../object-utils.ts';
import { selectorString } from '../scale.ts';
import { CreateOnlyStorage, successStatus } from '../../create-only-storage.ts';

/** kube's MaxDisruptedPodSize: evictions the disruption controller has not confirmed yet, per budget. */
const MAX_DISRUPTED_PODS = 2000;
const BUDGET_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

type J = Record<string, unknown>;

export interface EvictionDeps {
  /** The pods storage (same version as the served sub-resource). */
  readonly pods: RestStorage;
  /** policy/v1 poddisruptionbudgets. */
  readonly budgets: () => RestStorage | undefined;
  readonly now?: () => Date;
}

export class PodEvictionStorage extends CreateOnlyStorage {
  constructor(def: RestStorage['def'], private readonly deps: EvictionDeps) {
    super(def);
  }

  async create(ctx: OpContext, eviction: KObject): Promise<KObject> {
    const name = eviction.metadata.name ?? '';
    const podCtx: OpContext = { ...ctx, subresource: '' };
    const pod = (await this.deps.pods.get(podCtx, name, {})).object;
    const deleteParams = deleteParamsOf(eviction);
    if (!canIgnoreBudget(pod)) {
      const budget = await this.matchingBudget(ctx, pod);
      if (budget) await this.takeDisruption(ctx, budget, pod);
    }
    try {
      await this.deps.pods.delete(podCtx, name, deleteParams);
    } catch (e) {
      // Already gone between the check and the delete: the eviction's goal is met.
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
    return successStatus();
  }

  private async matchingBudget(ctx: OpContext, pod: KObject): Promise<KObject | undefined> {
    const budgets = this.deps.budgets();
    if (!budgets) return undefined;
    const list = await budgets.list({ ...ctx, subresource: '' }, {});
    const labels = pod.metadata.labels ?? {};
    const matching = list.items.map((i) => i.object).filter((b) => {
      const sel = ((b['spec'] ?? {}) as J)['selector'];
      const text = selectorString(sel);
      // A nil or empty selector matches no pods (policy/v1 semantics as the eviction REST applies them).
      if (!sel || text === '') return false;
      return parseLabelSelector(text).matches(labels);
    });
    if (matching.length > 1) {
      throw new StatusError(500, 'InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
    }
    return matching[0];
  }

  /** checkAndDecrement: refuse with 429, or take one disruption from the budget (not written on dry-run). */
  private async takeDisruption(ctx: OpContext, budget: KObject, pod: KObject): Promise<void> {
    const budgets = this.deps.budgets()!;
    const bname = budget.metadata.name ?? '';
    const now = rfc3339((this.deps.now ?? (() => new Date()))());
    const spec = (budget['spec'] ?? {}) as J;
    const unready = !isReady(pod);
    if (unready && spec['unhealthyPodEvictionPolicy'] === 'AlwaysAllow') return;
    await budgets.guaranteedUpdate({ ...ctx, subresource: 'status' }, bname, (current) => {
      if (!current) throw errors.notFound({ kind: 'poddisruptionbudgets', group: 'policy', name: bname });
      const status = ((current['status'] ?? {}) as J);
      const currentHealthy = Number(status['currentHealthy'] ?? 0);
      const desiredHealthy = Number(status['desiredHealthy'] ?? 0);
      // An unready pod does not count towards the budget: evicting it is fine while the budget is met.
      if (unready && currentHealthy >= desiredHealthy && desiredHealthy > 0) throw SKIP;
      const observed = Number(status['observedGeneration'] ?? 0);
      if (observed < Number(current.metadata.generation ?? 0)) throw tooMany(`The disruption budget ${bname} is still being processed by the server.`, 10);
      const allowed = Number(status['disruptionsAllowed'] ?? 0);
      if (allowed < 0) throw errors.forbidden({ kind: 'poddisruptionbudgets', group: 'policy', name: bname }, 'pdb disruptions allowed is negative');
      const disrupted = ((status['disruptedPods'] ?? {}) as Record<string, string>);
      if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
        throw errors.forbidden({ kind: 'poddisruptionbudgets', group: 'policy', name: bname }, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
      }
      if (allowed === 0) {
        throw tooMany(`The disruption budget ${bname} needs ${desiredHealthy} healthy pods and has ${currentHealthy} currently`, 0);
      }
      const next = clone(current);
      const ns = (next['status'] ??= {}) as J;
      ns['disruptionsAllowed'] = allowed - 1;
      ns['disruptedPods'] = { ...disrupted, [pod.metadata.name ?? '']: now };
      if (allowed - 1 === 0) setDisruptionAllowedCondition(ns, now);
      return next;
    }, {}).catch((e: unknown) => {
      if (e !== SKIP) throw e;
    });
  }
}

const SKIP = new Error('unready pod: budget already met');

function tooMany(cause: string, retryAfterSeconds: number): StatusError {
  const details = { causes: [{ reason: 'DisruptionBudget', message: cause }], ...(retryAfterSeconds ? { retryAfterSeconds } : {}) };
  return new StatusError(429, 'TooManyRequests', BUDGET_VIOLATION, details, retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : undefined);
}

/** Terminal and pending pods (and pods already being deleted) are evicted without asking a budget. */
function canIgnoreBudget(pod: KObject): boolean {
  if (pod.metadata.deletionTimestamp) return true;
  const phase = ((pod['status'] ?? {}) as J)['phase'];
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending';
}

function isReady(pod: KObject): boolean {
  const conds = (((pod['status'] ?? {}) as J)['conditions'] ?? []) as J[];
  return conds.some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

/** pdbhelper.UpdateDisruptionAllowedCondition once the budget is used up. */
function setDisruptionAllowedCondition(status: J, now: string): void {
  const conds = ((status['conditions'] ?? []) as J[]).filter((c) => c['type'] !== 'DisruptionAllowed');
  const prev = ((status['conditions'] ?? []) as J[]).find((c) => c['type'] === 'DisruptionAllowed');
  conds.push({
    type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '',
    lastTransitionTime: prev && prev['status'] === 'False' ? prev['lastTransitionTime'] : now,
    ...(prev && prev['observedGeneration'] !== undefined ? { observedGeneration: prev['observedGeneration'] } : {}),
  });
  status['conditions'] = conds;
}

/** The eviction's deleteOptions (the request's dryRun travels in the op context). */
function deleteParamsOf(eviction: KObject): DeleteParams {
  const o = (eviction['deleteOptions'] ?? {}) as J;
  const pre = (o['preconditions'] ?? undefined) as { uid?: string; resourceVersion?: string } | undefined;
  return {
    ...(typeof o['gracePeriodSeconds'] === 'number' ? { gracePeriodSeconds: o['gracePeriodSeconds'] } : {}),
    ...(pre ? { preconditions: pre } : {}),
    ...(typeof o['propagationPolicy'] === 'string' ? { propagationPolicy: o['propagationPolicy'] as DeleteParams['propagationPolicy'] } : {}),
  };
}
