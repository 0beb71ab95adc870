/**
 * kube-apiserver's `rbac/bootstrap-roles` post-start hook: at every start, make the default RBAC objects exist
 * and hold at least their default permissions and subjects (see reconcile.ts for what is changed and what is
 * left alone). Runs through the registry as `system:apiserver` (group system:masters), before the server
 * reports ready.
 *
 * Order (kube's): migrate pre-aggregation admin/edit/view, split the old system:discovery binding, then
 * ClusterRoles, ClusterRoleBindings, Roles, RoleBindings. Each object is read once by a list per resource; the
 * writes of one resource go out together. A failed pass (conflict with a concurrent writer, a store hiccup)
 * is retried as a whole — every step is idempotent — until `timeoutMs` (kube: 30 s), then the error is thrown.
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../../../registry/rest.ts';
import { isAlreadyExists, isNotFound } from '../../../machinery/errors.ts';
import { systemContext, type Logger } from '../../../registry/system-context.ts';
import { bootstrapPolicy, RBAC_API_VERSION } from './policy.ts';
import { reconcileBinding, reconcileRole, type ReconcileResult } from './reconcile.ts';
import type { GateCheck } from './controller-roles.ts';

const GROUP = 'rbac.authorization.k8s.io';

export interface EnsureBootstrapOptions {
  registry: RestRegistry;
  log?: Logger;
  /** Feature gates for the gated controller roles (default: v1.33's defaults). */
  gate?: GateCheck;
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Pause between failed passes (default 1 s, as kube's poll). */
  retryDelayMs?: number;
}

export interface EnsureReport {
  created: string[];
  updated: string[];
  recreated: string[];
  /** Protected (autoupdate "false") objects that differ from the defaults. */
  skipped: string[];
}

/** Pre-1.9 clusters kept their custom admin/edit/view rules in the role itself: move them into system:aggregate-to-*. */
const AGGREGATED_MIGRATIONS: ReadonlyArray<[string, string]> = [['admin', 'system:aggregate-to-admin'], ['edit', 'system:aggregate-to-edit'], ['view', 'system:aggregate-to-view']];
/** Pre-1.14 clusters bound unauthenticated users through system:discovery: keep that grant on system:public-info-viewer. */
const SPLIT_BINDINGS: ReadonlyArray<[string, string]> = [['system:discovery', 'system:public-info-viewer']];

function storageFor(registry: RestRegistry, resource: string): RestStorage | undefined {
  return registry.lookup(GROUP, 'v1', resource);
}

const keyOf = (o: KObject): string => (o.metadata.namespace ? `${o.metadata.namespace}/` : '') + (o.metadata.name ?? '');

async function listAll(storage: RestStorage): Promise<Map<string, KObject>> {
  const res = await storage.list(systemContext(), {});
  return new Map(res.items.map((c) => [keyOf(c.object), c.object]));
}

/** Strips what the server owns so an object read back can be created again under another name. */
function asNew(obj: KObject, name: string): KObject {
  const { labels, annotations } = obj.metadata;
  const copy = structuredClone({ ...obj, metadata: { name, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) } }) as KObject;
  copy.apiVersion = RBAC_API_VERSION;
  return copy;
}

async function createIfMissing(storage: RestStorage, obj: KObject): Promise<boolean> {
  try {
    await storage.create(systemContext({ namespace: obj.metadata.namespace ?? '' }), obj, {});
    return true;
  } catch (err) {
    if (isAlreadyExists(err)) return false;
    throw err;
  }
}

async function primeMigrations(registry: RestRegistry, report: EnsureReport): Promise<void> {
  const roles = storageFor(registry, 'clusterroles');
  const bindings = storageFor(registry, 'clusterrolebindings');
  if (roles) {
    const existing = await listAll(roles);
    for (const [oldName, newName] of AGGREGATED_MIGRATIONS) {
      const old = existing.get(oldName);
      if (existing.has(newName) || !old || old['aggregationRule']) continue;
      if (await createIfMissing(roles, asNew(old, newName))) report.created.push(`clusterroles/${newName}`);
    }
  }
  if (bindings) {
    const existing = await listAll(bindings);
    for (const [oldName, newName] of SPLIT_BINDINGS) {
      const old = existing.get(oldName);
      if (existing.has(newName) || !old) continue;
      const copy = asNew(old, newName);
      copy['roleRef'] = { ...(old['roleRef'] as object), name: newName };
      if (await createIfMissing(bindings, copy)) report.created.push(`clusterrolebindings/${newName}`);
    }
  }
}

async function reconcileResource(opts: {
  storage: RestStorage;
  resource: string;
  expected: KObject[];
  compute: (existing: KObject, expected: KObject) => ReconcileResult;
  report: EnsureReport;
  log?: Logger;
}): Promise<void> {
  const { storage, resource, report, log } = opts;
  const existing = await listAll(storage);
  await Promise.all(opts.expected.map(async (want) => {
    const key = keyOf(want);
    const ctx = systemContext({ namespace: want.metadata.namespace ?? '' });
    const have = existing.get(key);
    if (!have) {
      // Created by someone else since the list: the next pass reconciles it.
      if (!(await createIfMissing(storage, want))) throw new Error(`${resource}/${key} appeared while being created`);
      report.created.push(`${resource}/${key}`);
      return;
    }
    const result = opts.compute(have, want);
    if (result.operation === 'none') return;
    if (result.protected) {
      log?.(`skipped reconcile of protected ${resource}/${key}: autoupdate is "false"`);
      report.skipped.push(`${resource}/${key}`);
      return;
    }
    if (result.operation === 'recreate') {
      try {
        await storage.delete(ctx, want.metadata.name ?? '', { preconditions: { uid: have.metadata.uid ?? '' } });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      await storage.create(ctx, result.object, {});
      log?.(`recreated ${resource}/${key} with the default roleRef`);
      report.recreated.push(`${resource}/${key}`);
      return;
    }
    // The copy keeps the listed resourceVersion: a concurrent change ends in a conflict and a new pass.
    await storage.update(ctx, want.metadata.name ?? '', result.object, {});
    log?.(`updated ${resource}/${key}: restored default ${result.missingRules?.length ? 'rules' : result.missingSubjects?.length ? 'subjects' : 'metadata'}`);
    report.updated.push(`${resource}/${key}`);
  }));
}

async function onePass(opts: EnsureBootstrapOptions, report: EnsureReport): Promise<void> {
  const { registry, log } = opts;
  const policy = bootstrapPolicy(opts.gate ? { gate: opts.gate } : {});
  await primeMigrations(registry, report);
  const steps: Array<[string, KObject[], (e: KObject, x: KObject) => ReconcileResult]> = [
    ['clusterroles', policy.clusterRoles, reconcileRole],
    ['clusterrolebindings', policy.clusterRoleBindings, reconcileBinding],
    ['roles', policy.roles, reconcileRole],
    ['rolebindings', policy.roleBindings, reconcileBinding],
  ];
  // The four kinds reference one another only by name, so they are reconciled at once (one group commit
  // for many writes on a first start).
  await Promise.all(steps.map(async ([resource, expected, compute]) => {
    const storage = storageFor(registry, resource);
    if (!storage) return; // rbac.authorization.k8s.io/v1 disabled by --runtime-config
    await reconcileResource({ storage, resource, expected, compute, report, ...(log ? { log } : {}) });
  }));
}

/** Resolves once every default object exists and holds its default permissions (see the file comment). */
export async function ensureBootstrapPolicy(opts: EnsureBootstrapOptions): Promise<EnsureReport> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const report: EnsureReport = { created: [], updated: [], recreated: [], skipped: [] };
    try {
      await onePass(opts, report);
      return report;
    } catch (err) {
      if (Date.now() >= deadline) throw new Error(`unable to initialize RBAC bootstrap policy: ${(err as Error)?.message ?? String(err)}`, { cause: err });
      opts.log?.(`rbac/bootstrap-roles: ${(err as Error)?.message ?? String(err)}; retrying`);
      await new Promise((r) => setTimeout(r, opts.retryDelayMs ?? 1000));
    }
  }
}
