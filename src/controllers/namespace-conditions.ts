/**
 * The status conditions kube's namespace deleter keeps on a terminating namespace, with its reasons and
 * messages (clients and users read them to learn why a namespace is stuck in Terminating).
 */

export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface ContentTotals {
  /** `<resource>.<group>` → objects left after the delete pass. */
  remaining: Map<string, number>;
  /** finalizer → objects carrying it among those left. */
  finalizers: Map<string, number>;
  /** One message per resource whose deletion failed. */
  deleteErrors: string[];
}

const TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

const OK: Record<(typeof TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** The full set of five conditions for this pass (failing ones True, the rest the "ok" False variant). */
export function namespaceConditions(t: ContentTotals, now = new Date()): NamespaceCondition[] {
  const ts = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const failing = new Map<string, { reason: string; message: string }>();
  const remaining = [...t.remaining].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`).sort();
  if (remaining.length) failing.set('NamespaceContentRemaining', { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${remaining.join(', ')}` });
  const fins = [...t.finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort();
  if (fins.length) failing.set('NamespaceFinalizersRemaining', { reason: 'SomeFinalizerRemain', message: `Some finalizers are remaining: ${fins.join(', ')}` });
  if (t.deleteErrors.length) {
    const msgs = [...t.deleteErrors].sort();
    failing.set('NamespaceDeletionContentFailure', { reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}` });
  }
  return TYPES.map((type) => {
    const f = failing.get(type);
    return { type, status: f ? 'True' : 'False', lastTransitionTime: ts, ...(f ?? OK[type]) };
  });
}

/**
 * Merges new conditions into old ones as kube does: lastTransitionTime only moves when status flips.
 * Returns undefined when nothing changed (so no write is needed).
 */
export function conditionsChanged(old: readonly NamespaceCondition[], next: readonly NamespaceCondition[]): NamespaceCondition[] | undefined {
  let changed = false;
  const out = old.map((c) => ({ ...c }));
  for (const n of next) {
    const o = out.find((c) => c.type === n.type);
    if (!o) {
      out.push({ ...n });
      changed = true;
    } else if (o.status !== n.status || o.reason !== n.reason || o.message !== n.message) {
      if (o.status !== n.status) o.lastTransitionTime = n.lastTransitionTime;
      o.status = n.status;
      o.reason = n.reason;
      o.message = n.message;
      changed = true;
    }
  }
  return changed ? out : undefined;
}
