/**
 * API Priority and Fairness through a real server: the v1.33 bootstrap objects, the X-Kubernetes-PF-* headers
 * on every classified answer, exempt traffic that never waits, a flooding user refused with kube's plain-text
 * 429 and Retry-After while another user of the same priority level keeps being served, the Dangling
 * condition, and max-in-flight when priority and fairness is off. Bounded: the flood is 120 requests.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { apfCaller, type ApfCaller } from '../support/apf-client.ts';
import { tokenUsers } from './rbac-helpers.ts';
import { dealHand, hashFlow } from '../../src/flowcontrol/shuffle-sharding.ts';

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
let srv: TestServer;
let dir = '';
const callers: ApfCaller[] = [];
let admin: ApfCaller;
const as = (user: string): ApfCaller => {
  const c = apfCaller(srv.url, srv.caPem, { token: `${user}-token` });
  callers.push(c);
  return c;
};

// The test's own level: 1 seat that it neither lends nor borrows, 8 queues of 5, hands of 2.
const QUEUES = 8;
const HAND = 2;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-apf-'));
  // 6 seats for the whole server, so a flood of a hundred requests is an overload.
  // sqlite: writes wait for a real fsync, so requests overlap in the server as they do in production.
  srv = await startTestServer({ storage: 'sqlite', tokenAuthFile: tokenUsers(dir), authorizationMode: ['AlwaysAllow'], maxRequestsInflight: 4, maxMutatingRequestsInflight: 2 });
  const adminCreds = await import('node:fs').then((fs) => fs.readFileSync(srv.kubeconfigPath, 'utf8'));
  const cert = /client-certificate-data: (\S+)/.exec(adminCreds)![1]!;
  const key = /client-key-data: (\S+)/.exec(adminCreds)![1]!;
  admin = apfCaller(srv.url, srv.caPem, { certPem: Buffer.from(cert, 'base64').toString(), keyPem: Buffer.from(key, 'base64').toString() });
  callers.push(admin);
});
after(async () => {
  for (const c of callers) c.close();
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const uidOf = async (kind: 'flowschemas' | 'prioritylevelconfigurations', name: string): Promise<string> => {
  const r = await srv.request('GET', `${FC}/${kind}/${name}`);
  assert.equal(r.status, 200, r.text);
  return r.json().metadata.uid;
};

void test('the mandatory and suggested v1.33 objects exist, annotated for auto-update', async () => {
  const fs = (await srv.request('GET', `${FC}/flowschemas`)).json();
  assert.deepEqual(fs.items.map((i: any) => i.metadata.name).sort(), [
    'catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts',
    'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election',
  ]);
  const pl = (await srv.request('GET', `${FC}/prioritylevelconfigurations`)).json();
  assert.deepEqual(pl.items.map((i: any) => i.metadata.name).sort(), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  for (const o of [...fs.items, ...pl.items]) assert.equal(o.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true', o.metadata.name);
  const wl = pl.items.find((i: any) => i.metadata.name === 'workload-low');
  assert.deepEqual(wl.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 100, lendablePercent: 90, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } } });
  const probes = fs.items.find((i: any) => i.metadata.name === 'probes');
  assert.deepEqual(probes.spec.rules[0].nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }]);
});

void test('every classified answer names its FlowSchema and priority level by UID', async () => {
  const exemptFs = await uidOf('flowschemas', 'exempt');
  const exemptPl = await uidOf('prioritylevelconfigurations', 'exempt');
  const r = await admin.call('GET', '/api/v1/namespaces');
  assert.equal(r.status, 200);
  assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], exemptFs);
  assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPl);
  const alice = as('alice');
  const probe = await alice.call('GET', '/readyz');
  assert.equal(probe.headers['x-kubernetes-pf-flowschema-uid'], await uidOf('flowschemas', 'probes'));
  assert.equal(probe.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPl);
  const miss = await alice.call('GET', '/api/v1/namespaces/default/configmaps/none-such');
  assert.equal(miss.status, 404);
  assert.equal(miss.headers['x-kubernetes-pf-flowschema-uid'], await uidOf('flowschemas', 'global-default'));
  assert.equal(miss.headers['x-kubernetes-pf-prioritylevel-uid'], await uidOf('prioritylevelconfigurations', 'global-default'));
  // Streamed answers too: a watch's headers carry the UIDs and the audit id.
  const watch = await admin.call('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
  assert.equal(watch.status, 200);
  assert.equal(watch.headers['x-kubernetes-pf-flowschema-uid'], exemptFs);
  assert.equal(watch.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPl);
  assert.match(String(watch.headers['audit-id']), /^[0-9a-f-]{36}$/);
});

void test('a FlowSchema naming a missing priority level is Dangling until the level exists', { timeout: 30_000 }, async () => {
  const body = {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'orphan' },
    spec: { priorityLevelConfiguration: { name: 'not-yet' }, matchingPrecedence: 5000, rules: [{ subjects: [{ kind: 'User', user: { name: 'nobody' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] },
  };
  assert.equal((await srv.request('POST', `${FC}/flowschemas`, { body })).status, 201);
  const dangling = await eventually('Dangling=True', async () => {
    const c = (await srv.request('GET', `${FC}/flowschemas/orphan`)).json().status?.conditions?.find((x: any) => x.type === 'Dangling');
    return c?.status === 'True' ? c : undefined;
  });
  assert.equal(dangling.reason, 'NotFound');
  assert.equal(dangling.message, 'This FlowSchema references the PriorityLevelConfiguration object named "not-yet" but there is no such object');
  assert.match(dangling.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const pl = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'not-yet' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } };
  assert.equal((await srv.request('POST', `${FC}/prioritylevelconfigurations`, { body: pl })).status, 201);
  const found = await eventually('Dangling=False', async () => {
    const c = (await srv.request('GET', `${FC}/flowschemas/orphan`)).json().status?.conditions?.find((x: any) => x.type === 'Dangling');
    return c?.status === 'False' ? c : undefined;
  });
  assert.equal(found.reason, 'Found');
  assert.equal(found.message, 'This FlowSchema references the PriorityLevelConfiguration object named "not-yet" and it exists');
});

void test('a flood from one user gets 429 with Retry-After; another user of the level and exempt traffic keep being served', { timeout: 60_000 }, async () => {
  // Two users whose hands of queues do not coincide, so the flood cannot fill every queue the other may use.
  const handOf = (u: string) => dealHand(hashFlow('apf-test', u), QUEUES, HAND);
  assert.ok(handOf('bob').some((q) => !handOf('carol').includes(q)), 'precondition: bob and carol have different hands');
  const level = {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'apf-test' },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Queue', queuing: { queues: QUEUES, handSize: HAND, queueLengthLimit: 5 } } } },
  };
  const schema = {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'apf-test' },
    spec: {
      priorityLevelConfiguration: { name: 'apf-test' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'User', user: { name: 'bob' } }, { kind: 'User', user: { name: 'carol' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }],
    },
  };
  assert.equal((await srv.request('POST', `${FC}/prioritylevelconfigurations`, { body: level })).status, 201);
  assert.equal((await srv.request('POST', `${FC}/flowschemas`, { body: schema })).status, 201);
  const fsUid = await uidOf('flowschemas', 'apf-test');
  const plUid = await uidOf('prioritylevelconfigurations', 'apf-test');
  const bob = as('bob');
  const carol = as('carol');
  await eventually('bob is classified into apf-test', async () => (await bob.call('GET', '/api/v1/namespaces/default/configmaps')).headers['x-kubernetes-pf-flowschema-uid'] === fsUid);

  // Open the flooder's connections first, so that the flood reaches the server in one burst (TLS handshakes
  // would otherwise spread it out until it is no flood at all).
  await Promise.all(Array.from({ length: 120 }, () => bob.call('GET', '/version')));
  const cm = (i: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `flood-${i}` }, data: { i: String(i), pad: 'x'.repeat(2000) } });
  const flood = Array.from({ length: 120 }, (_, i) => bob.call('POST', '/api/v1/namespaces/default/configmaps', cm(i)));
  // While the flood is in the server: carol (same level, other flow) and the admin (exempt).
  const carolAnswers = Array.from({ length: 5 }, () => carol.call('GET', '/api/v1/namespaces/default/configmaps?limit=1'));
  const adminAnswers = Array.from({ length: 20 }, () => admin.call('GET', '/api/v1/namespaces/default/configmaps?limit=1'));
  const [floodDone, carolDone, adminDone] = await Promise.all([Promise.all(flood), Promise.all(carolAnswers), Promise.all(adminAnswers)]);

  const refused = floodDone.filter((r) => r.status === 429);
  const created = floodDone.filter((r) => r.status === 201);
  assert.ok(refused.length > 0, `the flood was never refused: ${floodDone.map((r) => r.status).join(',')}`);
  assert.ok(created.length > 0, 'the flooder still gets its share');
  assert.equal(refused.length + created.length, floodDone.length, `only 201 or 429: ${[...new Set(floodDone.map((r) => r.status))].join(',')}`);
  for (const r of refused) {
    assert.equal(r.text, 'Too many requests, please try again later.\n');
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(String(r.headers['retry-after']), /^[1-9]\d*$/);
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], fsUid);
    assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], plUid);
  }
  for (const r of created) assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], fsUid);
  assert.deepEqual(carolDone.map((r) => r.status), [200, 200, 200, 200, 200], 'carol keeps her share');
  assert.deepEqual([...new Set(adminDone.map((r) => r.status))], [200], 'exempt traffic is never refused');
});

void test('with --enable-priority-and-fairness=false, max-in-flight limits and nothing is classified', { timeout: 30_000 }, async () => {
  const plain = await startTestServer({ enablePriorityAndFairness: false });
  try {
    const r = await plain.request('GET', '/api/v1/namespaces');
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], undefined);
    assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], undefined);
  } finally {
    await plain.stop();
  }
});

void test('priority and fairness needs a positive total of in-flight requests', async () => {
  await assert.rejects(startTestServer({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 }),
    /invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive/);
});
