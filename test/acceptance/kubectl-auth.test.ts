/**
 * Acceptance: kubectl 1.33's `auth` commands against the server started as a user starts it —
 * `auth whoami` (SelfSubjectReview), `auth can-i` (SelfSubjectAccessReview, also with `--as`),
 * `auth can-i --list` (SelfSubjectRulesReview) — under AlwaysAllow (the default) and AlwaysDeny.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findKubectl, kubectl as run, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { startKeelson, type KeelsonProcess } from './keelson-process.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl auth acceptance: ${skip}\n`);

let dir = '';
let allowKc = '';
let denyKc = '';
const servers: KeelsonProcess[] = [];

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-acc-auth-'));
  allowKc = path.join(dir, 'allow', 'kc');
  denyKc = path.join(dir, 'deny', 'kc');
  const [a, d] = await Promise.all([
    startKeelson({ dataDir: path.join(dir, 'allow', 'data'), kubeconfig: allowKc, extraArgs: ['--authorization-mode=AlwaysAllow'] }),
    startKeelson({ dataDir: path.join(dir, 'deny', 'data'), kubeconfig: denyKc, extraArgs: ['--authorization-mode=AlwaysDeny'] }),
  ]);
  servers.push(a, d);
});

after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const k = (kc: string, args: string[]): Promise<KubectlResult> => run(args, { kubeconfig: kc });

void test('auth whoami prints the admin user and its groups', { skip }, async () => {
  const r = await k(allowKc, ['auth', 'whoami']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
  assert.deepEqual(lines, [['ATTRIBUTE', 'VALUE'], ['Username', 'kubernetes-admin'], ['Groups', '[system:masters system:authenticated]']]);
  const j = JSON.parse((await k(allowKc, ['auth', 'whoami', '-o', 'json'])).stdout);
  assert.equal(j.kind, 'SelfSubjectReview');
  assert.equal(j.apiVersion, 'authentication.k8s.io/v1');
  assert.equal(j.status.userInfo.username, 'kubernetes-admin');
  // Impersonated: the review reports who the request runs as.
  const as = await k(allowKc, ['auth', 'whoami', '--as=someone', '--as-group=team']);
  assert.equal(as.code, 0, as.stderr);
  assert.match(as.stdout, /Username\s+someone/);
  assert.match(as.stdout, /Groups\s+\[team system:authenticated\]/);
});

void test('auth can-i: yes under AlwaysAllow, also --as someone; masters bypass AlwaysDeny; someone is refused there', { skip }, async () => {
  const yes = await k(allowKc, ['auth', 'can-i', 'create', 'pods']);
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(yes.stdout.trim(), 'yes');
  const as = await k(allowKc, ['auth', 'can-i', 'delete', 'nodes', '--as=someone']);
  assert.equal(as.code, 0, as.stderr);
  assert.equal(as.stdout.trim(), 'yes');
  const nonRes = await k(allowKc, ['auth', 'can-i', 'get', '/healthz']);
  assert.equal(nonRes.stdout.trim(), 'yes');
  const masters = await k(denyKc, ['auth', 'can-i', 'create', 'pods', '-n', 'kube-system']);
  assert.equal(masters.stdout.trim(), 'yes', masters.stderr);
  // Impersonating someone under AlwaysDeny: masters may impersonate, but someone may not even create the
  // review (kube answers the same 403).
  const no = await k(denyKc, ['auth', 'can-i', 'create', 'pods', '--as=someone']);
  assert.equal(no.code, 1, no.stderr);
  assert.match(no.stderr, /selfsubjectaccessreviews\.authorization\.k8s\.io is forbidden: User "someone" cannot create resource "selfsubjectaccessreviews" in API group "authorization\.k8s\.io" at the cluster scope: Everything is forbidden\./);
});

void test('auth can-i --list shows the rules the authorizers list', { skip }, async () => {
  const r = await k(allowKc, ['auth', 'can-i', '--list', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
  assert.deepEqual(rows[0], ['Resources', 'Non-Resource', 'URLs', 'Resource', 'Names', 'Verbs']);
  assert.deepEqual(rows.slice(1), [['*.*', '[]', '[]', '[*]'], ['[*]', '[]', '[*]']]);
  // AlwaysDeny lists nothing (system:masters' bypass lists no rules either, as in kube).
  const d = await k(denyKc, ['auth', 'can-i', '--list']);
  assert.equal(d.code, 0, d.stderr);
  assert.deepEqual(d.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/)), [['Resources', 'Non-Resource', 'URLs', 'Resource', 'Names', 'Verbs']]);
});

void test('auth whoami while impersonating: repeated --as-group values stay separate groups', { skip }, async () => {
  const r = await k(allowKc, ['auth', 'whoami', '-o', 'json', '--as=bob', '--as-group=a', '--as-group=b']);
  assert.equal(r.code, 0, r.stderr);
  const info = JSON.parse(r.stdout).status.userInfo;
  assert.equal(info.username, 'bob');
  assert.deepEqual(info.groups, ['a', 'b', 'system:authenticated']);
});
