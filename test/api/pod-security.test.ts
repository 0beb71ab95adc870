// Pod Security admission on a real server: namespace labels choose enforce/audit/warn; refusals, Warning headers
// and 422s as kube-apiserver v1.33 sends them; the admission configuration's defaults and exemptions.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src/index.ts';
import { startTestServer, type TestResponse, type TestServer } from '../support/server.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ allowPrivileged: true });
});
after(async () => {
  await srv?.stop();
});

const L = 'pod-security.kubernetes.io/';
const pod = (name: string, spec: Record<string, unknown> = { containers: [{ name, image: 'nginx' }] }, meta: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...meta }, spec });
const restrictedSpec = (name: string) => ({
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [{ name, image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
});
const privilegedSpec = (name: string) => ({ hostPID: true, containers: [{ name, image: 'nginx', securityContext: { privileged: true } }] });
const restrictedWords = (c: string) => `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), `
  + `unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), `
  + `runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), `
  + `seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

/** The Warning headers' texts (the client joins repeated headers with ", "). */
function warnings(r: TestResponse): string[] {
  const h = r.headers['warning'];
  if (h === undefined) return [];
  return String(h).split(/, (?=299 - ")/).map((w) => JSON.parse(w.replace(/^299 - /, '')) as string);
}

async function namespace(s: TestServer, name: string, labels: Record<string, string>): Promise<void> {
  const r = await s.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } } });
  assert.equal(r.status, 201, r.text);
}

/** Label changes reach the plugin through its namespace informer: retry a write until it sees them. */
async function eventually(fn: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await fn())) {
    if (Date.now() > end) assert.fail(`not within 10 s: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

void test('enforce=restricted: a bare pod is refused with kube\'s 403 (dry-run too); a compliant pod is created without warnings', async () => {
  await namespace(srv, 'psa-restricted', { [`${L}enforce`]: 'restricted' });
  for (const q of ['', '?dryRun=All']) {
    const r = await srv.request('POST', `/api/v1/namespaces/psa-restricted/pods${q}`, { body: pod('web') });
    assert.equal(r.status, 403, q);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: `pods "web" is forbidden: violates PodSecurity "restricted:latest": ${restrictedWords('web')}`,
      reason: 'Forbidden', details: { name: 'web', kind: 'pods' }, code: 403,
    });
    assert.deepEqual(warnings(r), []);
  }
  const ok = await srv.request('POST', '/api/v1/namespaces/psa-restricted/pods', { body: pod('good', restrictedSpec('good')) });
  assert.equal(ok.status, 201, ok.text);
  assert.deepEqual(warnings(ok), []);
  // generateName: the refusal names the generated pod, as kube's validating admission sees it.
  const gen = await srv.request('POST', '/api/v1/namespaces/psa-restricted/pods', { body: { ...pod(''), metadata: { generateName: 'web-' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  assert.equal(gen.status, 403);
  assert.match(gen.json().message, /^pods "web-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": /);
});

void test('enforce is evaluated on significant pod updates only; an ephemeral container that breaks the level is refused', async () => {
  await namespace(srv, 'psa-updates', { [`${L}enforce`]: 'baseline' });
  const created = await srv.request('POST', '/api/v1/namespaces/psa-updates/pods', { body: pod('p') });
  assert.equal(created.status, 201, created.text);
  // Labels and annotations change freely.
  const relabel = await srv.request('PATCH', '/api/v1/namespaces/psa-updates/pods/p', {
    headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { tier: 'web' } } },
  });
  assert.equal(relabel.status, 200, relabel.text);
  const current = (await srv.request('GET', '/api/v1/namespaces/psa-updates/pods/p')).json();
  current.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }];
  const debug = await srv.request('PUT', '/api/v1/namespaces/psa-updates/pods/p/ephemeralcontainers', { body: current });
  assert.equal(debug.status, 403, debug.text);
  assert.equal(debug.json().message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)');
});

void test('warn=baseline: a privileged pod is created with kube\'s Warning; audit-only namespaces say nothing to the client', async () => {
  await namespace(srv, 'psa-warn', { [`${L}warn`]: 'baseline', [`${L}warn-version`]: 'v1.30' });
  const r = await srv.request('POST', '/api/v1/namespaces/psa-warn/pods', { body: pod('priv', privilegedSpec('priv')) });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(warnings(r), ['would violate PodSecurity "baseline:v1.30": host namespaces (hostPID=true), privileged (container "priv" must not set securityContext.privileged=true)']);
  await namespace(srv, 'psa-audit', { [`${L}audit`]: 'restricted' });
  const quiet = await srv.request('POST', '/api/v1/namespaces/psa-audit/pods', { body: pod('priv', privilegedSpec('priv')) });
  assert.equal(quiet.status, 201);
  assert.deepEqual(warnings(quiet), []);
});

void test('workloads in an enforce=restricted namespace: created, with the warning for their template', async () => {
  await namespace(srv, 'psa-workloads', { [`${L}enforce`]: 'restricted' });
  const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } };
  const objects: Array<[string, Record<string, unknown>]> = [
    ['/apis/apps/v1/namespaces/psa-workloads/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template } }],
    ['/apis/batch/v1/namespaces/psa-workloads/cronjobs', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { schedule: '0 0 * * *', jobTemplate: { spec: { template: { spec: { ...template.spec, restartPolicy: 'OnFailure' } } } } } }],
    ['/api/v1/namespaces/psa-workloads/podtemplates', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'tpl' }, template }],
  ];
  for (const [path, body] of objects) {
    const r = await srv.request('POST', path, { body });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [`would violate PodSecurity "restricted:latest": ${restrictedWords('nginx')}`], path);
  }
  // Scaling is not a template change.
  const scale = await srv.request('PATCH', '/apis/apps/v1/namespaces/psa-workloads/deployments/web/scale', {
    headers: { 'Content-Type': 'application/merge-patch+json' }, body: { spec: { replicas: 3 } },
  });
  assert.equal(scale.status, 200, scale.text);
  assert.deepEqual(warnings(scale), []);
  // Other kinds are never looked at.
  const cm = await srv.request('POST', '/api/v1/namespaces/psa-workloads/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } });
  assert.deepEqual(warnings(cm), []);
});

void test('invalid pod security labels: 422 on create; on update only when they changed', async () => {
  const bad = await srv.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa-bad', labels: { [`${L}enforce`]: 'strict' } } } });
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'Namespace "psa-bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    reason: 'Invalid',
    details: { name: 'psa-bad', kind: 'Namespace', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' }] },
    code: 422,
  });
  assert.equal((await srv.request('GET', '/api/v1/namespaces/psa-bad')).status, 404);
  await namespace(srv, 'psa-relabel-bad', {});
  const patch = await srv.request('PATCH', '/api/v1/namespaces/psa-relabel-bad', {
    headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { [`${L}warn-version`]: 'v1.x' } } },
  });
  assert.equal(patch.status, 422);
  assert.equal(patch.json().message, 'Namespace "psa-relabel-bad" is invalid: metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1.x": must be "latest" or "v1.x"');
});

void test('tightening a namespace\'s enforce level warns about the pods already there', async () => {
  await namespace(srv, 'psa-relabel', {});
  for (const [name, spec] of [['web-1', undefined], ['web-2', undefined], ['agent', privilegedSpec('agent')], ['good', restrictedSpec('good')]] as const) {
    const r = await srv.request('POST', '/api/v1/namespaces/psa-relabel/pods', { body: pod(name, spec ?? { containers: [{ name: 'c', image: 'nginx' }] }) });
    assert.equal(r.status, 201, r.text);
  }
  const r = await srv.request('PATCH', '/api/v1/namespaces/psa-relabel', {
    headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { [`${L}enforce`]: 'restricted' } } },
  });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(warnings(r), [
    'existing pods in namespace "psa-relabel" violate the new PodSecurity enforce level "restricted:latest"',
    'agent: host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'web-1 (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ]);
  assert.equal(r.json().metadata.labels[`${L}enforce`], 'restricted', 'the label change itself goes through');
  // From now on new pods there are refused.
  await eventually(async () => (await srv.request('POST', '/api/v1/namespaces/psa-relabel/pods?dryRun=All', { body: pod('late') })).status === 403, 'the new label enforced');
  // Relaxing says nothing.
  const relax = await srv.request('PATCH', '/api/v1/namespaces/psa-relabel', {
    headers: { 'Content-Type': 'application/merge-patch+json' }, body: { metadata: { labels: { [`${L}enforce`]: 'baseline' } } },
  });
  assert.deepEqual(warnings(relax), []);
});

void test('the admission configuration: default levels for unlabeled namespaces, exempt namespaces, users and runtime classes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-psa-'));
  writeFileSync(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: PodSecurity',
    '  configuration:',
    '    apiVersion: pod-security.admission.config.k8s.io/v1',
    '    kind: PodSecurityConfiguration',
    '    defaults: {enforce: baseline, warn: restricted, warn-version: v1.25}',
    '    exemptions: {namespaces: [psa-exempt], usernames: [ci-bot], runtimeClasses: [kata]}',
  ].join('\n'));
  const s = await startTestServer({ allowPrivileged: true, admission: { configFile: join(dir, 'admission.yaml') } });
  try {
    await namespace(s, 'plain', {});
    const r = await s.request('POST', '/api/v1/namespaces/plain/pods', { body: pod('priv', privilegedSpec('priv')) });
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'pods "priv" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true), privileged (container "priv" must not set securityContext.privileged=true)');
    const warned = await s.request('POST', '/api/v1/namespaces/plain/pods', { body: pod('web') });
    assert.equal(warned.status, 201);
    assert.deepEqual(warnings(warned), [`would violate PodSecurity "restricted:v1.25": ${restrictedWords('web')}`]);
    // Exempt: the namespace (labelling it warns that the labels do nothing), a user, a runtime class.
    const exemptNs = await s.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa-exempt', labels: { [`${L}enforce`]: 'restricted' } } } });
    assert.equal(exemptNs.status, 201);
    assert.deepEqual(warnings(exemptNs), ['namespace "psa-exempt" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored']);
    assert.equal((await s.request('POST', '/api/v1/namespaces/psa-exempt/pods', { body: pod('priv', privilegedSpec('priv')) })).status, 201);
    const asBot = await s.request('POST', '/api/v1/namespaces/plain/pods', { headers: { 'Impersonate-User': 'ci-bot', 'Impersonate-Group': 'system:masters' }, body: pod('bot', privilegedSpec('bot')) });
    assert.equal(asBot.status, 201, asBot.text);
    assert.deepEqual(warnings(asBot), []);
    // The RuntimeClass admission plugin wants the class to exist, as in kube.
    const rc = await s.request('POST', '/apis/node.k8s.io/v1/runtimeclasses', { body: { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' } });
    assert.equal(rc.status, 201, rc.text);
    const kata = await s.request('POST', '/api/v1/namespaces/plain/pods', { body: pod('kata', { ...privilegedSpec('kata'), runtimeClassName: 'kata' }) });
    assert.equal(kata.status, 201, kata.text);
  } finally {
    await s.stop();
  }
});

void test('a bad PodSecurityConfiguration refuses the start in kube\'s words; --disable-admission-plugins=PodSecurity turns it off', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-psa-'));
  writeFileSync(join(dir, 'psa.yaml'), 'apiVersion: pod-security.admission.config.k8s.io/v1beta1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: strict\n');
  writeFileSync(join(dir, 'admission.yaml'), 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: psa.yaml\n');
  await assert.rejects(startServer({ storage: 'memory', admission: { configFile: join(dir, 'admission.yaml') } }),
    { message: 'failed to initialize admission plugin "PodSecurity": PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted' });
  const off = await startTestServer({ admission: { disablePlugins: ['PodSecurity'] } });
  try {
    await namespace(off, 'labeled', { [`${L}enforce`]: 'restricted' });
    assert.equal((await off.request('POST', '/api/v1/namespaces/labeled/pods', { body: pod('web') })).status, 201);
  } finally {
    await off.stop();
  }
});
