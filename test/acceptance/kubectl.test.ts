/**
 * Acceptance: the server started as a user starts it (`node bin/keelson.mjs --secure-port --data-dir
 * --write-kubeconfig`), driven by kubectl 1.33 through the everyday commands, then restarted on the same
 * data dir with every object still there. Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { findKubectl, kubectl as run, kubectlBackground, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { startKeelson, type KeelsonProcess } from './keelson-process.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl acceptance: ${skip}\n`);

let dir = '';
let kc = '';
let server: KeelsonProcess | undefined;
const NS = 'acc';

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-acc-'));
  kc = path.join(dir, 'kc');
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: kc });
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function k(args: string[], input?: string): Promise<KubectlResult> {
  return run(args, { kubeconfig: kc, ...(input !== undefined ? { input } : {}) });
}

/** Manifests go through `kubectl create -f` (JSON bodies); the generators (`create configmap …`) send protobuf. */
function manifest(...objs: object[]): string {
  // Several objects as a multi-document stream (a `List` would make kubectl validate against /openapi/v2).
  return objs.map((o) => JSON.stringify(o)).join('\n---\n');
}
const cm = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS }, data });

/** Runs kubectl and asserts success; returns stdout. */
async function ok(args: string[], input?: string): Promise<string> {
  const r = await k(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

void test('version, api-versions, api-resources', { skip }, async () => {
  const v = JSON.parse(await ok(['version', '-o', 'json']));
  assert.match(v.serverVersion.gitVersion, /^v1\.33\./);
  const versions = (await ok(['api-versions'])).trim().split('\n');
  for (const gv of ['v1', 'apps/v1', 'batch/v1', 'rbac.authorization.k8s.io/v1', 'coordination.k8s.io/v1']) assert.ok(versions.includes(gv), gv);
  const res = await ok(['api-resources']);
  assert.match(res, /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND/);
  assert.match(res, /\nconfigmaps\s+cm\s+v1\s+true\s+ConfigMap\n/);
  assert.match(res, /\ndeployments\s+deploy\s+apps\/v1\s+true\s+Deployment\n/);
  assert.match(res, /\nnamespaces\s+ns\s+v1\s+false\s+Namespace\n/);
  const raw = await ok(['get', '--raw', '/readyz?verbose']);
  assert.match(raw, /\[\+\]ping ok/);
  assert.match(raw, /readyz check passed/);
});

void test('namespaces and configmaps: create, get in every output, describe, label, annotate, replace', { skip }, async () => {
  assert.match(await ok(['create', '-f', '-'], manifest({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })), /^namespace\/acc created/);
  assert.match(await ok(['create', '-f', '-'], manifest(cm('cm1', { a: 'b' }))), /^configmap\/cm1 created/);

  const table = await ok(['get', 'configmap', 'cm1', '-n', NS]);
  assert.match(table, /^NAME\s+DATA\s+AGE\ncm1\s+1\s+\d+s\n$/);
  const json = JSON.parse(await ok(['get', 'cm', 'cm1', '-n', NS, '-o', 'json']));
  assert.deepEqual(json.data, { a: 'b' });
  assert.equal(json.kind, 'ConfigMap');
  const yaml = parseYaml(await ok(['get', 'cm', 'cm1', '-n', NS, '-o', 'yaml']));
  assert.equal(yaml.metadata.name, 'cm1');
  const cc = await ok(['get', 'cm', '-n', NS, 'cm1', '-o', 'custom-columns=N:.metadata.name,A:.data.a']);
  assert.match(cc, /^N\s+A\ncm1\s+b\n$/);
  const wide = await ok(['get', 'ns', NS, '-o', 'wide']);
  assert.match(wide, /^NAME\s+STATUS\s+AGE\nacc\s+Active\s+\d+s\n$/);

  const d = await ok(['describe', 'configmap', 'cm1', '-n', NS]);
  assert.match(d, /^Name:\s+cm1\nNamespace:\s+acc\n/);
  assert.match(d, /\nData\n====\na:\n----\nb\n/);

  assert.match(await ok(['label', 'cm', 'cm1', '-n', NS, 'env=test']), /configmap\/cm1 labeled/);
  assert.match(await ok(['annotate', 'cm', 'cm1', '-n', NS, 'note=hello']), /configmap\/cm1 annotated/);
  const got = JSON.parse(await ok(['get', 'cm', 'cm1', '-n', NS, '-o', 'json']));
  assert.equal(got.metadata.labels.env, 'test');
  assert.equal(got.metadata.annotations.note, 'hello');

  got.data = { a: 'replaced' };
  assert.match(await ok(['replace', '-f', '-'], JSON.stringify(got)), /configmap\/cm1 replaced/);
  assert.equal(await ok(['get', 'cm', 'cm1', '-n', NS, '-o', 'jsonpath={.data.a}']), 'replaced');
  // Replacing with the old resourceVersion again is a conflict, worded as kube-apiserver does.
  const stale = await k(['replace', '-f', '-'], JSON.stringify(got));
  assert.notEqual(stale.code, 0);
  assert.match(stale.stderr, /Operation cannot be fulfilled on configmaps "cm1": the object has been modified; please apply your changes to the latest version and try again/);
});

void test('default service account and root CA appear in the new namespace', { skip }, async () => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const sa = await k(['get', 'serviceaccount', 'default', '-n', NS, '-o', 'name']);
    const ca = await k(['get', 'configmap', 'kube-root-ca.crt', '-n', NS, '-o', 'name']);
    if (sa.code === 0 && ca.code === 0) break;
    assert.ok(Date.now() < deadline, `default SA / root CA missing: ${sa.stderr} ${ca.stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

void test('secrets', { skip }, async () => {
  assert.match(await ok(['create', '-f', '-'], manifest({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1', namespace: NS }, data: { k: 'dg==' } })), /secret\/s1 created/);
  assert.equal(await ok(['get', 'secret', 's1', '-n', NS, '-o', 'jsonpath={.data.k}']), 'dg==');
  // type defaults to Opaque.
  assert.match(await ok(['get', 'secrets', '-n', NS]), /^NAME\s+TYPE\s+DATA\s+AGE\ns1\s+Opaque\s+1\s+\d+s\n$/);
});

void test('deployments: create, wide output, scale, describe', { skip }, async () => {
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS, labels: { app: 'web' } },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] } } },
  };
  assert.match(await ok(['create', '-f', '-'], manifest(deployment)), /deployment.apps\/web created/);
  const wide = await ok(['get', 'deploy', 'web', '-n', NS, '-o', 'wide']);
  assert.match(wide, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx:1\s+app=web\n$/);
  assert.match(await ok(['scale', 'deployment', 'web', '-n', NS, '--replicas=3']), /deployment.apps\/web scaled/);
  assert.equal(await ok(['get', 'deploy', 'web', '-n', NS, '-o', 'jsonpath={.spec.replicas}']), '3');
  assert.match(await ok(['describe', 'deployment', 'web', '-n', NS]), /^Name:\s+web\nNamespace:\s+acc\n/);
});

void test('services', { skip }, async () => {
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc1', namespace: NS }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } };
  assert.match(await ok(['create', '-f', '-'], manifest(service)), /service\/svc1 created/);
  // type defaults to ClusterIP (the IP itself is allocated by a later issue's allocator).
  assert.match(await ok(['get', 'svc', 'svc1', '-n', NS]), /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nsvc1\s+ClusterIP\s+/);
});

void test('jobs', { skip }, async () => {
  const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j1', namespace: NS }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'j1', image: 'busybox', command: ['echo', 'hi'] }] } } } };
  assert.match(await ok(['create', '-f', '-'], manifest(job)), /job.batch\/j1 created/);
  assert.match(await ok(['get', 'jobs', '-n', NS]), /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\nj1\s+/);
  // The `all` category from discovery spans kinds and groups.
  const all = (await ok(['get', 'all', '-n', NS, '-o', 'name'])).split('\n');
  for (const n of ['deployment.apps/web', 'service/svc1', 'job.batch/j1']) assert.ok(all.includes(n), `${n} in ${all.join(' ')}`);
});

void test('--chunk-size, -l, --field-selector', { skip }, async () => {
  await ok(['create', '-f', '-'], manifest(...[0, 1, 2, 3, 4].map((i) => ({ ...cm(`chunk-${i}`, { i: String(i) }), metadata: { name: `chunk-${i}`, namespace: NS, labels: { chunk: 'yes' } } }))));
  await ok(['label', 'cm', '-n', NS, 'chunk-1', 'chunk-3', 'pick=yes']);
  const r = await k(['get', 'cm', '-n', NS, '--chunk-size=2', '-o', 'name', '-v=6']);
  assert.equal(r.code, 0, r.stderr);
  for (let i = 0; i < 5; i++) assert.ok(r.stdout.includes(`configmap/chunk-${i}\n`), r.stdout);
  assert.match(r.stderr, /configmaps\?continue=[^&\s]+&limit=2/, 'kubectl followed a continue token');
  assert.equal(await ok(['get', 'cm', '-n', NS, '-l', 'pick=yes', '-o', 'name']), 'configmap/chunk-1\nconfigmap/chunk-3\n');
  assert.equal(await ok(['get', 'cm', '-n', NS, '-l', 'pick!=yes,chunk', '-o', 'name']), 'configmap/chunk-0\nconfigmap/chunk-2\nconfigmap/chunk-4\n');
  assert.equal(await ok(['get', 'cm', '-n', NS, '--field-selector', 'metadata.name=chunk-2', '-o', 'name']), 'configmap/chunk-2\n');
  const bad = await k(['get', 'cm', '-n', NS, '--field-selector', 'spec.x=1']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /"spec\.x" is not a known field selector: only "metadata\.name", "metadata\.namespace"/);
});

void test('--dry-run=server writes nothing', { skip }, async () => {
  assert.match(await ok(['create', '-f', '-', '--dry-run=server'], manifest(cm('dry', { x: 'y' }))), /configmap\/dry created \(server dry run\)/);
  const g = await k(['get', 'cm', 'dry', '-n', NS]);
  assert.notEqual(g.code, 0);
  assert.match(g.stderr, /Error from server \(NotFound\): configmaps "dry" not found/);
  assert.match(await ok(['delete', 'cm', 'chunk-0', '-n', NS, '--dry-run=server']), /configmap "chunk-0" deleted \(server dry run\)/);
  assert.equal(await ok(['get', 'cm', 'chunk-0', '-n', NS, '-o', 'name']), 'configmap/chunk-0\n');
});

void test('get -w --output-watch-events sees a change', { skip }, async () => {
  const w = kubectlBackground(['get', 'configmaps', '-n', NS, '-w', '--output-watch-events', '-l', 'watched=yes', '-v=6'], { kubeconfig: kc });
  try {
    // -v=6 logs each request once its answer starts: the watch is open when its line appears.
    await w.waitFor(/configmaps\?.*watch=true.*200 OK/, 20_000, 'stderr');
    await ok(['create', '-f', '-'], manifest(cm('watched-1', { a: '1' })));
    await ok(['label', 'cm', 'watched-1', '-n', NS, 'watched=yes']);
    await w.waitFor(/ADDED\s+watched-1\s+1\s+\d+s/);
    await ok(['delete', 'cm', 'watched-1', '-n', NS]);
    await w.waitFor(/DELETED\s+watched-1\s+1\s+\d+s/);
  } finally {
    await w.stop();
  }
});

void test('create generators (typed clients send protobuf bodies)', { skip }, async () => {
  // kubectl 1.33's typed clientset sends application/vnd.kubernetes.protobuf for these.
  assert.match(await ok(['create', 'namespace', 'acc-gen']), /^namespace\/acc-gen created/);
  assert.match(await ok(['create', 'configmap', 'gen-cm', '-n', 'acc-gen', '--from-literal=a=b']), /^configmap\/gen-cm created/);
  assert.match(await ok(['create', 'secret', 'generic', 'gen-s', '-n', 'acc-gen', '--from-literal=k=v']), /^secret\/gen-s created/);
  assert.match(await ok(['create', 'deployment', 'gen-d', '-n', 'acc-gen', '--image=nginx:1', '--replicas=2']), /^deployment.apps\/gen-d created/);
  assert.match(await ok(['create', 'service', 'clusterip', 'gen-svc', '-n', 'acc-gen', '--tcp=80:8080']), /^service\/gen-svc created/);
  assert.match(await ok(['create', 'job', 'gen-j', '-n', 'acc-gen', '--image=busybox', '--', 'echo', 'hi']), /^job.batch\/gen-j created/);
  assert.equal(await ok(['get', 'cm', 'gen-cm', '-n', 'acc-gen', '-o', 'jsonpath={.data.a}']), 'b');
});

void test('delete several kinds', { skip }, async () => {
  assert.match(await ok(['delete', 'secret', 's1', '-n', NS]), /secret "s1" deleted/);
  assert.match(await ok(['delete', 'job', 'j1', '-n', NS]), /job.batch "j1" deleted/);
  assert.match(await ok(['delete', 'cm', 'chunk-4', '-n', NS]), /configmap "chunk-4" deleted/);
  const g = await k(['get', 'secret', 's1', '-n', NS]);
  assert.match(g.stderr, /secrets "s1" not found/);
});

void test('restart on the same data dir keeps every object', { skip }, async () => {
  const before = JSON.parse(await ok(['get', 'cm,deploy,svc,ns', '-A', '-o', 'json'])).items
    .map((i: any) => `${i.kind}/${i.metadata.namespace ?? ''}/${i.metadata.name}@${i.metadata.uid}`).sort();
  const code = await server!.stop('SIGTERM');
  assert.equal(code, 0, `graceful exit:\n${server!.output().slice(-2000)}`);
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: kc });
  const afterRestart = JSON.parse(await ok(['get', 'cm,deploy,svc,ns', '-A', '-o', 'json'])).items
    .map((i: any) => `${i.kind}/${i.metadata.namespace ?? ''}/${i.metadata.name}@${i.metadata.uid}`).sort();
  assert.deepEqual(afterRestart, before);
  assert.equal(await ok(['get', 'cm', 'cm1', '-n', NS, '-o', 'jsonpath={.data.a}']), 'replaced');
  // Writes keep working after the restart (revisions continue, no conflicts with old ones).
  assert.match(await ok(['label', 'cm', 'cm1', '-n', NS, 'after=restart']), /labeled/);
});

void test('deleting the namespace removes it and its content', { skip }, async () => {
  assert.match(await ok(['delete', 'namespace', NS, '--timeout=60s']), /namespace "acc" deleted/);
  const g = await k(['get', 'ns', NS]);
  assert.match(g.stderr, /namespaces "acc" not found/);
  assert.equal((await ok(['get', 'cm,deploy', '-n', NS, '-o', 'name'])).trim(), '');
});
