/**
 * Endpoints without a Table form. kube-apiserver offers `as=Table` only where the REST storage is a
 * TableConvertor (its AllowsMediaTypeTransform); reviews, bindings, pods/eviction, serviceaccounts/token and
 * certificatesigningrequests/approval are not, so a request that accepts nothing but a Table is refused by
 * output negotiation before anything happens: 406 with the handler's wording, written as indented JSON. A
 * Table clause followed by a plain type falls through to it (kubectl's usual Accept), and
 * PartialObjectMetadata stays available (a Status answer passes through untransformed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { startTestServer, type TestServer } from '../support/server.ts';
import { namespace } from './helpers.ts';

x509.cryptoProvider.set(webcrypto as never);

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const PARTIAL = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';
const NS = 'notable';
const NOT_ACCEPTABLE = {
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
  message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  reason: 'NotAcceptable', code: 406,
};

let srv: TestServer;

async function csrPem(): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=alice', keys, signingAlgorithm: alg });
  return req.toString('pem');
}

before(async () => {
  srv = await startTestServer();
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
  const sa = await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } });
  assert.equal(sa.status, 201, sa.text);
  for (const name of ['p1', 'p2', 'p3']) {
    const r = await srv.request('POST', `/api/v1/namespaces/${NS}/pods`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
    assert.equal(r.status, 201, r.text);
  }
  const csr = await srv.request('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', {
    body: {
      apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'alice' },
      spec: { request: Buffer.from(await csrPem()).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'] },
    },
  });
  assert.equal(csr.status, 201, csr.text);
});
after(async () => { await srv?.stop(); });

const ssar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } };

/** Each endpoint and a valid request body for it. */
function writes(): Array<{ method: string; path: string; body: unknown }> {
  return [
    { method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', body: ssar },
    { method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews', body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } } } },
    { method: 'POST', path: `/apis/authorization.k8s.io/v1/namespaces/${NS}/localsubjectaccessreviews`, body: { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: NS }, spec: { user: 'bob', resourceAttributes: { namespace: NS, verb: 'get', resource: 'pods' } } } },
    { method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: NS } } },
    { method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
    { method: 'POST', path: '/apis/authentication.k8s.io/v1/tokenreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'not-a-token' } } },
    { method: 'POST', path: `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} } },
    { method: 'POST', path: `/api/v1/namespaces/${NS}/pods/p1/binding`, body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n1' } } },
    { method: 'POST', path: `/api/v1/namespaces/${NS}/bindings`, body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p2' }, target: { kind: 'Node', name: 'n1' } } },
    { method: 'POST', path: `/api/v1/namespaces/${NS}/pods/p3/eviction`, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p3', namespace: NS } } },
  ];
}

void test('as=Table alone is 406 NotAcceptable for reviews, bindings, eviction and token requests, before anything is done', async () => {
  for (const w of writes()) {
    const r = await srv.request(w.method, w.path, { body: w.body, headers: { Accept: TABLE } });
    assert.equal(r.status, 406, `${w.path}: ${r.text}`);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.text, JSON.stringify(NOT_ACCEPTABLE, null, 2), w.path);
  }
  // Nothing was done: the pods are still unbound and not evicted.
  for (const name of ['p1', 'p2', 'p3']) {
    const pod = (await srv.request('GET', `/api/v1/namespaces/${NS}/pods/${name}`)).json();
    assert.equal(pod.spec.nodeName, undefined, name);
    assert.equal(pod.metadata.deletionTimestamp, undefined, name);
  }
});

void test('certificatesigningrequests/approval has no Table form either (its status and main resource do)', async () => {
  const approval = await srv.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice/approval', { headers: { Accept: TABLE } });
  assert.equal(approval.status, 406, approval.text);
  assert.equal(approval.json().message, NOT_ACCEPTABLE.message);
  const csr = (await srv.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice')).json();
  csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'ok' }] };
  const put = await srv.request('PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice/approval', { body: csr, headers: { Accept: TABLE } });
  assert.equal(put.status, 406, put.text);
  const still = (await srv.request('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice')).json();
  assert.equal(still.status?.conditions, undefined, 'not approved');
  for (const path of ['/apis/certificates.k8s.io/v1/certificatesigningrequests/alice', '/apis/certificates.k8s.io/v1/certificatesigningrequests/alice/status']) {
    const t = await srv.request('GET', path, { headers: { Accept: TABLE } });
    assert.equal(t.status, 200, t.text);
    assert.equal(t.json().kind, 'Table');
  }
});

void test('a Table clause followed by JSON falls through to JSON; the review is answered', async () => {
  const r = await srv.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { body: ssar, headers: { Accept: `${TABLE}, application/json` } });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.json().kind, 'SelfSubjectAccessReview');
  assert.equal(r.json().status.allowed, true);
  const token = await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }, headers: { Accept: `${TABLE}, application/json` },
  });
  assert.equal(token.status, 201, token.text);
  assert.ok(token.json().status.token);
});

void test('PartialObjectMetadata is still offered: a review answers its metadata, a binding its Status', async () => {
  const r = await srv.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { body: ssar, headers: { Accept: PARTIAL } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json(), { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { creationTimestamp: null } });
  const b = await srv.request('POST', `/api/v1/namespaces/${NS}/pods/p1/binding`, {
    body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p1' }, target: { kind: 'Node', name: 'n1' } }, headers: { Accept: PARTIAL },
  });
  assert.equal(b.status, 201, b.text);
  assert.deepEqual(b.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
});
