/**
 * kube-controller-manager's clusterrole-aggregation controller: a ClusterRole with an `aggregationRule` gets as
 * `rules` the union of the rules of every ClusterRole matched by any of its `clusterRoleSelectors`.
 *
 * Order (kube's): selectors in order; per selector the matching roles sorted by name (the aggregated role itself
 * skipped); their rules appended in order unless an identical rule is already there. Any ClusterRole change
 * (add, update, delete) can change any aggregation, so every aggregated role is re-synced on every event; a sync
 * that computes the rules the role already has writes nothing.
 *
 * Writes go through the registry as `system:apiserver` with field manager `clusterrole-aggregation-controller`
 * (kube applies with that manager; we update, which is kube's fallback when apply is not available).
 */
import type { KObject } from '../../machinery/objects.ts';
import { deepEqual } from '../../apply/merge-patch.ts';
import type { RestStorage } from '../../registry/rest.ts';
import type { Informer } from '../../client/informer.ts';
import { isNotFound } from '../../machinery/errors.ts';
import { systemContext, type Logger } from '../../registry/system-context.ts';
import { WorkQueue } from '../../client/work-queue.ts';

export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

interface Requirement { key?: string; operator?: string; values?: string[] }
interface Selector { matchLabels?: Record<string, string> | null; matchExpressions?: Requirement[] | null }
type Rule = Record<string, unknown>;

/**
 * metav1.LabelSelectorAsSelector semantics: all requirements must hold; an empty selector matches everything.
 * Throws on an operator kube refuses (the role is then not aggregated until it is fixed).
 */
export function selectorMatches(sel: Selector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const key = e.key ?? '';
    const has = Object.hasOwn(labels, key);
    switch (e.operator) {
      case 'In': if (!has || !(e.values ?? []).includes(labels[key]!)) return false; break;
      case 'NotIn': if (has && (e.values ?? []).includes(labels[key]!)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: throw new Error(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    }
  }
  return true;
}

function selectorsOf(role: KObject): Selector[] | undefined {
  const rule = role['aggregationRule'] as { clusterRoleSelectors?: Selector[] | null } | null | undefined;
  return rule ? rule.clusterRoleSelectors ?? [] : undefined;
}

/** The aggregated rules of `role` given all ClusterRoles (kube's syncClusterRole). */
export function aggregateRules(role: KObject, all: readonly KObject[]): Rule[] {
  const out: Rule[] = [];
  const byName = [...all].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const sel of selectorsOf(role) ?? []) {
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name) continue;
      if (!selectorMatches(sel, other.metadata.labels ?? {})) continue;
      for (const r of (other['rules'] as Rule[] | null | undefined) ?? []) {
        if (!out.some((have) => deepEqual(have, r))) out.push(r);
      }
    }
  }
  return out;
}

export interface AggregationControllerOptions {
  /** Informer over all ClusterRoles. */
  clusterRoles: Informer;
  storage: RestStorage;
  log?: Logger;
}

export class ClusterRoleAggregationController {
  readonly queue: WorkQueue;

  constructor(private readonly opts: AggregationControllerOptions) {
    this.queue = new WorkQueue({ name: 'clusterrole-aggregation', process: (k) => this.sync(k), ...(opts.log ? { log: opts.log } : {}) });
    const all = (): void => this.enqueueAll();
    opts.clusterRoles.addHandler({ onAdd: all, onUpdate: all, onDelete: all });
  }

  /** Queues every aggregated role (kube's enqueueAll: any role may feed any aggregation). */
  enqueueAll(): void {
    for (const r of this.opts.clusterRoles.list()) if (selectorsOf(r) !== undefined) this.queue.add(r.metadata.name ?? '');
  }

  /** True when every aggregated role in the cache holds its aggregation (writes seen back through the watch). */
  settled(): boolean {
    const all = this.opts.clusterRoles.list();
    return all.every((r) => {
      if (selectorsOf(r) === undefined) return true;
      try {
        return deepEqual(aggregateRules(r, all), (r['rules'] as Rule[] | null | undefined) ?? []);
      } catch {
        return true; // a bad selector never settles; it is logged by the sync
      }
    });
  }

  private async sync(name: string): Promise<void> {
    const role = this.opts.clusterRoles.get('', name);
    if (!role || selectorsOf(role) === undefined) return;
    const rules = aggregateRules(role, this.opts.clusterRoles.list());
    const current = (role['rules'] as Rule[] | null | undefined) ?? [];
    if (deepEqual(rules, current)) return;
    const ctx = { ...systemContext(), fieldManager: AGGREGATION_FIELD_MANAGER };
    try {
      await this.opts.storage.guaranteedUpdate(ctx, name, (cur) => {
        if (!cur) throw Object.assign(new Error('gone'), { gone: true });
        // Aggregation removed meanwhile: leave the role as its owner wrote it.
        if (selectorsOf(cur) === undefined) return cur;
        return { ...cur, rules: structuredClone(rules) };
      }, {});
    } catch (err) {
      if (isNotFound(err) || (err as { gone?: boolean }).gone) return;
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}
