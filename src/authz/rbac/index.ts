/**
 * The `RBAC` authorization mode. Importing this module registers it. The factory keeps an `RbacIndex` up to
 * date with informers over roles, clusterroles, rolebindings and clusterrolebindings (rbac.authorization.k8s.io/v1)
 * through `deps.registry`; the server reports ready once the four have listed (`deps.onReady`), and stops
 * them with the server (`deps.onStop`). Without a registry (unit tests) the index starts empty.
 */
import type { KObject } from '../../machinery/objects.ts';
import { Informer } from '../../client/informer.ts';
import { registerAuthorizationMode, type AuthorizerDeps } from '../modes.ts';
import type { Authorizer } from '../../request/authorizer.ts';
import { rbacAuthorizer } from './authorizer.ts';
import { RbacIndex } from './index-store.ts';

export { RbacIndex } from './index-store.ts';
export { rbacAuthorizer } from './authorizer.ts';

const GROUP = 'rbac.authorization.k8s.io';

export interface RbacMode {
  readonly authorizer: Authorizer;
  readonly index: RbacIndex;
  /** Resolves once every informer has listed. */
  readonly synced: Promise<void>;
  stop(): void;
}

/** Starts the informers feeding a fresh index; `synced` rejects when a first list fails. */
export function startRbac(deps: AuthorizerDeps): RbacMode {
  const index = new RbacIndex();
  const authorizer = rbacAuthorizer(index);
  const registry = deps.registry;
  if (!registry) return { authorizer, index, synced: Promise.resolve(), stop: () => {} };
  const feed = (resource: string, upsert: (o: KObject) => void, remove: (o: KObject) => void): Informer => {
    const storage = registry.lookup(GROUP, 'v1', resource);
    if (!storage) throw new Error(`RBAC authorization needs ${resource}.${GROUP}/v1, which is not served`);
    const inf = new Informer({ storage, ...(deps.log ? { log: deps.log } : {}) });
    inf.addHandler({ onAdd: upsert, onUpdate: (_old, o) => upsert(o), onDelete: remove });
    return inf;
  };
  const informers = [
    feed('clusterroles', (o) => index.upsertClusterRole(o), (o) => index.deleteClusterRole(o)),
    feed('roles', (o) => index.upsertRole(o), (o) => index.deleteRole(o)),
    feed('clusterrolebindings', (o) => index.upsertBinding(o, 'ClusterRoleBinding'), (o) => index.deleteBinding(o, 'ClusterRoleBinding')),
    feed('rolebindings', (o) => index.upsertBinding(o, 'RoleBinding'), (o) => index.deleteBinding(o, 'RoleBinding')),
  ];
  const synced = Promise.all(informers.map((i) => i.start())).then(() => undefined);
  return { authorizer, index, synced, stop: () => { for (const i of informers) i.stop(); } };
}

/**
 * One index per registry, shared by every RBAC authorizer built over it (an authorization config file that
 * reloads builds new authorizers; they reuse the running informers). Stopped when its last user stops.
 */
const shared = new WeakMap<object, { mode: RbacMode; users: number }>();

function acquire(deps: AuthorizerDeps): { mode: RbacMode; release: () => void } {
  if (!deps.registry) {
    const mode = startRbac(deps);
    return { mode, release: () => mode.stop() };
  }
  const key = deps.registry;
  let entry = shared.get(key);
  if (!entry) shared.set(key, (entry = { mode: startRbac(deps), users: 0 }));
  entry.users++;
  const e = entry;
  let released = false;
  return {
    mode: e.mode,
    release: () => {
      if (released) return;
      released = true;
      if (--e.users > 0) return;
      e.mode.stop();
      if (shared.get(key) === e) shared.delete(key);
    },
  };
}

registerAuthorizationMode('RBAC', (deps) => {
  const { mode, release } = acquire(deps);
  // Handled here so a failed first list is reported through ready(), not as an unhandled rejection.
  const synced = mode.synced.then(() => undefined, (err: unknown) => err as Error);
  deps.onReady?.(async () => {
    const err = await synced;
    if (err) throw err;
  });
  deps.onStop?.(async () => { release(); });
  return mode.authorizer;
});
