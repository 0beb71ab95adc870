/**
 * Acceptance: kubectl 1.33's write paths that go through patches and field ownership, against a real server:
 * client-side `apply` (three-way with the last-applied annotation) repeated and edited, `apply --server-side`
 * with two managers, a conflict and `--force-conflicts`, `patch --type=strategic|merge|json`, `scale`, `edit`
 * with a scripted editor, and `diff` (exit 1 when different, 0 when same). managedFields are compared with what
 * kube-apiserver records for the same sequence (manager, operation, subresource, owned fields).
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findKubectl, kubectlFor, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl apply acceptance: ${skip}\n`);

let srv: TestServer | undefined;
let dir = '';
const NS = 'kapply';

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-kapply-'));
  srv = await startTestServer();
});
after(async () => {
  await srv?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const { k, ok } = kubectlFor(() => srv!.kubeconfigPath);

/** kubectl with extra environment (KUBE_EDITOR): the shared helper has no env option. */
function kEnv(args: string[], env: Record<string, string>): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const kc = srv!.kubeconfigPath;
    const child = spawn(bin!, ['--kubeconfig', kc, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, KUBECACHEDIR: path.join(path.dirname(kc), '.kube-cache') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`kubectl ${args.join(' ')} timed out`)); }, 30_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code: code ?? -1, stdout, stderr }); });
  });
}

async function getJson(kind: string, name: string): Promise<any> {
  return JSON.parse(await ok(['get', kind, name, '-n', NS, '-o', 'json', '--show-managed-fields']));
}

type Entry = { manager: string; operation: string; apiVersion: string; subresource?: string; fieldsV1: any; time?: string };
const entries = (obj: any): Entry[] => obj.metadata.managedFields ?? [];
const entry = (obj: any, manager: string, subresource = ''): Entry | undefined =>
  entries(obj).find((e) => e.manager === manager && (e.subresource ?? '') === subresource);

function deploymentYaml(o: { image: string; labels?: Record<string, string>; replicas?: number }): string {
  const labels = { app: 'web', ...(o.labels ?? {}) };
  return JSON.stringify({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS, labels },
    spec: {
      replicas: o.replicas ?? 1,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: o.image }] } },
    },
  });
}

void test('client-side apply: create, unchanged, configured; last-applied annotation; three-way removal', { skip }, async () => {
  await ok(['create', 'namespace', NS]);
  assert.match(await ok(['apply', '-f', '-'], deploymentYaml({ image: 'nginx:1', labels: { tier: 'front' } })), /^deployment\.apps\/web created/);
  let d = await getJson('deployment', 'web');
  const ann = d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'];
  assert.equal(JSON.parse(ann).spec.template.spec.containers[0].image, 'nginx:1');
  // kube records the create as an Update by kubectl-client-side-apply owning what the manifest set.
  const csa = entry(d, 'kubectl-client-side-apply')!;
  assert.equal(csa.operation, 'Update');
  assert.deepEqual(csa.fieldsV1['f:metadata']['f:annotations'], { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} });
  assert.deepEqual(csa.fieldsV1['f:metadata']['f:labels'], { '.': {}, 'f:app': {}, 'f:tier': {} });
  assert.deepEqual(csa.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}']['f:image'], {});

  assert.match(await ok(['apply', '-f', '-'], deploymentYaml({ image: 'nginx:1', labels: { tier: 'front' } })), /^deployment\.apps\/web unchanged/);
  // Edited: new image, label dropped from the manifest (three-way: removed on the server).
  assert.match(await ok(['apply', '-f', '-'], deploymentYaml({ image: 'nginx:2' })), /^deployment\.apps\/web configured/);
  d = await getJson('deployment', 'web');
  assert.equal(d.spec.template.spec.containers[0].image, 'nginx:2');
  assert.deepEqual(d.metadata.labels, { app: 'web' });
  assert.equal(d.metadata.generation, 2);
  assert.deepEqual(entries(d).map((e) => [e.manager, e.operation]), [['kubectl-client-side-apply', 'Update']]);
});

void test('patch --type=strategic|merge|json', { skip }, async () => {
  assert.match(await ok(['patch', 'deployment', 'web', '-n', NS, '--type=strategic', '-p',
    JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'side', image: 'busybox:1' }] } } } })]), /^deployment\.apps\/web patched/);
  let d = await getJson('deployment', 'web');
  // Merged by name, not replaced; a new item comes first (kube's docs: "Update API Objects in Place").
  assert.deepEqual(d.spec.template.spec.containers.map((c: any) => c.name), ['side', 'web']);
  assert.match(await ok(['patch', 'deployment', 'web', '-n', NS, '--type=merge', '-p', '{"metadata":{"labels":{"patched":"merge"}}}']), /patched/);
  assert.match(await ok(['patch', 'deployment', 'web', '-n', NS, '--type=json', '-p', '[{"op":"test","path":"/spec/template/spec/containers/0/name","value":"side"},{"op":"remove","path":"/spec/template/spec/containers/0"}]']), /patched/);
  d = await getJson('deployment', 'web');
  assert.equal(d.metadata.labels.patched, 'merge');
  assert.deepEqual(d.spec.template.spec.containers.map((c: any) => c.name), ['web']);
  const patcher = entry(d, 'kubectl-patch')!;
  assert.equal(patcher.operation, 'Update');
  assert.deepEqual(patcher.fieldsV1['f:metadata'], { 'f:labels': { 'f:patched': {} } });
  // A strategic patch that does not apply is refused with kube's message.
  const bad = await k(['patch', 'deployment', 'web', '-n', NS, '--type=strategic', '-p', '{"spec":{"replicas":"x"}}']);
  assert.notEqual(bad.code, 0);
});

void test('scale: spec.replicas owned through the scale sub-resource', { skip }, async () => {
  assert.match(await ok(['scale', 'deployment', 'web', '-n', NS, '--replicas=3']), /^deployment\.apps\/web scaled/);
  const d = await getJson('deployment', 'web');
  assert.equal(d.spec.replicas, 3);
  const scaler = entries(d).find((e) => e.subresource === 'scale')!;
  assert.ok(scaler, JSON.stringify(entries(d)));
  assert.match(scaler.manager, /^kubectl/);
  assert.deepEqual([scaler.operation, scaler.apiVersion, scaler.fieldsV1], ['Update', 'apps/v1', { 'f:spec': { 'f:replicas': {} } }]);
  assert.equal(entry(d, 'kubectl-client-side-apply')!.fieldsV1['f:spec']['f:replicas'], undefined, 'replicas moved to the scaler');
});

void test('edit with a scripted editor', { skip }, async () => {
  const editor = path.join(dir, 'editor.sh');
  writeFileSync(editor, '#!/bin/sh\nsed -i "s/nginx:2/nginx:3/" "$1"\n');
  chmodSync(editor, 0o755);
  const r = await kEnv(['edit', 'deployment', 'web', '-n', NS], { KUBE_EDITOR: editor, EDITOR: editor });
  assert.equal(r.code, 0, `${r.stderr}\n${r.stdout}`);
  assert.match(r.stdout, /^deployment\.apps\/web edited/, r.stderr);
  const d = await getJson('deployment', 'web');
  assert.equal(d.spec.template.spec.containers[0].image, 'nginx:3');
  const editEntry = entry(d, 'kubectl-edit')!;
  assert.equal(editEntry.operation, 'Update');
  assert.deepEqual(editEntry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}'], { 'f:image': {} });
});

void test('server-side apply: two managers, conflict, --force-conflicts', { skip }, async () => {
  const cm = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', namespace: NS }, data });
  assert.match(await ok(['apply', '--server-side', '--field-manager=one', '-f', '-'], cm({ a: '1', b: '1' })), /^configmap\/ssa serverside-applied/);
  assert.match(await ok(['apply', '--server-side', '--field-manager=two', '-f', '-'], cm({ b: '1', c: '2' })), /serverside-applied/);
  let c = await getJson('configmap', 'ssa');
  assert.deepEqual(entries(c).map((e) => [e.manager, e.operation, e.fieldsV1]).sort(), [
    ['one', 'Apply', { 'f:data': { 'f:a': {}, 'f:b': {} } }],
    ['two', 'Apply', { 'f:data': { 'f:b': {}, 'f:c': {} } }],
  ]);
  const conflict = await k(['apply', '--server-side', '--field-manager=two', '-f', '-'], cm({ a: '9', b: '1', c: '2' }));
  assert.equal(conflict.code, 1);
  assert.match(conflict.stderr, /Apply failed with 1 conflict: conflict with "one": \.data\.a/);
  assert.match(conflict.stderr, /--force-conflicts/);
  assert.match(await ok(['apply', '--server-side', '--field-manager=two', '--force-conflicts', '-f', '-'], cm({ a: '9', b: '1', c: '2' })), /serverside-applied/);
  c = await getJson('configmap', 'ssa');
  assert.equal(c.data.a, '9');
  assert.deepEqual(entry(c, 'one')!.fieldsV1, { 'f:data': { 'f:b': {} } });
  assert.deepEqual(entry(c, 'two')!.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {}, 'f:c': {} } });
  // one stops applying b: two still owns it, so it stays; one's entry goes away with its last field.
  assert.match(await ok(['apply', '--server-side', '--field-manager=one', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', namespace: NS } })), /serverside-applied/);
  c = await getJson('configmap', 'ssa');
  assert.deepEqual(c.data, { a: '9', b: '1', c: '2' });
  assert.equal(entry(c, 'one'), undefined);
});

void test('client-side apply then apply --server-side: kubectl migrates ownership without conflicts', { skip }, async () => {
  const cm = (v: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mig', namespace: NS }, data: { k: v } });
  assert.match(await ok(['apply', '-f', '-'], cm('1')), /^configmap\/mig created/);
  assert.match(await ok(['apply', '--server-side', '-f', '-'], cm('2')), /^configmap\/mig serverside-applied/);
  const c = await getJson('configmap', 'mig');
  assert.equal(c.data.k, '2');
  // kubectl's own follow-up apply keeps the annotation under kubectl-last-applied; the rest is kubectl's Apply.
  assert.equal(JSON.parse(c.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).data.k, '2');
  const mine = entries(c).find((e) => e.operation === 'Apply' && e.fieldsV1['f:data'])!;
  assert.deepEqual(mine.fieldsV1['f:data'], { 'f:k': {} });
  assert.equal(entries(c).some((e) => e.manager === 'kubectl-client-side-apply' && e.fieldsV1['f:data']), false, 'data moved to the server-side applier');
});

void test('diff: exit 0 when the same, 1 with a diff when different', { skip }, async () => {
  // Bring the last-applied configuration in line with the live object first.
  const manifest = deploymentYaml({ image: 'nginx:3', replicas: 3 });
  assert.match(await ok(['apply', '-f', '-'], manifest), /^deployment\.apps\/web configured/);
  const r0 = await k(['diff', '-f', '-'], manifest);
  assert.equal(r0.code, 0, `${r0.stderr}\n${r0.stdout}`);
  assert.equal(r0.stdout, '');
  const r1 = await k(['diff', '-f', '-'], manifest.replace('nginx:3', 'nginx:4'));
  assert.equal(r1.code, 1, `${r1.stderr}\n${r1.stdout}`);
  assert.match(r1.stdout, /^-\s+- image: nginx:3$/m);
  assert.match(r1.stdout, /^\+\s+- image: nginx:4$/m);
  // diff is a dry run: nothing changed.
  assert.equal((await getJson('deployment', 'web')).spec.template.spec.containers[0].image, 'nginx:3');
});
