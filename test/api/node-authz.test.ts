/**
 * `--authorization-mode=Node`: node agents (client certificates `system:node:<name>` in `system:nodes`) read
 * only what pods bound to them reference — secrets, configmaps, PVCs, the PVs bound to those and the PVs'
 * secrets — their own Node and lease, and pods through the `spec.nodeName=<self>` field selector. The graph
 * follows pod changes through informers (waited for by polling, not timing).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer, type Caller } from '../support/server.ts';
import { createCa, issue } from '../../src/controlplane/certs.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-node-authz-'));
let srv: TestServer;
const users: Record<string, Caller> = {};

async function create(p: string, body: object): Promise<void> {
  const r = await srv.request('POST', p, { body });
  assert.equal(r.status, 201, `${p}: ${r.text}`);
}

const pod = (name: string, node: string, extra: { secret?: string; configMap?: string; claim?: string }) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' },
  spec: {
    nodeName: node,
    serviceAccountName: 'runner',
    containers: [{
      name: 'c', image: 'busybox',
      ...(extra.configMap ? { envFrom: [{ configMapRef: { name: extra.configMap } }] } : {}),
      ...(extra.secret ? { env: [{ name: 'X', valueFrom: { secretKeyRef: { name: extra.secret, key: 'k' } } }] } : {}),
    }],
    ...(extra.claim ? { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: extra.claim } }] } : {}),
  },
});

/** Polls until the node's answer for `path` is not 403 (the informer caught up), at most ~5 s. */
async function eventuallyAllowed(user: Caller, p: string): Promise<number> {
  let status = 0;
  for (let i = 0; i < 100; i++) {
    status = (await srv.request('GET', p, { user })).status;
    if (status !== 403) return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

before(async () => {
  const ca = await createCa('nodes-ca');
  writeFileSync(path.join(dir, 'ca.crt'), ca.certPem);
  for (const [key, cn, o] of [['n1', 'system:node:n1', ['system:nodes']], ['n2', 'system:node:n2', ['system:nodes']], ['fake', 'system:node:n1', ['other']], ['anon', 'system:node:', ['system:nodes']]] as const) {
    const c = await issue({ subject: { cn, o: [...o] }, issuer: ca, usage: 'client' });
    users[key] = { certPem: c.certPem, keyPem: c.keyPem };
  }
  srv = await startTestServer({ clientCaFile: path.join(dir, 'ca.crt'), authorizationMode: ['Node'] });
  await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  // The ServiceAccount admission plugin refuses pods whose account does not exist, as kube does.
  await create('/api/v1/namespaces/ns/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'runner' } });
  for (const s of ['s1', 's2', 'pv-secret']) await create('/api/v1/namespaces/ns/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: s }, data: { k: 'dg==' } });
  await create('/api/v1/namespaces/ns/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } });
  await create('/api/v1/namespaces/ns/persistentvolumeclaims', {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'claim1' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: 'pv1' },
  });
  await create('/api/v1/persistentvolumes', {
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' },
    spec: {
      capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], claimRef: { namespace: 'ns', name: 'claim1' },
      csi: { driver: 'd.example.com', volumeHandle: 'h', nodePublishSecretRef: { namespace: 'ns', name: 'pv-secret' } },
    },
  });
  await create('/api/v1/namespaces/ns/pods', pod('p1', 'n1', { secret: 's1', configMap: 'c1', claim: 'claim1' }));
  await create('/api/v1/namespaces/ns/pods', pod('p2', 'n2', { secret: 's2' }));
  assert.equal(await eventuallyAllowed(users.n1!, '/api/v1/namespaces/ns/secrets/s1'), 200);
  assert.equal(await eventuallyAllowed(users.n2!, '/api/v1/namespaces/ns/secrets/s2'), 200);
});
after(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = (who: string, p: string) => srv.request('GET', p, { user: users[who] });

void test('a node reads the secrets, configmaps, claims and volumes of its pods, not another node\'s', async () => {
  for (const p of ['/api/v1/namespaces/ns/secrets/s1', '/api/v1/namespaces/ns/configmaps/c1', '/api/v1/namespaces/ns/persistentvolumeclaims/claim1',
    '/api/v1/persistentvolumes/pv1', '/api/v1/namespaces/ns/secrets/pv-secret', '/api/v1/namespaces/ns/pods/p1']) {
    const r = await get('n1', p);
    assert.equal(r.status, 200, `${p}: ${r.text}`);
  }
  const r = await get('n1', '/api/v1/namespaces/ns/secrets/s2');
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "ns": no relationship found between node \'n1\' and this object');
  assert.equal((await get('n2', '/api/v1/namespaces/ns/secrets/s1')).status, 403);
  assert.equal((await get('n2', '/api/v1/namespaces/ns/pods/p1')).status, 403);
  assert.equal((await get('n2', '/api/v1/persistentvolumes/pv1')).status, 403);
});

void test('secrets cannot be listed, nor written', async () => {
  const r = await get('n1', '/api/v1/namespaces/ns/secrets');
  assert.equal(r.status, 403);
  assert.match(r.json().message, /: No Object name found$/);
  const d = await srv.request('DELETE', '/api/v1/namespaces/ns/secrets/s1', { user: users.n1 });
  assert.match(d.json().message, /: can only read resources of this type$/);
});

void test('pods: list/watch only with spec.nodeName=<self>; own Node only', async () => {
  const mine = await get('n1', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1');
  assert.equal(mine.status, 200, mine.text);
  assert.deepEqual(mine.json().items.map((p: any) => p.metadata.name), ['p1']);
  assert.equal((await get('n1', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn2')).status, 403);
  const all = await get('n1', '/api/v1/pods');
  assert.match(all.json().message, /: can only list\/watch pods with spec.nodeName field selector$/);
  assert.equal((await get('n1', '/api/v1/nodes/n1')).status, 404, 'allowed, not there yet');
  assert.match((await get('n1', '/api/v1/nodes/n2')).json().message, /: node 'n1' cannot read 'n2', only its own Node object$/);
  assert.match((await get('n1', '/api/v1/nodes')).json().message, /: node 'n1' cannot read all nodes, only its own Node object$/);
  assert.equal((await get('n1', '/api/v1/nodes?fieldSelector=metadata.name%3Dn1')).status, 200);
});

void test('leases in kube-node-lease under its own name; static rules for the rest', async () => {
  assert.equal((await get('n1', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1')).status, 404);
  assert.match((await get('n1', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n2')).json().message, /same name as the requesting node$/);
  assert.equal((await get('n1', '/api/v1/services')).status, 200);
  assert.equal((await get('n1', '/apis/apps/v1/deployments')).status, 403);
  const token = await srv.request('POST', '/api/v1/namespaces/ns/serviceaccounts/runner/token', { user: users.n1, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
  assert.notEqual(token.status, 403, token.text);
  const other = await srv.request('POST', '/api/v1/namespaces/ns/serviceaccounts/default/token', { user: users.n1, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } });
  assert.equal(other.status, 403);
});

void test('users outside system:nodes or without a node name get no opinion', async () => {
  assert.equal((await get('fake', '/api/v1/namespaces/ns/secrets/s1')).status, 403);
  const r = await get('anon', '/api/v1/services');
  assert.equal(r.status, 403);
  assert.match(r.json().message, /: unknown node for user "system:node:"$/);
});

void test('moving the pod away takes the access with it', async () => {
  const r = await srv.request('DELETE', '/api/v1/namespaces/ns/pods/p1?gracePeriodSeconds=0');
  assert.equal(r.status, 200, r.text);
  let status = 200;
  for (let i = 0; i < 100 && status !== 403; i++) {
    status = (await get('n1', '/api/v1/namespaces/ns/secrets/s1')).status;
    if (status !== 403) await new Promise((res) => setTimeout(res, 50));
  }
  assert.equal(status, 403);
  assert.equal((await get('n2', '/api/v1/namespaces/ns/secrets/s2')).status, 200);
});

void test('SubjectAccessReview for a node: the field selector requirement decides list pods', async () => {
  const sar = async (resourceAttributes: object) => {
    const r = await srv.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'system:node:n1', groups: ['system:nodes'], resourceAttributes } },
    });
    assert.equal(r.status, 201, r.text);
    return r.json().status;
  };
  assert.equal((await sar({ verb: 'list', resource: 'pods', fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }] } })).allowed, true);
  assert.equal((await sar({ verb: 'watch', resource: 'pods', fieldSelector: { rawSelector: 'spec.nodeName=n1' } })).allowed, true);
  assert.deepEqual(await sar({ verb: 'list', resource: 'pods' }), { allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector' });
  assert.equal((await sar({ verb: 'list', resource: 'pods', fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n2'] }] } })).allowed, false);
});
