/**
 * API: OpenID Connect through the `--oidc-*` options against a test provider (HTTPS, own CA): ID tokens
 * authenticate over HTTP and with kubectl `--token`, every kind of bad token is a 401 with kube's Unauthorized
 * Status and writes nothing, an untrusted provider CA leaves OIDC unusable, refused option combinations fail
 * the start with kube's wording.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { findKubectl, kubectl, kubectlMissingReason } from '../support/kubectl.ts';
import { startServer } from '../../src/index.ts';
import { createCa } from '../../src/controlplane/certs.ts';
import { readKubeJson } from '../support/kube-reference.ts';

const UNAUTHORIZED = readKubeJson('responses/errors/401-bad-token.json');

let dir = '';
let idp: TestOidcProvider;
let srv: TestServer;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-oidc-'));
  idp = await startOidcProvider();
  const caFile = path.join(dir, 'oidc-ca.crt');
  writeFileSync(caFile, idp.caPem);
  srv = await startTestServer({
    authorizationMode: ['AlwaysAllow'],
    oidc: { issuerUrl: idp.url, clientId: 'keelson', caFile, usernameClaim: 'email', groupsClaim: 'groups', groupsPrefix: 'oidc:', requiredClaims: { tenant: 'blue' } },
  });
  const good = await idp.token({ email: 'jane@example.com', tenant: 'blue' });
  // Discovery runs in the background.
  await eventually('OIDC authenticator ready', async () => (await srv.request('GET', '/api', { user: { token: good } })).status === 200);
});

after(async () => {
  await srv?.stop();
  await idp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const claims = { email: 'jane@example.com', email_verified: true, groups: ['dev', 'ops'], tenant: 'blue', jti: 'abc' };

void test('a valid ID token authenticates; SelfSubjectReview shows the mapped user', async () => {
  const token = await idp.token(claims);
  const r = await srv.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    user: { token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status.userInfo, {
    username: 'jane@example.com', groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'],
    extra: { 'authentication.kubernetes.io/credential-id': ['JTI=abc'] },
  });
});

void test('kubectl --token=<id_token> auth whoami', { skip: findKubectl() ? false : kubectlMissingReason() }, async () => {
  const kc = path.join(dir, 'token.kubeconfig');
  writeFileSync(kc, JSON.stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'k', cluster: { server: srv.url, 'certificate-authority-data': Buffer.from(srv.caPem).toString('base64') } }],
    users: [{ name: 'u', user: {} }],
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
  }));
  const token = await idp.token(claims);
  const r = await kubectl(['--token', token, 'auth', 'whoami', '-o', 'json'], { kubeconfig: kc });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status.userInfo.username, 'jane@example.com');
  const bad = await kubectl(['--token', await idp.token({ ...claims, aud: 'other' }), 'get', 'ns'], { kubeconfig: kc });
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /Unauthorized|provide credentials/);
});

void test('TokenReview reports an ID token\'s user; a bad one is not authenticated', async () => {
  const review = async (token: string): Promise<Record<string, any>> => {
    const r = await srv.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
    assert.equal(r.status, 201, r.text);
    return r.json().status;
  };
  const ok = await review(await idp.token(claims));
  assert.equal(ok.authenticated, true);
  assert.equal(ok.user.username, 'jane@example.com');
  assert.notEqual((await review(await idp.token({ ...claims, aud: 'nope' }))).authenticated, true);
});

const PYTHON = ((): string | undefined => {
  for (const bin of ['python3', '/usr/bin/python3']) {
    if (spawnSync(bin, ['-c', 'import kubernetes'], { timeout: 30_000 }).status === 0) return bin;
  }
  return undefined;
})();

void test('the Python client with an ID token as bearer token', { skip: PYTHON ? false : 'python kubernetes client not importable' }, async () => {
  const caFile = path.join(dir, 'server-ca.crt');
  writeFileSync(caFile, srv.caPem);
  const script = `
import json, sys
from kubernetes import client
c = client.Configuration()
c.host = sys.argv[1]
c.ssl_ca_cert = sys.argv[2]
c.api_key = {"authorization": "Bearer " + sys.argv[3]}
api = client.ApiClient(c)
v1 = client.CoreV1Api(api)
names = [n.metadata.name for n in v1.list_namespace().items]
r = client.AuthenticationV1Api(api).create_token_review(client.V1TokenReview(spec=client.V1TokenReviewSpec(token=sys.argv[3])))
c2 = client.Configuration()
c2.host = c.host
c2.ssl_ca_cert = c.ssl_ca_cert
c2.api_key = {"authorization": "Bearer " + sys.argv[4]}
try:
    client.CoreV1Api(client.ApiClient(c2)).list_namespace(_request_timeout=10)
    bad = "accepted"
except client.exceptions.ApiException as e:
    bad = e.status
print(json.dumps({"names": names, "user": r.status.user.username, "bad": bad}))
`;
  const token = await idp.token(claims);
  const expired = await idp.token({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 });
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(PYTHON!, ['-c', script, srv.url, caFile, token, expired], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('python: no exit within 60 s')); }, 60_000);
    child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`python exited ${code}: ${stderr}`));
    });
  });
  const r = JSON.parse(out);
  assert.ok(r.names.includes('default'));
  assert.equal(r.user, 'jane@example.com');
  assert.equal(r.bad, 401);
});

void test('security: bad tokens are 401 Unauthorized and write nothing', async () => {
  const now = Math.floor(Date.now() / 1000);
  const enc = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  const rogue = await idp.newKey();
  const good = (await idp.token(claims)).split('.');
  const cases: Record<string, string> = {
    expired: await idp.token({ ...claims, exp: now - 60, iat: now - 3600 }),
    'not yet valid': await idp.token({ ...claims, nbf: now + 3600 }),
    'forged signature': await idp.token(claims, { key: rogue }),
    'alg none': `${enc({ alg: 'none' })}.${enc({ ...claims, iss: idp.url, aud: 'keelson', exp: now + 600 })}.`,
    'tampered payload': `${good[0]}.${enc({ ...claims, email: 'admin@example.com', iss: idp.url, aud: 'keelson', exp: now + 600 })}.${good[2]}`,
    'wrong audience': await idp.token({ ...claims, aud: 'someone-else' }),
    'wrong issuer': await idp.token({ ...claims, iss: 'https://127.0.0.1:1/other' }),
    'missing required claim': await idp.token({ ...claims, tenant: undefined }),
    'email not verified': await idp.token({ ...claims, email_verified: false }),
    'missing username claim': await idp.token({ ...claims, email: undefined }),
  };
  for (const [name, token] of Object.entries(cases)) {
    const r = await srv.request('POST', '/api/v1/namespaces/default/configmaps', {
      user: { token }, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${name.replace(/ /g, '-')}` } },
    });
    assert.equal(r.status, 401, `${name}: ${r.text}`);
    assert.deepEqual(r.json(), UNAUTHORIZED, name);
    const check = await srv.request('GET', `/api/v1/namespaces/default/configmaps/cm-${name.replace(/ /g, '-')}`);
    assert.equal(check.status, 404, `${name}: object was written`);
  }
});

void test('a provider whose certificate the configured CA does not trust never authenticates', async () => {
  const other = await createCa('unrelated-ca');
  const caFile = path.join(dir, 'wrong-ca.crt');
  writeFileSync(caFile, other.certPem);
  const s = await startTestServer({ authorizationMode: ['AlwaysAllow'], oidc: { issuerUrl: idp.url, clientId: 'keelson', caFile, usernameClaim: 'email' } });
  try {
    // the server started although discovery fails; tokens are refused while it keeps retrying
    const r = await s.request('GET', '/api', { user: { token: await idp.token(claims) } });
    assert.equal(r.status, 401);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal((await s.request('GET', '/api', { user: { token: await idp.token(claims) } })).status, 401);
  } finally {
    await s.stop();
  }
});

void test('refused option combinations fail the start with kube\'s messages', async () => {
  const cfg = path.join(dir, 'authn.yaml');
  writeFileSync(cfg, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\njwt: []\n');
  await assert.rejects(startServer({ oidc: { issuerUrl: idp.url, clientId: 'x' }, authenticationConfigFile: cfg }),
    { message: 'authentication-config file and oidc-* flags are mutually exclusive' });
  await assert.rejects(startServer({ oidc: { issuerUrl: idp.url, clientId: '' } }),
    { message: 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set' });
  await assert.rejects(startServer({ oidc: { issuerUrl: 'http://idp.example', clientId: 'x' } }),
    { message: 'invalid authentication configuration: jwt[0].issuer.url: Invalid value: "http://idp.example": URL scheme must be https' });
  await assert.rejects(startServer({ oidc: { issuerUrl: idp.url, clientId: 'x', signingAlgs: ['HS256'] } }),
    { message: 'oidc: unsupported signing alg: "HS256"' });
});
