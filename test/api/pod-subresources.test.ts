/**
 * The pod sub-resources that have REST of their own and the core resources stored nowhere: binding (and the
 * legacy `bindings`), eviction with PodDisruptionBudgets, the connect sub-resources (log, exec, attach,
 * portforward, proxy) as kube-apiserver answers them without a kubelet, services/proxy without endpoints, and
 * componentstatuses.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus } from './helpers.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

const NS = '/api/v1/namespaces/default';

function pod(name: string, extra: { labels?: Record<string, string>; containers?: string[]; nodeName?: string } = {}): unknown {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: extra.labels },
    spec: { containers: (extra.containers ?? ['app']).map((c) => ({ name: c, image: 'nginx' })), ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
  };
}

async function runningReady(name: string): Promise<void> {
  const r = await srv.request('PATCH', `${NS}/pods/${name}/status`, {
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
  });
  assert.equal(r.status, 200, r.text);
}

void test('pods/binding assigns the node, copies annotations and marks PodScheduled; a second binding is 409', async () => {
  assert.equal((await srv.request('POST', `${NS}/pods`, { body: pod('b1') })).status, 201);
  const bind = (target: string, name = 'b1') => srv.request('POST', `${NS}/pods/b1/binding`, {
    body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, annotations: { 'scheduled-by': 'test' } }, target: { apiVersion: 'v1', kind: 'Node', name: target } },
  });
  const r = await bind('node-a');
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const p = (await srv.request('GET', `${NS}/pods/b1`)).json();
  assert.equal(p.spec.nodeName, 'node-a');
  assert.equal(p.metadata.annotations['scheduled-by'], 'test');
  assert.equal(p.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled').status, 'True');
  assertStatus(await bind('node-b'), 409, 'Conflict', 'Operation cannot be fulfilled on pods/binding "b1": pod b1 is already assigned to node "node-a"');
  assertStatus(await bind('node-b', 'other'), 400, 'BadRequest', 'name in URL does not match name in Binding object');
});

void test('the bindings resource binds the pod its body names; a missing target name is refused', async () => {
  assert.equal((await srv.request('POST', `${NS}/pods`, { body: pod('b2') })).status, 201);
  const r = await srv.request('POST', `${NS}/bindings`, { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b2' }, target: { name: 'node-z' } } });
  assert.equal(r.status, 201, r.text);
  assert.equal((await srv.request('GET', `${NS}/pods/b2`)).json().spec.nodeName, 'node-z');
  const bad = await srv.request('POST', `${NS}/bindings`, { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b2' }, target: {} } });
  assertStatus(bad, 500, 'InternalError', 'Internal error occurred: target.name: Required value');
  assertStatus(await srv.request('POST', `${NS}/bindings`, { body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'nope' }, target: { name: 'n' } } }), 404, 'NotFound', 'pods "nope" not found');
  assertStatus(await srv.request('GET', `${NS}/bindings`), 405, 'MethodNotAllowed');
});

void test('eviction without a budget deletes the pod; a budget with no disruptions left is 429 and keeps it', async () => {
  const evict = (name: string) => srv.request('POST', `${NS}/pods/${name}/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } } });
  assert.equal((await srv.request('POST', `${NS}/pods`, { body: pod('e1') })).status, 201);
  await runningReady('e1');
  const r = await evict('e1');
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().status, 'Success');
  const gone = await srv.request('GET', `${NS}/pods/e1`);
  assert.ok(gone.status === 404 || gone.json().metadata.deletionTimestamp, gone.text);

  assert.equal((await srv.request('POST', `${NS}/pods`, { body: pod('e2', { labels: { app: 'guarded' } }) })).status, 201);
  await runningReady('e2');
  const pdb = await srv.request('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', {
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'guard' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } } },
  });
  assert.equal(pdb.status, 201, pdb.text);
  // Not yet processed by a disruption controller (observedGeneration behind): refused, retry later.
  const early = assertStatus(await evict('e2'), 429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.");
  assert.deepEqual(early.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget guard is still being processed by the server.' }]);
  // What the disruption controller would write: processed, nothing allowed.
  const st = await srv.request('PUT', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/guard/status', {
    body: { ...(pdb.json() as Record<string, unknown>), status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 } },
  });
  assert.equal(st.status, 200, st.text);
  const refused = assertStatus(await evict('e2'), 429, 'TooManyRequests');
  assert.deepEqual(refused.details.causes, [{ reason: 'DisruptionBudget', message: 'The disruption budget guard needs 1 healthy pods and has 1 currently' }]);
  assert.equal((await srv.request('GET', `${NS}/pods/e2`)).json().metadata.deletionTimestamp, undefined);
  // One disruption allowed: the eviction takes it and records the pod.
  const cur = (await srv.request('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/guard')).json();
  await srv.request('PUT', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/guard/status', { body: { ...cur, status: { ...cur.status, disruptionsAllowed: 1, currentHealthy: 2 } } });
  assert.equal((await evict('e2')).status, 201);
  const after = (await srv.request('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/guard')).json();
  assert.equal(after.status.disruptionsAllowed, 0);
  assert.ok(after.status.disruptedPods.e2);
  assertStatus(await evict('missing'), 404, 'NotFound', 'pods "missing" not found');
});

void test('logs, exec, attach and portforward answer as kube-apiserver does without a kubelet', async () => {
  assert.equal((await srv.request('POST', `${NS}/pods`, { body: pod('c1', { containers: ['a', 'b'] }) })).status, 201);
  assertStatus(await srv.request('GET', `${NS}/pods/c1/log`), 400, 'BadRequest', 'a container name must be specified for pod c1, choose one of: [a b]');
  assertStatus(await srv.request('GET', `${NS}/pods/c1/log?container=zz`), 400, 'BadRequest', 'container zz is not valid for pod c1');
  const empty = await srv.request('GET', `${NS}/pods/c1/log?container=a`);
  assert.equal(empty.status, 200);
  assert.equal(empty.text, '');
  assertStatus(await srv.request('POST', `${NS}/pods/c1/exec?container=a&command=ls`), 400, 'BadRequest', 'pod c1 does not have a host assigned');
  assertStatus(await srv.request('POST', `${NS}/pods/c1/portforward`), 400, 'BadRequest', 'pod c1 does not have a host assigned');
  // Scheduled to a node whose kubelet does not answer: the dial error, as a 500.
  assert.equal((await srv.request('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: 1 } } } } })).status, 201);
  assert.equal((await srv.request('POST', `${NS}/pods`, { body: pod('c2', { nodeName: 'n1' }) })).status, 201);
  assertStatus(await srv.request('POST', `${NS}/pods/c2/exec?command=ls`), 500, 'InternalError', /error dialing backend: dial tcp 127\.0\.0\.1:1: connect: connection refused/);
  assertStatus(await srv.request('GET', `${NS}/pods/c2/log`), 500, 'InternalError', /dial tcp 127\.0\.0\.1:1: connect: connection refused/);
  assertStatus(await srv.request('DELETE', `${NS}/pods/c2/log`), 405, 'MethodNotAllowed');
});

void test('services/proxy needs endpoints backed by pods; names are parsed as scheme:name:port', async () => {
  assert.equal((await srv.request('POST', `${NS}/services`, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } } })).status, 201);
  assertStatus(await srv.request('GET', `${NS}/services/web/proxy/`), 503, 'ServiceUnavailable', 'no endpoints available for service "web"');
  assertStatus(await srv.request('GET', `${NS}/services/http:web:80/proxy/index.html`), 503, 'ServiceUnavailable', 'no endpoints available for service "web"');
  assertStatus(await srv.request('GET', `${NS}/services/ftp:web:80/proxy/`), 400, 'BadRequest', 'invalid service request "ftp:web:80"');
  assertStatus(await srv.request('GET', `${NS}/services/nosuch/proxy/`), 404, 'NotFound', 'services "nosuch" not found');
  assertStatus(await srv.request('GET', `${NS}/services/web/status/extra`), 404, 'NotFound');
});

void test('componentstatuses: deprecated, get and list, etcd healthy, an absent scheduler unhealthy', async () => {
  const r = await srv.request('GET', '/api/v1/componentstatuses');
  assert.equal(r.status, 200, r.text);
  assert.match(String(r.headers['warning']), /v1 ComponentStatus is deprecated in v1\.19\+/);
  const names = r.json().items.map((i: { metadata: { name: string } }) => i.metadata.name);
  assert.deepEqual(names, ['scheduler', 'controller-manager', 'etcd-0']);
  const etcd = (await srv.request('GET', '/api/v1/componentstatuses/etcd-0')).json();
  assert.deepEqual(etcd.conditions, [{ type: 'Healthy', status: 'True', message: 'ok' }]);
  const sched = r.json().items[0].conditions[0];
  assert.equal(sched.status, 'False');
  assert.match(sched.error, /^Get "https:\/\/127\.0\.0\.1:10259\/healthz": /);
  assertStatus(await srv.request('GET', '/api/v1/componentstatuses/nope'), 404, 'NotFound', 'componentstatuses "nope" not found');
  assertStatus(await srv.request('DELETE', '/api/v1/componentstatuses/etcd-0'), 405, 'MethodNotAllowed');
});
