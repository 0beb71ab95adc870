/**
 * The command line as a user types it: `--oidc-*` and `--requestheader-*` flags reach the authenticators
 * (kubectl `--token` with an ID token, a proxy certificate asserting a user), and `--authentication-config`
 * together with `--oidc-*` stops the start with kube's message and exit code 1.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startKeelson, readKubeconfig, REPO_ROOT, type KeelsonProcess } from '../acceptance/keelson-process.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { createCa, issue, type Issued } from '../../src/controlplane/certs.ts';

let dir = '';
let idp: TestOidcProvider;
let proc: KeelsonProcess | undefined;
let proxy: Issued;

function call(o: { token?: string; cert?: Issued; headers?: Record<string, string> }): Promise<{ status: number; body: any }> {
  const creds = readKubeconfig(proc!.kubeconfig);
  const u = new URL('/apis/authentication.k8s.io/v1/selfsubjectreviews', creds.server);
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const req = https.request({
      method: 'POST', hostname: u.hostname, port: u.port, path: u.pathname, ca: creds.ca, servername: 'localhost', agent: false, headers,
      cert: o.cert?.certPem, key: o.cert?.keyPem,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-oidc-cli-'));
  idp = await startOidcProvider();
  const oidcCa = path.join(dir, 'oidc-ca.crt');
  writeFileSync(oidcCa, idp.caPem);
  const proxyCa = await createCa('front-proxy-ca');
  proxy = await issue({ subject: { cn: 'front-proxy-client' }, issuer: proxyCa, usage: 'client' });
  const proxyCaFile = path.join(dir, 'proxy-ca.crt');
  writeFileSync(proxyCaFile, proxyCa.certPem);
  proc = await startKeelson({
    dataDir: path.join(dir, 'data'), kubeconfig: path.join(dir, 'kc'),
    extraArgs: [
      '--authorization-mode=AlwaysAllow', `--oidc-issuer-url=${idp.url}`, '--oidc-client-id=keelson', `--oidc-ca-file=${oidcCa}`,
      '--oidc-username-claim=email', '--oidc-groups-claim=groups', '--oidc-groups-prefix=oidc:', '--oidc-required-claim=tenant=blue',
      `--requestheader-client-ca-file=${proxyCaFile}`, '--requestheader-username-headers=X-Remote-User', '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-allowed-names=front-proxy-client',
    ],
  });
});

after(async () => {
  await proc?.stop();
  await idp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

void test('--oidc-* flags: an ID token authenticates, a token missing the required claim does not', async () => {
  const token = await idp.token({ email: 'jane@example.com', groups: ['dev'], tenant: 'blue' });
  let r = await call({ token });
  for (let i = 0; i < 200 && r.status !== 201; i++) {
    await new Promise((res) => setTimeout(res, 50)); // discovery runs in the background
    r = await call({ token });
  }
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.status.userInfo.username, 'jane@example.com');
  assert.deepEqual(r.body.status.userInfo.groups, ['oidc:dev', 'system:authenticated']);
  assert.equal((await call({ token: await idp.token({ email: 'jane@example.com' }) })).status, 401);
});

void test('--requestheader-* flags: the proxy certificate asserts the user; without it the headers are ignored', async () => {
  const headers = { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team' };
  const r = await call({ cert: proxy, headers });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.status.userInfo.username, 'alice');
  assert.equal((await call({ headers })).status, 401);
});

void test('--authentication-config with --oidc-* flags: exit 1 with kube\'s message', async () => {
  const cfg = path.join(dir, 'authn.yaml');
  writeFileSync(cfg, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n');
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/keelson.mjs'), '--secure-port=0', `--data-dir=${path.join(dir, 'd2')}`,
    `--authentication-config=${cfg}`, `--oidc-issuer-url=${idp.url}`, '--oidc-client-id=x'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  clearTimeout(timer);
  assert.equal(code, 1, err);
  assert.match(err, /Error: authentication-config file and oidc-\* flags are mutually exclusive/);
});
