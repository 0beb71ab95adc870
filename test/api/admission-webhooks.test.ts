/**
 * MutatingAdmissionWebhook and ValidatingAdmissionWebhook on a real server, with webhook servers started here on
 * 127.0.0.1 behind their own CA: the `url` and the Service + Endpoints forms, AdmissionReview v1 and v1beta1,
 * JSON patches read back, denials, warnings, a webhook that times out or answers garbage, a patch that makes the
 * object invalid, dry run, match conditions, configuration changes taking effect without a restart, and the
 * 422s for invalid configurations.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, uniqueName, type TestServer } from '../support/server.ts';
import { startWebhookServer, type WebhookRequest, type WebhookServer } from '../support/webhook-server.ts';
import { assertStatus, configMap } from './helpers.ts';

type J = Record<string, any>;

const SVC_NS = 'webhook-ns';
const SVC_NAME = 'hooks';
const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const CMS = '/api/v1/namespaces/default/configmaps';

let srv: TestServer;
let wh: WebhookServer;

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const patchOf = (ops: unknown[]) => ({ patch: b64(JSON.stringify(ops)), patchType: 'JSONPatch' });

/** The webhook's answer per path: the review's response fields. */
function answer(path: string, req: J): J | string {
  const obj = req.object as J | null;
  switch (path) {
    case '/deny':
      return { allowed: false, status: { message: `configmap ${obj?.metadata?.name} is not welcome`, code: 403, reason: 'Forbidden' }, warnings: ['you were warned'] };
    case '/deny-plain':
      return { allowed: false, status: { message: 'no' } };
    case '/allow':
      return { allowed: true, warnings: ['seen by allow'], auditAnnotations: { seen: 'yes' } };
    case '/label':
      return { allowed: true, ...patchOf([{ op: 'add', path: '/metadata/labels', value: { ...(obj?.metadata?.labels ?? {}), mutated: 'url' } }]) };
    case '/svc':
      return { allowed: true, ...patchOf([{ op: 'add', path: '/metadata/annotations', value: { via: 'service' } }]) };
    case '/invalid':
      return { allowed: true, ...patchOf([{ op: 'add', path: '/data/not a key!', value: 'x' }]) };
    default:
      return { allowed: true };
  }
}

function reviewsAt(path: string): J[] {
  return wh.requests.filter((r: WebhookRequest) => r.path.startsWith(`${path}?`)).map((r) => r.body as J);
}

before(async () => {
  wh = await startWebhookServer({
    dnsNames: [`${SVC_NAME}.${SVC_NS}.svc`],
    handler(r) {
      const path = r.path.split('?')[0]!;
      if (path === '/garbage') return { body: 'this is not an AdmissionReview' };
      const review = r.body as J;
      const out = answer(path, review.request ?? {});
      const body = { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, ...(out as J) } };
      return path === '/slow' ? { body, delayMs: 4000 } : { body };
    },
  });
  srv = await startTestServer();
});

after(async () => {
  await srv?.stop();
  await wh?.stop();
});

const url = (path: string) => ({ url: `${wh.url.replace(/\/$/, '')}${path}`, caBundle: b64(wh.ca.certPem) });

function hook(name: string, clientConfig: J, o: J = {}): J {
  return {
    name, clientConfig, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { hook: name.split('.')[0] } },
    ...o,
  };
}

async function configure(kind: 'mutating' | 'validating', name: string, webhooks: J[]): Promise<() => Promise<void>> {
  const base = kind === 'mutating' ? MUTATING : VALIDATING;
  const body = { apiVersion: 'admissionregistration.k8s.io/v1', kind: kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration', metadata: { name }, webhooks };
  const r = await srv.request('POST', base, { body });
  assert.equal(r.status, 201, r.text);
  // The webhooks see writes once their watch has the configuration: kube promises no more than that either.
  await new Promise((res) => setTimeout(res, 300));
  return async () => {
    const d = await srv.request('DELETE', `${base}/${name}`);
    assert.equal(d.status, 200, d.text);
  };
}

const labelled = (name: string, hookLabel: string, extra: J = {}) => configMap(name, { a: 'b' }, { labels: { hook: hookLabel, ...extra } });

async function assertNotStored(name: string): Promise<void> {
  assert.equal((await srv.request('GET', `${CMS}/${name}`)).status, 404, `${name} must not be stored`);
}

void test('a validating webhook denies in kube\'s words, with its code and warnings; configuration changes apply without restart', async () => {
  const remove = await configure('validating', 'deny-cfg', [hook('deny.example.com', url('/deny'))]);
  const name = uniqueName('cm');
  const r = await srv.request('POST', CMS, { body: labelled(name, 'deny') });
  const s = assertStatus(r, 403, 'Forbidden', `admission webhook "deny.example.com" denied the request: configmap ${name} is not welcome`);
  assert.equal(s.details, undefined);
  assert.equal(r.headers['warning'], '299 - "you were warned"');
  await assertNotStored(name);
  // Unselected objects pass untouched.
  assert.equal((await srv.request('POST', CMS, { body: configMap(uniqueName('cm')) })).status, 201);

  const review = reviewsAt('/deny').at(-1)!;
  assert.equal(review.apiVersion, 'admission.k8s.io/v1');
  const req = review.request;
  assert.match(req.uid, /^[0-9a-f-]{36}$/);
  assert.deepEqual(req.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
  assert.deepEqual(req.resource, { group: '', version: 'v1', resource: 'configmaps' });
  assert.deepEqual(req.requestKind, { group: '', version: 'v1', kind: 'ConfigMap' });
  assert.equal(req.namespace, 'default');
  assert.equal(req.name, name);
  assert.equal(req.operation, 'CREATE');
  assert.equal(req.userInfo.username, 'kubernetes-admin');
  assert.equal(req.dryRun, false);
  assert.equal(req.oldObject, null);
  assert.deepEqual(req.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
  assert.equal(req.object.metadata.name, name);
  assert.equal(req.object.kind, 'ConfigMap');

  await remove();
  const start = Date.now();
  for (;;) {
    const again = await srv.request('POST', CMS, { body: labelled(uniqueName('cm'), 'deny') });
    if (again.status === 201) break;
    assert.ok(Date.now() - start < 1000, 'a deleted configuration stops applying within a second');
    await new Promise((res) => setTimeout(res, 20));
  }
});

void test('a denial without a code is a 400 with the webhook\'s message', async () => {
  const remove = await configure('validating', 'plain-cfg', [hook('plain.example.com', url('/deny-plain'))]);
  try {
    const r = await srv.request('POST', CMS, { body: labelled(uniqueName('cm'), 'plain') });
    const s = assertStatus(r, 400, undefined as never, 'admission webhook "plain.example.com" denied the request: no');
    assert.equal(s.reason, undefined);
  } finally {
    await remove();
  }
});

void test('a mutating webhook (url, AdmissionReview v1beta1) patches the object; the patch is read back', async () => {
  const remove = await configure('mutating', 'label-cfg', [hook('label.example.com', url('/label'), { admissionReviewVersions: ['v1beta1'] })]);
  try {
    const name = uniqueName('cm');
    const r = await srv.request('POST', CMS, { body: labelled(name, 'label') });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json().metadata.labels, { hook: 'label', mutated: 'url' });
    const got = (await srv.request('GET', `${CMS}/${name}`)).json();
    assert.deepEqual(got.metadata.labels, { hook: 'label', mutated: 'url' });
    assert.equal(reviewsAt('/label').at(-1)!.apiVersion, 'admission.k8s.io/v1beta1');
  } finally {
    await remove();
  }
});

void test('a webhook behind a Service: an ExternalName Service pointing at this host', async () => {
  // kube refuses loopback addresses in Endpoints and EndpointSlices, so a webhook on 127.0.0.1 is reached as kube
  // reaches it: an ExternalName Service (the Endpoints/EndpointSlice resolution has its unit test).
  const port = Number(new URL(wh.url).port);
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SVC_NS } } })).status, 201);
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: SVC_NAME }, spec: { type: 'ExternalName', externalName: 'localhost' } };
  const svcR = await srv.request('POST', `/api/v1/namespaces/${SVC_NS}/services`, { body: svc });
  assert.equal(svcR.status, 201, svcR.text);
  const remove = await configure('mutating', 'svc-cfg', [hook('svc.example.com', {
    service: { namespace: SVC_NS, name: SVC_NAME, path: '/svc', port }, caBundle: b64(wh.ca.certPem),
  })]);
  try {
    const name = uniqueName('cm');
    const r = await srv.request('POST', CMS, { body: labelled(name, 'svc') });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((await srv.request('GET', `${CMS}/${name}`)).json().metadata.annotations, { via: 'service' });
    const call = wh.requests.filter((x) => x.path.startsWith('/svc?')).at(-1)!;
    assert.equal(call.path, '/svc?timeout=10s');
    assert.equal(call.headers['host'], `${SVC_NAME}.${SVC_NS}.svc:${port}`);
  } finally {
    await remove();
  }
  // A Service that does not exist: the call fails, the failure policy decides.
  const removeMissing = await configure('validating', 'nosvc-cfg', [hook('nosvc.example.com', { service: { namespace: SVC_NS, name: 'nothing', port: 443 }, caBundle: b64(wh.ca.certPem) })]);
  try {
    const name = uniqueName('cm');
    const r = await srv.request('POST', CMS, { body: labelled(name, 'nosvc') });
    assertStatus(r, 500, 'InternalError', /^Internal error occurred: failed calling webhook "nosvc.example.com": failed to call webhook: Post "https:\/\/nothing.webhook-ns.svc:443\/\?timeout=10s": service "nothing" not found$/);
    await assertNotStored(name);
  } finally {
    await removeMissing();
  }
});

void test('update and delete reach webhooks with the old object and their options', async () => {
  const remove = await configure('validating', 'ops-cfg', [hook('ops.example.com', url('/allow'), {
    rules: [{ operations: ['UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  })]);
  try {
    const name = uniqueName('cm');
    assert.equal((await srv.request('POST', CMS, { body: labelled(name, 'ops') })).status, 201);
    const before = reviewsAt('/allow').length;
    const p = await srv.request('PATCH', `${CMS}/${name}`, { body: { data: { a: 'c' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(p.status, 200, p.text);
    const d = await srv.request('DELETE', `${CMS}/${name}`);
    assert.equal(d.status, 200, d.text);
    const [update, del] = reviewsAt('/allow').slice(before).map((r) => r.request);
    assert.equal(update.operation, 'UPDATE');
    assert.equal(update.oldObject.data.a, 'b');
    assert.equal(update.object.data.a, 'c');
    assert.deepEqual(update.options, { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
    assert.equal(del.operation, 'DELETE');
    assert.equal(del.object, null);
    assert.equal(del.oldObject.metadata.name, name);
    assert.equal(del.options.kind, 'DeleteOptions');
  } finally {
    await remove();
  }
});

void test('a webhook that times out: Fail refuses with kube\'s error (nothing stored), Ignore lets the write through', async () => {
  const remove = await configure('validating', 'slow-cfg', [hook('slow.example.com', url('/slow'), { timeoutSeconds: 1 })]);
  try {
    const name = uniqueName('cm');
    const t0 = Date.now();
    const r = await srv.request('POST', CMS, { body: labelled(name, 'slow') });
    const took = Date.now() - t0;
    assertStatus(r, 500, 'InternalError',
      `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${wh.url}slow?timeout=1s": context deadline exceeded`);
    assert.ok(took >= 950 && took < 3500, `the timeout is the webhook's own (${took} ms)`);
    await assertNotStored(name);
  } finally {
    await remove();
  }
  const removeIgnore = await configure('validating', 'slow-ignore-cfg', [hook('slow.example.com', url('/slow'), { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
  try {
    assert.equal((await srv.request('POST', CMS, { body: labelled(uniqueName('cm'), 'slow') })).status, 201);
  } finally {
    await removeIgnore();
  }
});

void test('a webhook answering garbage fails the request under Fail', async () => {
  const remove = await configure('mutating', 'garbage-cfg', [hook('garbage.example.com', url('/garbage'))]);
  try {
    const name = uniqueName('cm');
    const r = await srv.request('POST', CMS, { body: labelled(name, 'garbage') });
    assertStatus(r, 500, 'InternalError', /^Internal error occurred: failed calling webhook "garbage.example.com": failed to call webhook: /);
    await assertNotStored(name);
  } finally {
    await remove();
  }
});

void test('a patch that makes the object invalid is refused by validation; nothing is stored', async () => {
  const remove = await configure('mutating', 'invalid-cfg', [hook('invalid.example.com', url('/invalid'))]);
  try {
    const name = uniqueName('cm');
    const r = await srv.request('POST', CMS, { body: labelled(name, 'invalid') });
    const s = assertStatus(r, 422, 'Invalid');
    assert.match(s.message, /data\[not a key!\]: Invalid value: "not a key!"/);
    await assertNotStored(name);
  } finally {
    await remove();
  }
});

void test('dry run reaches webhooks without side effects, marked dryRun; nothing is stored', async () => {
  const remove = await configure('validating', 'allow-cfg', [
    hook('allow.example.com', url('/allow')),
    hook('allow2.example.com', url('/allow'), { sideEffects: 'NoneOnDryRun', objectSelector: { matchLabels: { hook: 'allow' } } }),
  ]);
  try {
    const before = reviewsAt('/allow').length;
    const name = uniqueName('cm');
    const r = await srv.request('POST', `${CMS}?dryRun=All`, { body: labelled(name, 'allow') });
    assert.equal(r.status, 201, r.text);
    // Two webhooks gave the same warning: the client gets it once, as kube's recorder deduplicates.
    assert.equal(r.headers['warning'], '299 - "seen by allow"');
    const seen = reviewsAt('/allow').slice(before);
    assert.equal(seen.length, 2);
    for (const s of seen) {
      assert.equal(s.request.dryRun, true);
      assert.deepEqual(s.request.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
    }
    await assertNotStored(name);
  } finally {
    await remove();
  }
});

void test('match conditions select the request; one that fails to evaluate follows the failure policy', async () => {
  const remove = await configure('validating', 'mc-cfg', [
    hook('mc.example.com', url('/deny-plain'), { matchConditions: [{ name: 'prefixed', expression: "object.metadata.name.startsWith('mc-')" }] }),
    hook('mcerr.example.com', url('/deny-plain'), { matchConditions: [{ name: 'broken', expression: "object.data.missing == 'x'" }] }),
  ]);
  try {
    assertStatus(await srv.request('POST', CMS, { body: labelled(uniqueName('mc'), 'mc') }), 400, undefined as never, /denied the request: no$/);
    assert.equal((await srv.request('POST', CMS, { body: labelled(uniqueName('other'), 'mc') })).status, 201);
    const r = await srv.request('POST', CMS, { body: labelled(uniqueName('x'), 'mcerr') });
    assertStatus(r, 403, 'Forbidden', /resulted in error: /);
  } finally {
    await remove();
  }
});

void test('invalid configurations are refused with kube\'s causes', async () => {
  const bad = (o: J) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: uniqueName('bad') }, webhooks: [hook('a.example.com', url('/allow'), o)] });
  const cases: Array<[J, string, string]> = [
    [{ timeoutSeconds: 31 }, 'webhooks[0].timeoutSeconds', 'Invalid value: 31: the timeout value must be between 1 and 30 seconds'],
    [{ sideEffects: 'Some' }, 'webhooks[0].sideEffects', 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"'],
    [{ sideEffects: 'Unknown' }, 'webhooks[0].sideEffects', 'Unsupported value: "Unknown"'],
    [{ matchConditions: [{ name: 'c', expression: 'object.' }] }, 'webhooks[0].matchConditions[0].expression', 'Invalid value: "object."'],
    [{ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) }, 'webhooks[0].matchConditions', 'Too many: 65: must have at most 64 items'],
  ];
  for (const [o, field, text] of cases) {
    const r = await srv.request('POST', VALIDATING, { body: bad(o) });
    const s = assertStatus(r, 422, 'Invalid');
    assert.ok(s.details.causes.some((c: J) => c.field === field), `${field} in ${r.text}`);
    assert.ok(s.message.includes(text), `${text} in ${s.message}`);
  }
  const dup = bad({});
  dup.webhooks.push(dup.webhooks[0]!);
  const r = await srv.request('POST', VALIDATING, { body: dup });
  const s = assertStatus(r, 422, 'Invalid');
  assert.ok(s.message.includes('webhooks[1].name: Duplicate value: "a.example.com"'), s.message);
});

void test('client credentials for webhook servers come from the AdmissionConfiguration kubeconfig', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-webhook-creds-'));
  const strict = await startWebhookServer({
    requireClientCert: true,
    handler(r) {
      const review = r.body as J;
      return { body: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: false, status: { message: `hello ${r.clientCn}` } } } };
    },
  });
  const kubeconfig = await strict.writeKubeconfig(dir);
  const admissionConfig = path.join(dir, 'admission.yaml');
  writeFileSync(admissionConfig, [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: ValidatingAdmissionWebhook',
    '  configuration:',
    '    apiVersion: apiserver.config.k8s.io/v1',
    '    kind: WebhookAdmissionConfiguration',
    `    kubeConfigFile: ${JSON.stringify(kubeconfig)}`,
    '',
  ].join('\n'));
  const s = await startTestServer({ admission: { configFile: admissionConfig } });
  try {
    const body = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'creds' }, webhooks: [
      { ...hook('creds.example.com', { url: `${strict.url}creds`, caBundle: b64(strict.ca.certPem) }) },
    ] };
    assert.equal((await s.request('POST', VALIDATING, { body })).status, 201);
    await new Promise((res) => setTimeout(res, 300));
    const r = await s.request('POST', CMS, { body: labelled(uniqueName('cm'), 'creds') });
    assertStatus(r, 400, undefined as never, 'admission webhook "creds.example.com" denied the request: hello keelson-apiserver');
  } finally {
    await s.stop();
    await strict.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
