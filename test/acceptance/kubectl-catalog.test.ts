/**
 * Acceptance for the built-in API catalog (issue 4's "done when"), with kubectl 1.33 against a real server:
 * `kubectl explain` from /openapi/v3 for kinds and nested field paths; `kubectl create --validate=strict` refusing
 * unknown fields with kube-apiserver's message; objects made by `kubectl create deployment|service|job|cronjob`
 * coming back with kube's defaults (compared with what a real kube-apiserver stored for the same commands);
 * `kubectl api-resources` listing exactly kube's resources; a deprecated version warning on use.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { reference } from '../api/helpers.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl catalog acceptance: ${skip}\n`);

let srv: TestServer | undefined;
const NS = 'ref';

before(async () => {
  if (skip) return;
  srv = await startTestServer();
  assert.equal((await k(['create', 'namespace', NS])).code, 0);
});
after(async () => { await srv?.stop(); });

const { k, ok } = kubectlFor(() => srv!.kubeconfigPath);

type J = Record<string, any>;

/** Drops what differs between any two servers (identity, times, owners' uids, allocated IPs). */
function comparable(obj: J): J {
  const o = structuredClone(obj);
  delete o.metadata;
  delete o.status;
  const uidLabels = (m: J | undefined) => {
    for (const k of Object.keys(m ?? {})) if (k.endsWith('controller-uid')) m![k] = '<uid>';
  };
  if (o.spec?.selector?.matchLabels) uidLabels(o.spec.selector.matchLabels);
  if (o.spec?.template?.metadata?.labels) uidLabels(o.spec.template.metadata.labels);
  if (o.spec?.clusterIP) { o.spec.clusterIP = '<ip>'; o.spec.clusterIPs = ['<ip>']; }
  return o;
}

void test('kubectl explain: kinds and nested field paths from /openapi/v3', { skip }, async () => {
  const pod = await ok(['explain', 'pods']);
  assert.match(pod, /KIND:\s+Pod\nVERSION:\s+v1/);
  assert.match(pod, /FIELDS:\n[\s\S]*spec\t<PodSpec>/);
  const containers = await ok(['explain', 'pods.spec.containers']);
  assert.match(containers, /FIELD: containers <\[\]Container>/);
  assert.match(containers, /name\t<string> -required-/);
  const strategy = await ok(['explain', 'deployment.spec.strategy.rollingUpdate.maxSurge']);
  assert.match(strategy, /GROUP:\s+apps[\s\S]*FIELD: maxSurge <IntOrString>/);
  const cron = await ok(['explain', 'cronjob.spec.jobTemplate.spec.template.spec.restartPolicy']);
  assert.match(cron, /FIELD: restartPolicy <string>/);
  const crd = await ok(['explain', 'customresourcedefinition.spec.versions.schema.openAPIV3Schema']);
  assert.match(crd, /GROUP:\s+apiextensions\.k8s\.io[\s\S]*FIELD: openAPIV3Schema <JSONSchemaProps>/);
  const bad = await k(['explain', 'pods.spec.nosuchfield']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /field "nosuchfield" does not exist/);
});

void test('kubectl create --validate=strict refuses unknown and duplicate fields as kube-apiserver does', { skip }, async () => {
  const manifest = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'strict', namespace: NS }, spec: { replicas: 1, bogus: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx', imagePullPolice: 'x' }] } } } });
  const r = await k(['create', '--validate=strict', '-f', '-'], manifest);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Error from server \(BadRequest\): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.bogus", unknown field "spec.template.spec.containers\[0\].imagePullPolice"/);
  assert.notEqual((await k(['get', 'deployment', 'strict', '-n', NS])).code, 0, 'nothing was created');
  // kubectl's default (--validate=true) is Strict too; --validate=warn creates and prints the findings as warnings.
  assert.notEqual((await k(['create', '-f', '-'], manifest)).code, 0);
  const warned = await k(['create', '--validate=warn', '-f', '-'], manifest);
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /Warning: unknown field "spec.bogus"/);
});

void test('objects made by kubectl create come back with kube-apiserver\'s defaults', { skip }, async () => {
  await ok(['create', 'deployment', 'web', '-n', NS, '--image=nginx:1', '--replicas=2']);
  await ok(['create', 'service', 'clusterip', 'svc1', '-n', NS, '--tcp=80:8080']);
  await ok(['create', 'job', 'j1', '-n', NS, '--image=busybox']);
  for (const [kind, name, file] of [
    ['deployment', 'web', 'apis_apps_v1_namespaces_ref_deployments_web.json'],
    ['service', 'svc1', 'api_v1_namespaces_ref_services_svc1.json'],
    ['job', 'j1', 'apis_batch_v1_namespaces_ref_jobs_j1.json'],
  ] as const) {
    const want = reference<J>(`objects/${file}`);
    assert.ok(want, `reference objects/${file}`);
    const got = JSON.parse(await ok(['get', kind, name, '-n', NS, '-o', 'json'])) as J;
    assert.deepEqual(comparable(got), comparable(want), `${kind}/${name}`);
  }
  // A CronJob: kube's defaults for the schedule's job template and the CronJob itself.
  await ok(['create', 'cronjob', 'cj', '-n', NS, '--image=busybox', '--schedule=*/5 * * * *']);
  const cj = JSON.parse(await ok(['get', 'cronjob', 'cj', '-n', NS, '-o', 'json'])) as J;
  assert.equal(cj.spec.concurrencyPolicy, 'Allow');
  assert.equal(cj.spec.suspend, false);
  assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
  assert.equal(cj.spec.failedJobsHistoryLimit, 1);
  const podSpec = cj.spec.jobTemplate.spec.template.spec;
  assert.equal(podSpec.restartPolicy, 'OnFailure');
  assert.equal(podSpec.dnsPolicy, 'ClusterFirst');
  assert.equal(podSpec.containers[0].terminationMessagePath, '/dev/termination-log');
  assert.equal(podSpec.containers[0].imagePullPolicy, 'Always');
});

void test('kubectl api-resources lists exactly the resources kube-apiserver serves (plus v1.33 additions)', { skip }, async () => {
  const out = await ok(['api-resources', '--no-headers', '-o', 'name']);
  const ours = new Set(out.trim().split('\n'));
  const want = new Set<string>();
  for (const f of ['api.aggregated-discovery.json', 'apis.aggregated-discovery.json']) {
    const doc = reference<J>(f)!;
    for (const g of doc.items) {
      const v = g.versions[0];
      for (const r of v.resources) want.add(g.metadata.name ? `${r.resource}.${g.metadata.name}` : r.resource);
    }
  }
  const added133 = new Set(['ipaddresses.networking.k8s.io', 'servicecidrs.networking.k8s.io']);
  assert.deepEqual([...ours].filter((r) => !want.has(r) && !added133.has(r)).sort(), []);
  assert.deepEqual([...want].filter((r) => !ours.has(r)).sort(), []);
});

void test('a deprecated version warns on use; a disabled one is not served', { skip }, async () => {
  const r = await k(['get', 'componentstatuses']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
  assert.match(r.stdout, /^NAME\s+STATUS\s+MESSAGE\s+ERROR/);
  assert.match(r.stdout, /\netcd-0\s+Healthy\s+ok/);
  const gone = await k(['get', '--raw', '/apis/flowcontrol.apiserver.k8s.io/v1beta3']);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /NotFound|the server could not find the requested resource/);
});
