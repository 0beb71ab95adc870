/**
 * RBAC bootstrap through the API: a fresh server holds kube v1.33's default roles and bindings (exact objects
 * written here from kube's bootstrap policy, not from our own data), admin/edit/view are aggregated before the
 * server is ready, a restart reconciles (restores removed defaults, keeps user additions, honours
 * autoupdate=false), and the aggregation controller follows labelled roles.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const DEFAULT_META = { labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } };
const g = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name });

let srv: TestServer;
before(async () => { srv = await startTestServer({ authorizationMode: ['RBAC'] }); });
after(async () => { await srv?.stop(); });

async function get(p: string): Promise<any> {
  const r = await srv.request('GET', p);
  assert.equal(r.status, 200, `${p}: ${r.text}`);
  return r.json();
}

void test('a fresh server has exactly the default RBAC objects', async () => {
  assert.equal((await get(`${RBAC}/clusterroles`)).items.length, 66);
  assert.equal((await get(`${RBAC}/clusterrolebindings`)).items.length, 47);
  const roles = (await get(`${RBAC}/roles`)).items.map((o: any) => `${o.metadata.namespace}/${o.metadata.name}`);
  assert.deepEqual(roles.sort(), [
    'kube-public/system:controller:bootstrap-signer', 'kube-system/extension-apiserver-authentication-reader',
    'kube-system/system::leader-locking-kube-controller-manager', 'kube-system/system::leader-locking-kube-scheduler',
    'kube-system/system:controller:bootstrap-signer', 'kube-system/system:controller:cloud-provider', 'kube-system/system:controller:token-cleaner',
  ]);
  assert.equal((await get(`${RBAC}/rolebindings`)).items.length, 7);
  // Everything carries the bootstrapping label, so it can be selected.
  const labelled = await get(`${RBAC}/clusterroles?labelSelector=kubernetes.io/bootstrapping=rbac-defaults`);
  assert.equal(labelled.items.length, 66);
});

void test('system:discovery, system:public-info-viewer and cluster-admin field by field', async () => {
  const d = await get(`${RBAC}/clusterroles/system:discovery`);
  assert.equal(d.kind, 'ClusterRole');
  assert.deepEqual(d.metadata.labels, DEFAULT_META.labels);
  assert.deepEqual(d.metadata.annotations, DEFAULT_META.annotations);
  assert.deepEqual(d.rules, [{
    verbs: ['get'],
    nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
  }]);
  assert.equal(d.aggregationRule, undefined);
  const piv = await get(`${RBAC}/clusterroles/system:public-info-viewer`);
  assert.deepEqual(piv.rules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }]);
  const ca = await get(`${RBAC}/clusterroles/cluster-admin`);
  assert.deepEqual(ca.rules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]);

  const cab = await get(`${RBAC}/clusterrolebindings/cluster-admin`);
  assert.deepEqual(cab.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' });
  assert.deepEqual(cab.subjects, [g('system:masters')]);
  assert.deepEqual(cab.metadata.labels, DEFAULT_META.labels);
  assert.deepEqual((await get(`${RBAC}/clusterrolebindings/system:public-info-viewer`)).subjects, [g('system:authenticated'), g('system:unauthenticated')]);
  assert.deepEqual((await get(`${RBAC}/clusterrolebindings/system:discovery`)).subjects, [g('system:authenticated')]);
  assert.deepEqual((await get(`${RBAC}/clusterrolebindings/system:service-account-issuer-discovery`)).subjects, [g('system:serviceaccounts')]);
  assert.equal((await get(`${RBAC}/clusterrolebindings/system:node`)).subjects, undefined);
  assert.deepEqual((await get(`${RBAC}/clusterrolebindings/system:controller:namespace-controller`)).subjects,
    [{ kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'kube-system' }]);
  const leader = await get(`${RBAC}/namespaces/kube-system/rolebindings/system::leader-locking-kube-scheduler`);
  assert.deepEqual(leader.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'system::leader-locking-kube-scheduler' });
  assert.deepEqual(leader.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' }, { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' }]);
});

void test('view, edit and admin are aggregated by the time the server is ready', async () => {
  const view = await get(`${RBAC}/clusterroles/view`);
  assert.deepEqual(view.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] });
  assert.equal(view.metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
  const aggView = await get(`${RBAC}/clusterroles/system:aggregate-to-view`);
  assert.deepEqual(view.rules, aggView.rules);
  assert.equal(view.rules.length, 10);
  assert.deepEqual(view.rules[0], {
    verbs: ['get', 'list', 'watch'], apiGroups: [''],
    resources: ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers',
      'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'],
  });
  assert.ok(!JSON.stringify(view.rules).includes('secrets'), 'view does not read secrets');
  // edit = system:aggregate-to-edit's rules, then view's (roles sorted by name); admin = edit's then aggregate-to-admin's.
  const aggEdit = await get(`${RBAC}/clusterroles/system:aggregate-to-edit`);
  const edit = await get(`${RBAC}/clusterroles/edit`);
  assert.deepEqual(edit.rules, [...aggEdit.rules, ...view.rules]);
  assert.deepEqual(edit.rules[0], {
    verbs: ['get', 'list', 'watch'], apiGroups: [''],
    resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
  });
  const admin = await get(`${RBAC}/clusterroles/admin`);
  const aggAdmin = await get(`${RBAC}/clusterroles/system:aggregate-to-admin`);
  assert.deepEqual(admin.rules, [...edit.rules, ...aggAdmin.rules]);
  assert.equal(admin.rules.length, 25);
  const managers = view.metadata.managedFields.map((m: any) => m.manager);
  assert.ok(managers.includes('clusterrole-aggregation-controller'), managers.join());
});

void test('aggregation follows a labelled role: added, changed, relabelled away', async () => {
  const mine = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
    metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list'] }],
  };
  assert.equal((await srv.request('POST', `${RBAC}/clusterroles`, { body: mine })).status, 201);
  const has = (role: string, resource: string) => async () =>
    (await get(`${RBAC}/clusterroles/${role}`)).rules?.some((r: any) => r.resources?.includes(resource));
  await eventually('view has widgets', has('view', 'widgets'));
  await eventually('edit has widgets (through view)', has('edit', 'widgets'));
  await eventually('admin has widgets (through edit)', has('admin', 'widgets'));
  const view = await get(`${RBAC}/clusterroles/view`);
  assert.deepEqual(view.rules.at(-1), { verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['widgets'] });

  const patch = { rules: [{ apiGroups: ['example.com'], resources: ['gadgets'], verbs: ['get'] }] };
  assert.equal((await srv.request('PATCH', `${RBAC}/clusterroles/widgets-view`, { body: patch, headers: MERGE })).status, 200);
  await eventually('view has gadgets', has('view', 'gadgets'));
  assert.ok(!(await has('view', 'widgets')()), 'old rule gone');

  const relabel = { metadata: { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': null } } };
  assert.equal((await srv.request('PATCH', `${RBAC}/clusterroles/widgets-view`, { body: relabel, headers: MERGE })).status, 200);
  await eventually('admin lost gadgets', async () => !(await has('admin', 'gadgets')()));
  assert.equal((await get(`${RBAC}/clusterroles/view`)).rules.length, 10);
});

void test('a user aggregated role with matchExpressions; rules written to it are replaced', async () => {
  const source = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
    metadata: { name: 'team-src', labels: { team: 'blue' } },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  };
  const agg = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'team-agg' },
    aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'team', operator: 'In', values: ['blue', 'red'] }] }] },
    rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }],
  };
  assert.equal((await srv.request('POST', `${RBAC}/clusterroles`, { body: source })).status, 201);
  assert.equal((await srv.request('POST', `${RBAC}/clusterroles`, { body: agg })).status, 201);
  await eventually('team-agg aggregated', async () => {
    const r = await get(`${RBAC}/clusterroles/team-agg`);
    try {
      assert.deepEqual(r.rules, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]);
      return true;
    } catch {
      return false;
    }
  });
});

void test('a restart reconciles: removed defaults come back, user additions stay, autoupdate=false is left alone', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keelson-rbac-reconcile-'));
  try {
    let s = await startTestServer({ storage: 'sqlite', dataDir, authorizationMode: ['RBAC'] });
    const call = async (method: string, p: string, body?: unknown, headers?: Record<string, string>) => {
      const r = await s.request(method, p, { ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
      assert.ok(r.status < 300, `${method} ${p}: ${r.status} ${r.text}`);
      return r.json();
    };
    // basic-user: one default rule dropped, one user rule added.
    await call('PATCH', `${RBAC}/clusterroles/system:basic-user`, {
      rules: [
        { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'], verbs: ['create'] },
        { apiGroups: ['example.com'], resources: ['notes'], verbs: ['get'] },
      ],
    }, MERGE);
    // public-info-viewer binding: defaults replaced by a user subject.
    await call('PATCH', `${RBAC}/clusterrolebindings/system:public-info-viewer`, { subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol' }] }, MERGE);
    // monitoring: protected, then emptied.
    await call('PATCH', `${RBAC}/clusterroles/system:monitoring`, {
      metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [],
    }, MERGE);
    // heapster deleted; a namespaced default role emptied; a label added by the user.
    await call('DELETE', `${RBAC}/clusterroles/system:heapster`);
    await call('PATCH', `${RBAC}/namespaces/kube-system/roles/system:controller:token-cleaner`, { metadata: { labels: { mine: 'x' } }, rules: [] }, MERGE);
    await s.stop();

    s = await startTestServer({ storage: 'sqlite', dataDir, authorizationMode: ['RBAC'] });
    const basic = await call('GET', `${RBAC}/clusterroles/system:basic-user`);
    // Kept rules first, then what was missing, broken down one verb/group/resource per rule (as kube appends them).
    assert.deepEqual(basic.rules, [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      { verbs: ['get'], apiGroups: ['example.com'], resources: ['notes'] },
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    const piv = await call('GET', `${RBAC}/clusterrolebindings/system:public-info-viewer`);
    assert.deepEqual(piv.subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol' }, g('system:authenticated'), g('system:unauthenticated')]);
    const mon = await call('GET', `${RBAC}/clusterroles/system:monitoring`);
    assert.deepEqual(mon.rules ?? [], []);
    assert.equal(mon.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'false');
    const heapster = await call('GET', `${RBAC}/clusterroles/system:heapster`);
    assert.deepEqual(heapster.rules, [
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['events', 'namespaces', 'nodes', 'pods'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: ['extensions'], resources: ['deployments'] },
    ]);
    const tc = await call('GET', `${RBAC}/namespaces/kube-system/roles/system:controller:token-cleaner`);
    assert.equal(tc.metadata.labels.mine, 'x');
    // get/list/watch/delete secrets and create/update/patch events in two groups, one sub-rule each.
    assert.equal(tc.rules.length, 10);
    assert.deepEqual(tc.rules[0], { verbs: ['delete'], apiGroups: [''], resources: ['secrets'] });
    assert.equal((await call('GET', `${RBAC}/clusterroles`)).items.length, 66);
    // A third start with nothing to do changes nothing.
    const rv = (await call('GET', `${RBAC}/clusterroles/system:basic-user`)).metadata.resourceVersion;
    await s.stop();
    s = await startTestServer({ storage: 'sqlite', dataDir, authorizationMode: ['RBAC'] });
    assert.equal((await call('GET', `${RBAC}/clusterroles/system:basic-user`)).metadata.resourceVersion, rv);
    await s.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
