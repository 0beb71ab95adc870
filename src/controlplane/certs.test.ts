import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCa, issue, loadIssued } from './certs.ts';

const here = path.dirname(new URL(import.meta.url).pathname);

function openssl(args: string[]): string | undefined {
  try {
    return execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`openssl ${args.join(' ')}: ${String((err as { stderr?: string }).stderr ?? err)}`);
  }
}

void test('a CA and a serving leaf: fields, extensions and signature as Node reads them', async () => {
  const ca = await createCa('keelson-ca', 3650);
  const leaf = await issue({
    subject: { cn: 'kube-apiserver' }, issuer: ca, usage: 'server',
    dnsNames: ['localhost', 'kubernetes.default.svc'], ipAddresses: ['127.0.0.1', '::1', '10.96.0.1', 'fd00::10'], days: 365,
  });
  const c = new X509Certificate(ca.certPem);
  const l = new X509Certificate(leaf.certPem);
  assert.equal(c.subject, 'CN=keelson-ca');
  assert.equal(c.ca, true);
  assert.ok(c.verify(c.publicKey), 'the CA is self-signed');
  assert.equal(l.ca, false);
  assert.equal(l.issuer, 'CN=keelson-ca');
  assert.ok(l.checkIssued(c) && l.verify(c.publicKey));
  assert.deepEqual(l.subjectAltName!.split(', '), [
    'DNS:localhost', 'DNS:kubernetes.default.svc', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1', 'IP Address:10.96.0.1', 'IP Address:FD00:0:0:0:0:0:0:10',
  ]);
  assert.deepEqual(l.keyUsage, ['1.3.6.1.5.5.7.3.1'], 'serverAuth only');
  const days = (Date.parse(l.validTo) - Date.parse(l.validFrom)) / 86_400_000;
  assert.ok(days > 364 && days < 366, `365 days, got ${days}`);
  assert.ok(l.checkPrivateKey(createPrivateKey(leaf.keyPem)));
  assert.match(leaf.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
  assert.match(leaf.certPem, /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/);
  // A client certificate: organizations before the common name, clientAuth.
  const admin = await issue({ subject: { cn: 'kubernetes-admin', o: ['system:masters', 'team-a'] }, issuer: ca, usage: 'client' });
  const a = new X509Certificate(admin.certPem);
  assert.equal(a.subject, 'O=system:masters\nO=team-a\nCN=kubernetes-admin');
  assert.deepEqual(a.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  // Dates from 2050 are GeneralizedTime; before, UTCTime (Node reads both).
  const late = await issue({ subject: { cn: 'late' }, issuer: ca, notBefore: new Date('2049-12-31T23:59:59Z'), notAfter: new Date('2051-06-01T00:00:00Z') });
  assert.equal(new X509Certificate(late.certPem).validTo, 'Jun  1 00:00:00 2051 GMT');
  assert.equal(new X509Certificate(late.certPem).validFrom, 'Dec 31 23:59:59 2049 GMT');
});

void test('OpenSSL parses and verifies the chain (extensions, key identifiers)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-certs-'));
  try {
    const ca = await createCa('keelson-ca');
    const leaf = await issue({ subject: { cn: 'kube-apiserver' }, issuer: ca, usage: 'both', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    writeFileSync(path.join(dir, 'ca.crt'), ca.certPem);
    writeFileSync(path.join(dir, 'leaf.crt'), leaf.certPem);
    const verified = openssl(['verify', '-x509_strict', '-purpose', 'sslserver', '-CAfile', path.join(dir, 'ca.crt'), path.join(dir, 'leaf.crt')]);
    if (verified === undefined) return t.skip('no openssl binary');
    assert.match(verified, /leaf\.crt: OK/);
    const text = openssl(['x509', '-in', path.join(dir, 'leaf.crt'), '-noout', '-text'])!;
    assert.match(text, /Version: 3 \(0x2\)/);
    assert.match(text, /Signature Algorithm: ecdsa-with-SHA256/);
    assert.match(text, /X509v3 Basic Constraints: critical\s+CA:FALSE/);
    assert.match(text, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment/);
    assert.match(text, /X509v3 Extended Key Usage:\s+TLS Web Server Authentication, TLS Web Client Authentication/);
    const caText = openssl(['x509', '-in', path.join(dir, 'ca.crt'), '-noout', '-text'])!;
    assert.match(caText, /X509v3 Basic Constraints: critical\s+CA:TRUE/);
    assert.match(caText, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment, Certificate Sign/);
    const ski = /Subject Key Identifier:\s+([0-9A-F:]+)/.exec(caText)![1];
    assert.match(text, new RegExp(`Authority Key Identifier:\\s+(keyid:)?${ski}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a CA written by the previous issuer (@peculiar/x509) still signs leaves that chain', async (t) => {
  const ca = await loadIssued(readFileSync(path.join(here, 'testdata/peculiar-ca.crt'), 'utf8'), readFileSync(path.join(here, 'testdata/peculiar-ca.key'), 'utf8'));
  const leaf = await issue({ subject: { cn: 'kube-apiserver' }, issuer: ca, usage: 'server', dnsNames: ['localhost'] });
  assert.ok(new X509Certificate(leaf.certPem).verify(new X509Certificate(ca.certPem).publicKey));
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-certs-'));
  try {
    writeFileSync(path.join(dir, 'leaf.crt'), leaf.certPem);
    const verified = openssl(['verify', '-x509_strict', '-CAfile', path.join(here, 'testdata/peculiar-ca.crt'), path.join(dir, 'leaf.crt')]);
    if (verified === undefined) return t.skip('no openssl binary');
    assert.match(verified, /OK/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // A key that is not the certificate's is refused.
  const other = await createCa('other');
  await assert.rejects(loadIssued(ca.certPem, other.keyPem), /does not match/);
});

void test('TLS: a client trusting the CA reaches a server with the leaf, and presents a client certificate', async () => {
  const ca = await createCa('keelson-ca');
  const server = await issue({ subject: { cn: 'kube-apiserver' }, issuer: ca, usage: 'server', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  const client = await issue({ subject: { cn: 'alice', o: ['devs'] }, issuer: ca, usage: 'client' });
  const srv = https.createServer({ cert: server.certPem, key: server.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
    res.end(`${peer.subject.CN}/${String(peer.subject.O)}`);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  try {
    const port = (srv.address() as AddressInfo).port;
    const body = await new Promise<string>((resolve, reject) => {
      https.get({ host: '127.0.0.1', port, path: '/', ca: ca.certPem, cert: client.certPem, key: client.keyPem }, (res) => {
        let s = '';
        res.on('data', (d: Buffer) => (s += d));
        res.on('end', () => resolve(s));
      }).on('error', reject);
    });
    assert.equal(body, 'alice/devs');
  } finally {
    srv.close();
  }
});
