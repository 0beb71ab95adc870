// CertificateApproval, CertificateSigning, ClusterTrustBundleAttest, CertificateSubjectRestriction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { KObject } from '../../machinery/objects.ts';
import type { Attributes } from '../../request/authorizer.ts';
import { certificateApprovalPlugin, certificateSigningPlugin, certificateSubjectRestrictionPlugin, clusterTrustBundleAttestPlugin, csrSubject } from './certificates.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

x509.cryptoProvider.set(webcrypto as never);

async function csrRequest(name: string): Promise<string> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const req = await x509.Pkcs10CertificateRequestGenerator.create({ name, keys, signingAlgorithm: alg });
  return Buffer.from(req.toString('pem')).toString('base64');
}

const csr = (signerName: string, extra: Record<string, unknown> = {}): KObject => ({ metadata: { name: 'c' }, spec: { signerName, request: 'x', usages: ['client auth'] }, ...extra } as KObject);
const user = { username: 'bob', groups: ['system:authenticated'] };
/** Allows `verb` on signers named in `names`. */
const allow = (verb: string, ...names: string[]) => (a: Attributes) => (a.verb === verb && a.resource === 'signers' && a.apiGroup === 'certificates.k8s.io' && names.includes(a.name)
  ? { kind: 'allow' as const } : { kind: 'no-opinion' as const, reason: '' });

void test('CertificateApproval: approve on the signer or on its domain wildcard', async () => {
  const ctx = pluginContext({ authorize: allow('approve', 'example.com/*', 'kubernetes.io/kube-apiserver-client') });
  const plugin = certificateApprovalPlugin(ctx);
  const approve = (signer: string) => request({ operation: 'UPDATE', resource: 'certificatesigningrequests', subresource: 'approval', name: 'c', object: csr(signer), oldObject: csr(signer), user });
  await plugin.validate!(approve('kubernetes.io/kube-apiserver-client'));
  await plugin.validate!(approve('example.com/any'));
  assert.deepEqual(ctx.asked.slice(-2).map((a) => a.name), ['example.com/any', 'example.com/*']);
  const e = await refusal(plugin.validate!(approve('kubernetes.io/legacy-unknown')));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'certificatesigningrequests.certificates.k8s.io "c" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/legacy-unknown"');
  await plugin.validate!(request({ operation: 'UPDATE', resource: 'certificatesigningrequests', name: 'c', object: csr('x.io/y'), oldObject: csr('x.io/y'), user }));
});

void test('CertificateSigning: only a changed certificate or conditions need sign', async () => {
  const ctx = pluginContext({ authorize: allow('sign', 'example.com/signer') });
  const plugin = certificateSigningPlugin(ctx);
  const sign = (signer: string, status: Record<string, unknown>) => request({ operation: 'UPDATE', resource: 'certificatesigningrequests', subresource: 'status', name: 'c', object: csr(signer, { status }), oldObject: csr(signer), user });
  await plugin.validate!(sign('example.com/signer', { certificate: 'Y2VydA==' }));
  await plugin.validate!(sign('other.io/s', {}));
  const e = await refusal(plugin.validate!(sign('other.io/s', { certificate: 'Y2VydA==' })));
  assert.equal(e.message, 'certificatesigningrequests.certificates.k8s.io "c" is forbidden: user not permitted to sign requests with signerName "other.io/s"');
});

void test('ClusterTrustBundleAttest: attest on the signer, signerName frozen, nothing without the gate', async () => {
  const bundle = (signerName?: string): KObject => ({ metadata: { name: 'b' }, spec: { ...(signerName ? { signerName } : {}), trustBundle: 'x' } } as KObject);
  const off = clusterTrustBundleAttestPlugin(pluginContext());
  await off.validate!(request({ resource: 'clustertrustbundles', object: bundle('a.io/s'), user }));
  const plugin = clusterTrustBundleAttestPlugin(pluginContext({ gates: { ClusterTrustBundle: true }, authorize: allow('attest', 'a.io/s') }));
  await plugin.validate!(request({ resource: 'clustertrustbundles', object: bundle('a.io/s'), user }));
  await plugin.validate!(request({ resource: 'clustertrustbundles', object: bundle(), user }));
  assert.equal((await refusal(plugin.validate!(request({ resource: 'clustertrustbundles', object: bundle('b.io/s'), user })))).message,
    'clustertrustbundles.certificates.k8s.io "b" is forbidden: user not permitted to attest for signerName "b.io/s"');
  assert.equal((await refusal(plugin.validate!(request({ operation: 'UPDATE', resource: 'clustertrustbundles', name: 'b', object: bundle('a.io/s'), oldObject: bundle('a.io/t'), user })))).message,
    'clustertrustbundles.certificates.k8s.io "b" is forbidden: changing signerName is forbidden');
  // A no-op update of a bundle the user may not attest for passes (storage migration); a real change does not.
  await plugin.validate!(request({ operation: 'UPDATE', resource: 'clustertrustbundles', name: 'b', object: bundle('b.io/s'), oldObject: bundle('b.io/s'), user }));
  const changed = { ...bundle('b.io/s'), spec: { signerName: 'b.io/s', trustBundle: 'y' } } as KObject;
  assert.equal((await refusal(plugin.validate!(request({ operation: 'UPDATE', resource: 'clustertrustbundles', name: 'b', object: changed, oldObject: bundle('b.io/s'), user })))).code, 403);
});

void test('CertificateSubjectRestriction: no system:masters for kube-apiserver-client', async () => {
  const plugin = certificateSubjectRestrictionPlugin();
  const masters = await csrRequest('CN=eve,O=system:masters');
  assert.deepEqual(csrSubject(masters), { commonName: 'eve', organizations: ['system:masters'] });
  const e = await refusal(() => plugin.validate!(request({ resource: 'certificatesigningrequests', object: { metadata: { name: 'c' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: masters } } })));
  assert.equal(e.message, 'certificatesigningrequests.certificates.k8s.io "c" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
  await plugin.validate!(request({ resource: 'certificatesigningrequests', object: { metadata: { name: 'c' }, spec: { signerName: 'example.com/x', request: masters } } }));
  await plugin.validate!(request({ resource: 'certificatesigningrequests', object: { metadata: { name: 'c' }, spec: { signerName: 'kubernetes.io/kube-apiserver-client', request: await csrRequest('CN=al,O=devs') } } }));
});
