/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`): authentication from `bootstrap-token-<id>` Secrets in
 * kube-system with kube's rules, the token cleaner deleting expired ones, and the bootstrap signer's
 * detached JWS over cluster-info's kubeconfig.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { compactVerify } from 'jose';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus } from './helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'], enableBootstrapTokenAuth: true });
});
after(async () => {
  await srv?.stop();
});

async function bootstrapSecret(id: string, secret: string, data: Record<string, string> = {}, type = 'bootstrap.kubernetes.io/token', on: TestServer = srv) {
  const r = await on.request('POST', '/api/v1/namespaces/kube-system/secrets', {
    body: {
      apiVersion: 'v1', kind: 'Secret', type, metadata: { name: `bootstrap-token-${id}` },
      stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', ...data },
    },
  });
  assert.equal(r.status, 201, r.text);
}

const whoami = (token: string, on: TestServer = srv) => on.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
  user: { token }, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
});

void test('a valid bootstrap token authenticates as system:bootstrap:<id> with its sorted extra groups', async () => {
  await bootstrapSecret('abcdef', '0123456789abcdef', { 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:kubeadm:default-node-token' });
  const r = await whoami('abcdef.0123456789abcdef');
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().status.userInfo, {
    username: 'system:bootstrap:abcdef',
    groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:bootstrappers:worker', 'system:authenticated'],
  });
});

void test('wrong secret, expiry, missing usage, bad extra groups, wrong type and unknown ids are 401', async () => {
  const past = new Date(Date.now() - 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const future = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await bootstrapSecret('aaaaaa', 'aaaaaaaaaaaaaaaa');
  await bootstrapSecret('bbbbbb', 'bbbbbbbbbbbbbbbb', { expiration: past });
  await bootstrapSecret('cccccc', 'cccccccccccccccc', { 'usage-bootstrap-authentication': 'false' });
  await bootstrapSecret('dddddd', 'dddddddddddddddd', { 'auth-extra-groups': 'system:masters' });
  await bootstrapSecret('eeeeee', 'eeeeeeeeeeeeeeee', {}, 'Opaque');
  await bootstrapSecret('ffffff', 'ffffffffffffffff', { expiration: 'tomorrow' });
  await bootstrapSecret('gggggg', 'gggggggggggggggg', { expiration: future });
  assert.equal((await whoami('gggggg.gggggggggggggggg')).status, 201, 'an unexpired token works');
  for (const token of ['aaaaaa.aaaaaaaaaaaaaaab', 'bbbbbb.bbbbbbbbbbbbbbbb', 'cccccc.cccccccccccccccc', 'dddddd.dddddddddddddddd',
    'eeeeee.eeeeeeeeeeeeeeee', 'ffffff.ffffffffffffffff', 'zzzzzz.zzzzzzzzzzzzzzzz', 'AAAAAA.aaaaaaaaaaaaaaaa']) {
    assertStatus(await whoami(token), 401, 'Unauthorized', 'Unauthorized');
  }
});

void test('without --enable-bootstrap-token-auth the same token is 401', async () => {
  const off = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  try {
    await bootstrapSecret('hhhhhh', 'hhhhhhhhhhhhhhhh', {}, 'bootstrap.kubernetes.io/token', off);
    assertStatus(await whoami('hhhhhh.hhhhhhhhhhhhhhhh', off), 401, 'Unauthorized');
  } finally {
    await off.stop();
  }
});

void test('the token cleaner deletes expired bootstrap token secrets and keeps the others', async () => {
  const past = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await bootstrapSecret('expire', '0000000000000000', { expiration: past });
  await bootstrapSecret('keeper', '0000000000000000');
  await eventually('the expired secret to go', async () => ((await srv.request('GET', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-expire')).status === 404 ? true : undefined));
  assert.equal((await srv.request('GET', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-keeper')).status, 200);
});

void test('the bootstrap signer signs cluster-info for signing tokens (detached HS256 JWS keyed with the token) and drops stale signatures', async () => {
  const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://127.0.0.1:6443\n  name: ""\n';
  const cm = await srv.request('POST', '/api/v1/namespaces/kube-public/configmaps', {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info' }, data: { kubeconfig } },
  });
  assert.equal(cm.status, 201, cm.text);
  await bootstrapSecret('signer', 'ssssssssssssssss', { 'usage-bootstrap-signing': 'true' });
  const sig = await eventually('the signature', async () => {
    const data = (await srv.request('GET', '/api/v1/namespaces/kube-public/configmaps/cluster-info')).json().data;
    return data['jws-kubeconfig-signer'] as string | undefined;
  });
  // Verify as kubeadm does: the payload goes between the two periods; HS256 only.
  const [h, empty, s] = sig.split('.');
  assert.equal(empty, '');
  assert.deepEqual(JSON.parse(Buffer.from(h!, 'base64url').toString()), { alg: 'HS256', kid: 'signer' });
  const full = `${h}.${Buffer.from(kubeconfig).toString('base64url')}.${s}`;
  await compactVerify(full, new TextEncoder().encode('signer.ssssssssssssssss'), { algorithms: ['HS256'] });
  await assert.rejects(compactVerify(full, new TextEncoder().encode('signer.wrongwrongwrongw'), { algorithms: ['HS256'] }));
  // Tokens without usage-bootstrap-signing do not sign.
  const data = (await srv.request('GET', '/api/v1/namespaces/kube-public/configmaps/cluster-info')).json().data;
  assert.equal(data['jws-kubeconfig-abcdef'], undefined);

  assert.equal((await srv.request('DELETE', '/api/v1/namespaces/kube-system/secrets/bootstrap-token-signer')).status, 200);
  await eventually('the stale signature to go', async () => {
    const d = (await srv.request('GET', '/api/v1/namespaces/kube-public/configmaps/cluster-info')).json().data;
    return d['jws-kubeconfig-signer'] === undefined ? true : undefined;
  });
});
