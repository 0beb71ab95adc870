/**
 * API: structured authentication configuration (`--authentication-config`): several issuers with claim and
 * CEL mappings, claim/user validation rules ending in 401, the `anonymous` block limited to listed paths,
 * reload on file change (a bad file keeps the last good configuration), and start-time validation errors.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.ts';
import { startServer } from '../../src/index.ts';

let dir = '';
let cfgFile = '';
let a: TestOidcProvider;
let b: TestOidcProvider;
let srv: TestServer;
const logs: string[] = [];

async function eventually(f: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${what}: not within ${ms} ms\nlog:\n${logs.slice(-10).join('\n')}`);
}

function jwtFor(p: TestOidcProvider, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { issuer: { url: p.url, audiences: [p.audience], certificateAuthority: p.caPem }, claimMappings: { username: { claim: 'sub', prefix: `${new URL(p.url).port}:` } }, ...more };
}

function writeConfig(jwt: unknown[], anonymous?: unknown, file = cfgFile): void {
  // Written beside and renamed into place, as kubelet and editors do.
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthenticationConfiguration', jwt, ...(anonymous ? { anonymous } : {}) }));
  renameSync(tmp, file);
}

const whoami = async (token: string): Promise<{ status: number; user?: Record<string, unknown> }> => {
  const r = await srv.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    user: { token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return { status: r.status, user: r.status === 201 ? r.json().status.userInfo : undefined };
};

const anonymousBlock = { enabled: true, conditions: [{ path: '/livez' }, { path: '/version' }] };

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-authn-config-'));
  cfgFile = path.join(dir, 'authn.yaml');
  a = await startOidcProvider({ audience: 'aud-a' });
  b = await startOidcProvider({ audience: 'aud-b', ca: a.ca });
  writeConfig([
    jwtFor(a, {
      claimValidationRules: [{ expression: "claims.sub != 'blocked'", message: 'blocked' }],
      claimMappings: {
        username: { expression: "'a:' + claims.sub" },
        groups: { expression: "has(claims.teams) ? claims.teams.map(t, 'team:' + t) : []" },
        extra: [{ key: 'example.com/tenant', valueExpression: "has(claims.tenant) ? claims.tenant : ''" }],
      },
      userValidationRules: [{ expression: "!user.username.startsWith('a:system:')", message: 'no system users' }],
    }),
  ], anonymousBlock);
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'], authenticationConfigFile: cfgFile, log: (l) => logs.push(l) });
  const t = await a.token({ sub: 'ready' });
  await eventually(async () => (await whoami(t)).status === 201, 'issuer a ready');
});

after(async () => {
  await srv?.stop();
  await a?.stop();
  await b?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

void test('CEL mappings produce the user; failing claim and user validation rules are 401', async () => {
  const ok = await whoami(await a.token({ sub: 'jane', teams: ['x', 'y'], tenant: 'blue' }));
  assert.equal(ok.status, 201);
  assert.deepEqual(ok.user, { username: 'a:jane', groups: ['team:x', 'team:y', 'system:authenticated'], extra: { 'example.com/tenant': ['blue'] } });
  assert.equal((await whoami(await a.token({ sub: 'blocked' }))).status, 401);
  assert.equal((await whoami(await a.token({ sub: 'system:admin' }))).status, 401);
  // tokens of an issuer that is not configured (yet)
  assert.equal((await whoami(await b.token({ sub: 'bob' }))).status, 401);
});

void test('anonymous only for the listed paths', async () => {
  assert.equal((await srv.request('GET', '/livez', { user: 'anonymous' })).status, 200);
  assert.equal((await srv.request('GET', '/version', { user: 'anonymous' })).status, 200);
  assert.equal((await srv.request('GET', '/api', { user: 'anonymous' })).status, 401);
  assert.equal((await srv.request('GET', '/readyz', { user: 'anonymous' })).status, 401);
  // a bad token is still 401 on a listed path
  assert.equal((await srv.request('GET', '/livez', { user: { token: 'garbage' } })).status, 401);
});

void test('reload: a changed file takes effect, a bad or anonymous-changing file keeps the last good configuration', async () => {
  const tokenB = await b.token({ sub: 'bob' });
  writeConfig([jwtFor(a), jwtFor(b)], anonymousBlock);
  await eventually(async () => (await whoami(tokenB)).status === 201, 'issuer b after reload');
  assert.equal((await whoami(tokenB)).user?.username, `${new URL(b.url).port}:bob`);
  // issuer a now maps with its claim instead of CEL
  assert.equal((await whoami(await a.token({ sub: 'jane' }))).user?.username, `${new URL(a.url).port}:jane`);

  const reloaded = logs.filter((l) => l === 'reloaded authentication config').length;
  // invalid document: logged, previous configuration stays
  writeFileSync(cfgFile, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt:\n- issuer: {url: "http://x", audiences: []}\n');
  await eventually(async () => logs.some((l) => l.startsWith('failed to load authentication config') && l.includes('URL scheme must be https')), 'bad file logged');
  assert.equal((await whoami(tokenB)).status, 201);
  // anonymous may not change on reload
  writeConfig([jwtFor(a)], { enabled: false });
  await eventually(async () => logs.some((l) => l.includes('anonymous: Forbidden: changed from initial configuration file')), 'anonymous change refused');
  assert.equal((await whoami(tokenB)).status, 201);
  // removing issuer b (valid file) takes effect
  writeConfig([jwtFor(a)], anonymousBlock);
  await eventually(async () => (await whoami(tokenB)).status === 401, 'issuer b removed');
  assert.ok(logs.filter((l) => l === 'reloaded authentication config').length > reloaded);
});

void test('start: validation and decoding errors name the file and the fields', async () => {
  const bad = path.join(dir, 'bad.yaml');
  writeConfig([jwtFor(a), jwtFor(a, { claimMappings: { username: { claim: 'sub' } } })], undefined, bad);
  await assert.rejects(startServer({ authenticationConfigFile: bad }), {
    message: `invalid authentication configuration: [jwt[1].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing, jwt[1].issuer.url: Duplicate value: "${a.url}"]`,
  });
  writeFileSync(bad, 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration\njwt: []\nextra: 1\n');
  await assert.rejects(startServer({ authenticationConfigFile: bad }), {
    message: `failed to load authentication configuration from file ${JSON.stringify(bad)}: strict decoding error: unknown field "extra"`,
  });
  await assert.rejects(startServer({ authenticationConfigFile: path.join(dir, 'missing.yaml') }), /failed to load authentication configuration from file .*missing\.yaml.*ENOENT/);
  writeConfig([jwtFor(a, { issuer: { url: 'https://kubernetes.default.svc.cluster.local', audiences: ['x'] } })], undefined, bad);
  // the service account issuer, configured or defaulted, is not available to JWT authenticators
  await assert.rejects(startServer({ authenticationConfigFile: bad }),
    /jwt\[0\]\.issuer\.url: Invalid value: "https:\/\/kubernetes\.default\.svc\.cluster\.local": URL must not overlap with disallowed issuers: \[https:\/\/kubernetes\.default\.svc\.cluster\.local\]/);
  writeConfig([jwtFor(a, { issuer: { url: 'https://sa.example', audiences: ['x'] } })], undefined, bad);
  await assert.rejects(startServer({ authenticationConfigFile: bad, serviceAccounts: { issuers: ['https://sa.example', 'https://old.example'] } }),
    /URL must not overlap with disallowed issuers: \[https:\/\/old\.example https:\/\/sa\.example\]/);
  writeConfig([], { enabled: true }, bad);
  await assert.rejects(startServer({ authenticationConfigFile: bad, featureGates: { StructuredAuthenticationConfiguration: false } }),
    { message: 'set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file' });
});

void test('anonymous disabled by the file wins over --anonymous-auth', async () => {
  const f = path.join(dir, 'closed.yaml');
  writeConfig([], { enabled: false }, f);
  const s = await startTestServer({ authorizationMode: ['AlwaysDeny'], anonymousAuth: true, authenticationConfigFile: f });
  try {
    assert.equal((await s.request('GET', '/livez', { user: 'anonymous' })).status, 401);
  } finally {
    await s.stop();
  }
});
