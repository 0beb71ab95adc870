import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ensurePki, ADMIN_USER, ADMIN_GROUP } from './pki.ts';
import { buildKubeconfig, serverUrl, writeKubeconfig } from './kubeconfig.ts';
import { createCa, issue } from './certs.ts';
import { authenticateChain } from '../authn/x509.ts';

const files = ['ca.crt', 'ca.key', 'apiserver.crt', 'apiserver.key', 'admin.crt', 'admin.key'];

void test('first start creates the PKI in the data dir, later starts reuse it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-pki-'));
  try {
    const a = await ensurePki({ dataDir: dir, bindAddress: '127.0.0.1' });
    const first = files.map((f) => readFileSync(path.join(dir, f), 'utf8'));
    assert.equal(statSync(path.join(dir, 'ca.key')).mode & 0o777, 0o600);
    const ca = new X509Certificate(a.caPem);
    assert.equal(ca.ca, true);
    assert.ok(Date.parse(ca.validTo) - Date.now() > 9 * 365 * 86_400_000, 'CA valid ~10 years');
    const serving = new X509Certificate(a.servingCertPem);
    assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
    for (const san of ['DNS:localhost', 'DNS:kubernetes', 'DNS:kubernetes.default', 'DNS:kubernetes.default.svc', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1']) {
      assert.ok(serving.subjectAltName!.split(', ').includes(san), san);
    }
    const admin = authenticateChain([new X509Certificate(a.adminCertPem)], [ca]);
    assert.deepEqual(admin, { kind: 'authenticated', method: 'x509', user: { username: ADMIN_USER, groups: [ADMIN_GROUP] } });
    const b = await ensurePki({ dataDir: dir, bindAddress: '127.0.0.1' });
    assert.deepEqual(files.map((f) => readFileSync(path.join(dir, f), 'utf8')), first);
    assert.equal(b.adminCertPem, a.adminCertPem);
    // A new bind address re-issues only the serving certificate, from the same CA.
    const c = await ensurePki({ dataDir: dir, bindAddress: '10.1.2.3' });
    assert.equal(c.caPem, a.caPem);
    assert.equal(c.adminCertPem, a.adminCertPem);
    assert.notEqual(c.servingCertPem, a.servingCertPem);
    assert.ok(new X509Certificate(c.servingCertPem).subjectAltName!.includes('IP Address:10.1.2.3'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('memory mode: nothing on disk, one CA per process', async () => {
  const a = await ensurePki({ bindAddress: '127.0.0.1' });
  const b = await ensurePki({ bindAddress: '127.0.0.1' });
  assert.equal(a.caPem, b.caPem);
  assert.deepEqual(a.clientCaPems, [a.caPem]);
  assert.equal(a.serverCaPem, a.caPem);
});

void test('--tls-cert-file/--tls-private-key-file and --client-ca-file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-pki-'));
  try {
    const own = await createCa('corp');
    const leaf = await issue({ subject: { cn: 'api.corp' }, issuer: own, usage: 'server', dnsNames: ['api.corp'] });
    writeFileSync(path.join(dir, 'tls.crt'), leaf.certPem + own.certPem);
    writeFileSync(path.join(dir, 'tls.key'), leaf.keyPem);
    writeFileSync(path.join(dir, 'clients.crt'), own.certPem);
    const p = await ensurePki({ bindAddress: '127.0.0.1', tlsCertFile: path.join(dir, 'tls.crt'), tlsPrivateKeyFile: path.join(dir, 'tls.key'), clientCaFile: path.join(dir, 'clients.crt') });
    assert.equal(p.servingKeyPem, leaf.keyPem);
    assert.equal(p.serverCaPem.trim(), own.certPem.trim());
    assert.equal(p.clientCaPems.length, 2);
    await assert.rejects(ensurePki({ bindAddress: '127.0.0.1', clientCaFile: path.join(dir, 'missing.crt') }), /--client-ca-file: unable to read/);
    writeFileSync(path.join(dir, 'empty.crt'), 'nothing');
    await assert.rejects(ensurePki({ bindAddress: '127.0.0.1', clientCaFile: path.join(dir, 'empty.crt') }), /no certificate found/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('admin kubeconfig: cluster keelson with embedded CA and client cert, written 0600', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-kc-'));
  try {
    const text = buildKubeconfig({ server: 'https://127.0.0.1:6443', caPem: 'CA', certPem: 'CERT', keyPem: 'KEY' });
    const kc = parse(text);
    assert.equal(kc['current-context'], 'keelson');
    assert.equal(kc.clusters[0].name, 'keelson');
    assert.equal(kc.clusters[0].cluster.server, 'https://127.0.0.1:6443');
    assert.equal(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString(), 'CA');
    assert.equal(Buffer.from(kc.users[0].user['client-key-data'], 'base64').toString(), 'KEY');
    assert.deepEqual(kc.contexts[0], { name: 'keelson', context: { cluster: 'keelson', user: 'keelson-admin' } });
    const f = path.join(dir, 'sub', 'admin.kubeconfig');
    await writeKubeconfig(f, text);
    assert.equal(readFileSync(f, 'utf8'), text);
    assert.equal(statSync(f).mode & 0o777, 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('server URL: wildcard binds use loopback, IPv6 gets brackets', () => {
  assert.equal(serverUrl('127.0.0.1', 6443), 'https://127.0.0.1:6443');
  assert.equal(serverUrl('0.0.0.0', 1), 'https://127.0.0.1:1');
  assert.equal(serverUrl('::1', 2), 'https://[::1]:2');
  assert.equal(serverUrl('::', 3), 'https://[::1]:3');
});
