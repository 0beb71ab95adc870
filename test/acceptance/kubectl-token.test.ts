/**
 * Acceptance: kubectl 1.33 with service account tokens against `keelson` started as a user starts it, under
 * RBAC — `kubectl create token` (TokenRequest), then the token used by kubectl (`--token=`): `auth whoami`,
 * a 403 until a RoleBinding grants access, issuer discovery through `get --raw`, and kube's errors.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { findKubectl, kubectl as run, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { readKubeconfig, startKeelson, type KeelsonProcess } from './keelson-process.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl token acceptance: ${skip}\n`);

let dir = '';
let adminKc = '';
/** Cluster and CA only: credentials come from `--token`. */
let bareKc = '';
let server: KeelsonProcess | undefined;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-acc-token-'));
  adminKc = path.join(dir, 'admin.kubeconfig');
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: adminKc, extraArgs: ['--authorization-mode=RBAC'] });
  const creds = readKubeconfig(adminKc);
  bareKc = path.join(dir, 'bare.kubeconfig');
  writeFileSync(bareKc, stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'bare',
    clusters: [{ name: 'keelson', cluster: { server: creds.server, 'certificate-authority-data': Buffer.from(creds.ca).toString('base64') } }],
    users: [{ name: 'nobody', user: {} }],
    contexts: [{ name: 'bare', context: { cluster: 'keelson', user: 'nobody', namespace: 'default' } }],
  }));
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const admin = (args: string[]): Promise<KubectlResult> => run(args, { kubeconfig: adminKc });
const withToken = (token: string, args: string[]): Promise<KubectlResult> => run([`--token=${token}`, ...args], { kubeconfig: bareKc });

function claimsOf(token: string): any {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
}

void test('kubectl create token mints a token kubectl can use: whoami, 403 until bound, then allowed', { skip }, async () => {
  const sa = await admin(['create', 'serviceaccount', 'robot']);
  assert.equal(sa.code, 0, sa.stderr);
  const created = await admin(['create', 'token', 'robot']);
  assert.equal(created.code, 0, created.stderr);
  const token = created.stdout.trim();
  const claims = claimsOf(token);
  assert.equal(claims.sub, 'system:serviceaccount:default:robot');
  assert.equal(claims.exp - claims.iat, 3600);

  const who = await withToken(token, ['auth', 'whoami']);
  assert.equal(who.code, 0, who.stderr);
  const rows = who.stdout.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
  assert.deepEqual(rows.slice(0, 3), [['ATTRIBUTE', 'VALUE'], ['Username', 'system:serviceaccount:default:robot'], ['UID', (await admin(['get', 'sa', 'robot', '-o', 'jsonpath={.metadata.uid}'])).stdout]]);
  assert.deepEqual(rows[3], ['Groups', '[system:serviceaccounts system:serviceaccounts:default system:authenticated]']);
  assert.deepEqual(rows[4], ['Extra: authentication.kubernetes.io/credential-id', `[JTI=${claims.jti}]`]);

  const denied = await withToken(token, ['get', 'pods']);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /pods is forbidden: User "system:serviceaccount:default:robot" cannot list resource "pods" in API group "" in the namespace "default"/);
  const bind = await admin(['create', 'rolebinding', 'robot-view', '--clusterrole=view', '--serviceaccount=default:robot']);
  assert.equal(bind.code, 0, bind.stderr);
  const allowed = await withToken(token, ['get', 'pods']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stderr, /No resources found in default namespace/);

  // Service accounts may read the issuer discovery documents (system:service-account-issuer-discovery).
  const disco = await withToken(token, ['get', '--raw', '/.well-known/openid-configuration']);
  assert.equal(disco.code, 0, disco.stderr);
  assert.equal(JSON.parse(disco.stdout).issuer, 'https://kubernetes.default.svc.cluster.local');
  const jwks = JSON.parse((await withToken(token, ['get', '--raw', '/openid/v1/jwks'])).stdout);
  assert.equal(jwks.keys[0].kid, JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid);
});

void test('kubectl create token --duration/--audience/--bound-object-kind, and kube\'s errors', { skip }, async () => {
  assert.equal((await admin(['create', 'serviceaccount', 'worker'])).code, 0);
  const custom = await admin(['create', 'token', 'worker', '--duration=10m', '--audience=vault', '--audience=https://kubernetes.default.svc.cluster.local']);
  assert.equal(custom.code, 0, custom.stderr);
  const c = claimsOf(custom.stdout.trim());
  assert.equal(c.exp - c.iat, 600);
  assert.deepEqual(c.aud, ['vault', 'https://kubernetes.default.svc.cluster.local']);
  assert.equal((await withToken(custom.stdout.trim(), ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).stdout, 'system:serviceaccount:default:worker');

  const secret = await admin(['create', 'secret', 'generic', 'anchor', '--from-literal=a=b']);
  assert.equal(secret.code, 0, secret.stderr);
  const bound = await admin(['create', 'token', 'worker', '--bound-object-kind=Secret', '--bound-object-name=anchor']);
  assert.equal(bound.code, 0, bound.stderr);
  assert.equal(claimsOf(bound.stdout.trim())['kubernetes.io'].secret.name, 'anchor');
  assert.equal((await admin(['delete', 'secret', 'anchor'])).code, 0);
  const revoked = await withToken(bound.stdout.trim(), ['auth', 'whoami']);
  assert.equal(revoked.code, 1);
  assert.match(revoked.stderr, /Unauthorized|must be logged in/);

  const missing = await admin(['create', 'token', 'ghost']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /error: failed to create token: serviceaccounts "ghost" not found/);
  const short = await admin(['create', 'token', 'worker', '--duration=1m']);
  assert.equal(short.code, 1);
  assert.match(short.stderr, /failed to create token: TokenRequest\.authentication\.k8s\.io "" is invalid: spec\.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes/);
});
