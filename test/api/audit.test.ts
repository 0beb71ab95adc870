/**
 * Auditing end to end: a policy using every level, events read back from the JSON-lines log file, the stages
 * of ordinary, long-running and panicking requests, authorization/impersonation/deprecation annotations, a
 * Secret's data never at Metadata level, the webhook backend's EventList batches (HTTPS with its own CA), a
 * full disk under blocking-strict (500) and under blocking (served), and malformed policies refusing start.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/index.ts';
import type { Endpoint } from '../../src/request/context.ts';
import { eventually, startTestServer, uniqueName, type TestServer } from '../support/server.ts';
import { startWebhookServer, type WebhookServer } from '../support/webhook-server.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-audit-'));
const policyFile = path.join(dir, 'policy.yaml');
const logFile = path.join(dir, 'audit', 'audit.log');
writeFileSync(policyFile, `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: []
rules:
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*", "/version"]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets"]
  - level: RequestResponse
    omitManagedFields: true
    resources:
      - group: ""
        resources: ["configmaps"]
  - level: Request
    resources:
      - group: ""
        resources: ["namespaces"]
  - level: Metadata
    omitStages: ["RequestReceived"]
`);

/** Throws a plain Error (not a Status): the panic path. */
const panicking: Endpoint = (ctx) => {
  if (ctx.url.pathname !== '/test-panic') return Promise.resolve(false);
  throw new Error('boom in handler');
};

let srv: TestServer;

before(async () => {
  srv = await startTestServer({ audit: { policyFile, log: { path: logFile } }, extraEndpoints: [panicking] });
});

after(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function events(file = logFile): any[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/**
 * The events of one request once its last stage is in the file: as in kube, ResponseComplete is recorded after the
 * response went out, so the client may see the answer a moment before the line is written.
 */
function byId(id: string, last = 'ResponseComplete'): Promise<any[]> {
  return eventually(`audit events of ${id} up to ${last}`, () => {
    const evs = events().filter((e) => e.auditID === id);
    return evs.some((e) => e.stage === last) ? evs : undefined;
  }, 5000);
}

void test('a Secret is audited at Metadata: no request or response body, its data nowhere in the log', async () => {
  const name = uniqueName('sec');
  const r = await srv.request('POST', '/api/v1/namespaces/default/secrets', {
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: Buffer.from('hunter2-very-secret').toString('base64') }, stringData: { token: 'plain-secret-token' } },
  });
  assert.equal(r.status, 201, r.text);
  const got = await srv.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
  assert.equal(got.status, 200);
  const evs = await byId(String(r.headers['audit-id']));
  assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
  for (const e of evs) {
    assert.equal(e.level, 'Metadata');
    assert.equal(e.requestObject, undefined);
    assert.equal(e.responseObject, undefined);
  }
  const done = evs[1];
  assert.equal(done.verb, 'create');
  assert.deepEqual(done.objectRef, { resource: 'secrets', namespace: 'default', name, apiVersion: 'v1' });
  assert.deepEqual(done.responseStatus, { metadata: {}, code: 201 });
  const text = readFileSync(logFile, 'utf8');
  assert.ok(!text.includes('hunter2-very-secret'));
  assert.ok(!text.includes(Buffer.from('hunter2-very-secret').toString('base64')));
  assert.ok(!text.includes('plain-secret-token'));
  const read = (await byId(String(got.headers['audit-id']))).at(-1);
  assert.equal(read.verb, 'get');
  assert.equal(read.responseObject, undefined);
});

void test('RequestResponse: bodies without managedFields, the event id is the Audit-Id header, authorization annotations', async () => {
  const name = uniqueName('cm');
  const r = await srv.request('POST', '/api/v1/namespaces/default/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }, headers: { 'User-Agent': 'audit-test/1.0' },
  });
  assert.equal(r.status, 201, r.text);
  const id = String(r.headers['audit-id']);
  assert.match(id, /^[0-9a-f-]{36}$/);
  const evs = await byId(id);
  assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
  const [received, done] = evs;
  assert.equal(received.requestReceivedTimestamp, received.stageTimestamp);
  assert.match(done.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.match(done.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.ok(done.stageTimestamp >= done.requestReceivedTimestamp);
  assert.equal(done.kind, 'Event');
  assert.equal(done.apiVersion, 'audit.k8s.io/v1');
  assert.equal(done.level, 'RequestResponse');
  assert.equal(done.requestURI, '/api/v1/namespaces/default/configmaps');
  assert.equal(done.userAgent, 'audit-test/1.0');
  assert.deepEqual(done.sourceIPs, ['127.0.0.1']);
  assert.ok(done.user.groups.includes('system:masters'), JSON.stringify(done.user));
  assert.deepEqual(done.requestObject, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
  assert.equal(done.responseObject.metadata.name, name);
  assert.ok(done.responseObject.metadata.uid);
  assert.equal(done.responseObject.metadata.managedFields, undefined);
  assert.equal(done.responseStatus.code, 201);
  assert.equal(done.annotations['authorization.k8s.io/decision'], 'allow');
  assert.equal(typeof done.annotations['authorization.k8s.io/reason'], 'string');
  // Go's field order: the line reads as kube-apiserver's.
  assert.deepEqual(Object.keys(done), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent',
    'objectRef', 'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
  // A client-chosen Audit-ID is kept.
  const mine = await srv.request('GET', `/api/v1/namespaces/default/configmaps/${name}`, { headers: { 'Audit-ID': 'my-own-audit-id' } });
  assert.equal(mine.headers['audit-id'], 'my-own-audit-id');
  assert.equal((await byId('my-own-audit-id')).at(-1).responseObject.data.k, 'v');
});

void test('Request level keeps the request body only; None records nothing', async () => {
  const name = uniqueName('ns');
  const r = await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  assert.equal(r.status, 201, r.text);
  const done = (await byId(String(r.headers['audit-id']))).at(-1);
  assert.equal(done.level, 'Request');
  assert.equal(done.requestObject.metadata.name, name);
  assert.equal(done.responseObject, undefined);
  const v = await srv.request('GET', '/version');
  assert.equal(v.status, 200);
  // A later audited request's events are in the file, so /version's would be too.
  const after = await srv.request('GET', '/api/v1/namespaces/default/configmaps');
  await byId(String(after.headers['audit-id']));
  assert.deepEqual(events().filter((e) => e.auditID === v.headers['audit-id']), []);
});

void test('rule omitStages, a 403 with the forbid decision, impersonation, a deprecated API', async () => {
  const anon = await srv.request('GET', '/api/v1/nodes', { user: 'anonymous' });
  assert.equal(anon.status, 403);
  const denied = await byId(String(anon.headers['audit-id']));
  assert.deepEqual(denied.map((e) => e.stage), ['ResponseComplete']);
  assert.equal(denied[0].user.username, 'system:anonymous');
  assert.equal(denied[0].annotations['authorization.k8s.io/decision'], 'forbid');
  assert.equal(denied[0].responseStatus.code, 403);
  assert.equal(denied[0].responseStatus.reason, 'Forbidden');
  assert.equal(denied[0].responseStatus.status, 'Failure');
  assert.match(denied[0].responseStatus.message, /cannot list resource "nodes"/);

  const as = await srv.request('GET', '/api/v1/pods', { headers: { 'Impersonate-User': 'alice', 'Impersonate-Group': 'devs' } });
  assert.equal(as.status, 403);
  const ev = (await byId(String(as.headers['audit-id'])))[0];
  assert.ok(ev.user.groups.includes('system:masters'));
  assert.deepEqual(ev.impersonatedUser, { username: 'alice', groups: ['devs', 'system:authenticated'] });

  const dep = await srv.request('GET', '/api/v1/namespaces/default/endpoints');
  assert.equal(dep.status, 200);
  const depEv = (await byId(String(dep.headers['audit-id'])))[0];
  assert.equal(depEv.annotations['k8s.io/deprecated'], 'true');
  assert.equal(depEv.annotations['k8s.io/removed-release'], undefined);
});

void test('a failed authentication is audited as the empty user, one ResponseStarted event with the 401; None records nothing', async () => {
  const bad = { user: { token: 'not-a-valid-token' }, headers: { 'User-Agent': 'audit-test/1.0' } } as const;
  const r = await srv.request('GET', '/api/v1/namespaces/default/pods?limit=5', bad);
  assert.equal(r.status, 401, r.text);
  const evs = await byId(String(r.headers['audit-id']), 'ResponseStarted');
  assert.deepEqual(evs.map((e) => e.stage), ['ResponseStarted']);
  const ev = evs[0];
  assert.equal(ev.level, 'Metadata');
  assert.equal(ev.verb, 'list');
  assert.equal(ev.requestURI, '/api/v1/namespaces/default/pods?limit=5');
  assert.deepEqual(ev.user, {});
  assert.deepEqual(ev.sourceIPs, ['127.0.0.1']);
  assert.equal(ev.userAgent, 'audit-test/1.0');
  assert.deepEqual(ev.objectRef, { resource: 'pods', namespace: 'default', apiVersion: 'v1' });
  // The 401 Status written replaces the attempted-methods message, as kube's LogResponseObject does.
  assert.deepEqual(ev.responseStatus, { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  assert.equal(ev.annotations, undefined);
  assert.ok(ev.stageTimestamp >= ev.requestReceivedTimestamp);

  // /version is None in the policy: refused all the same, but not recorded.
  const v = await srv.request('GET', '/version', bad);
  assert.equal(v.status, 401);
  const after = await srv.request('GET', '/api/v1/namespaces/default/configmaps');
  await byId(String(after.headers['audit-id']));
  assert.deepEqual(events().filter((e) => e.auditID === v.headers['audit-id']), []);
});

void test('a watch is long-running: ResponseStarted when its headers go out, ResponseComplete when it ends', async () => {
  const r = await srv.request('GET', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1');
  assert.equal(r.status, 200);
  const evs = await byId(String(r.headers['audit-id']));
  assert.deepEqual(evs.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
  assert.equal(evs[1].responseStatus.code, 200);
  assert.equal(evs[2].verb, 'watch');
});

void test('a request that panics gets a Panic event, and still a 500 Status', async () => {
  const r = await srv.request('GET', '/test-panic');
  assert.equal(r.status, 500);
  assert.equal(r.json().reason, 'InternalError');
  const evs = await byId(String(r.headers['audit-id']), 'Panic');
  assert.deepEqual(evs.map((e) => e.stage), ['Panic']);
  assert.deepEqual(evs[0].responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: boom in handler", reason: 'InternalError', code: 500 });
});

void test('blocking-strict on a full disk answers 500 and runs nothing; blocking serves anyway', async () => {
  const strict = await startTestServer({ audit: { policyFile, log: { path: '/dev/full', batch: { mode: 'blocking-strict' } } } });
  try {
    const name = uniqueName('cm');
    const r = await strict.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } });
    assert.equal(r.status, 500);
    assert.equal(r.text, 'Internal Server Error: "/api/v1/namespaces/default/configmaps": failed to store audit event\n');
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    // Unaudited paths (level None) are served.
    assert.equal((await strict.request('GET', '/version')).status, 200);
  } finally {
    await strict.stop();
  }
  const lax = await startTestServer({ audit: { policyFile, log: { path: '/dev/full' } } });
  try {
    assert.equal((await lax.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
  } finally {
    await lax.stop();
  }
});

void test('the webhook backend receives EventList batches over HTTPS', async () => {
  let wh: WebhookServer | undefined;
  let hooked: TestServer | undefined;
  try {
    wh = await startWebhookServer({ requireClientCert: true, handler: () => ({ body: {} }) });
    const kubeconfig = await wh.writeKubeconfig(dir, { name: 'audit-webhook.kubeconfig' });
    hooked = await startTestServer({
      audit: { policyFile, webhook: { configFile: kubeconfig, batch: { maxBatchSize: 5, maxBatchWaitMs: 200 } } },
    });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await hooked.request('GET', `/api/v1/namespaces/default/configmaps?limit=${i + 1}`);
      ids.push(String(r.headers['audit-id']));
    }
    const seen = await eventually('all events delivered', () => {
      const items = wh!.requests.flatMap((q) => q.body.items ?? []);
      return ids.every((id) => items.some((e: any) => e.auditID === id && e.stage === 'ResponseComplete')) ? items : undefined;
    });
    for (const q of wh.requests) {
      assert.equal(q.body.kind, 'EventList');
      assert.equal(q.body.apiVersion, 'audit.k8s.io/v1');
      assert.ok(q.body.items.length >= 1 && q.body.items.length <= 5, `batch of ${q.body.items.length}`);
      assert.equal(q.clientCn, 'keelson-apiserver');
    }
    // 8 events (two stages × four requests) in batches of at most 5: more than one POST.
    assert.ok(wh.requests.length >= 2);
    assert.ok(seen.length >= 8);
  } finally {
    await hooked?.stop();
    await wh?.stop();
  }
});

void test('a malformed policy refuses to start, naming the file and the line', async () => {
  const bad = path.join(dir, 'bad.yaml');
  writeFileSync(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n   verbs: [get\n');
  await assert.rejects(startServer({ port: 0, audit: { policyFile: bad, log: { path: '-' } } }),
    (e: Error) => e.message.startsWith('loading audit policy file: failed decoding: error converting YAML to JSON: yaml: line ') && e.message.endsWith(`: from file ${bad}`));
  writeFileSync(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Everything\n');
  await assert.rejects(startServer({ port: 0, audit: { policyFile: bad, log: { path: '-' } } }),
    { message: `loading audit policy file: rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${bad}` });
  await assert.rejects(startServer({ port: 0, audit: { policyFile: path.join(dir, 'missing.yaml'), log: { path: '-' } } }),
    { message: `loading audit policy file: failed to read file path "${path.join(dir, 'missing.yaml')}": open ${path.join(dir, 'missing.yaml')}: no such file or directory` });
});
