/**
 * Encryption at rest (`--encryption-provider-config`): values on disk (SQLite file, etcd) carry kube's layout and no
 * plaintext; reads decrypt; key rotation as kube documents it; identity-first configurations read old encrypted
 * data; a missing key gives the corrupt-object errors; a malformed file refuses the start; a KMS v2 plugin answers
 * over a unix socket.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/index.ts';
import { decodeEncryptedObject } from '../../src/storage/value/kmsv2/proto.ts';
import { startEtcd, type EtcdProcess } from '../support/etcd.ts';
import { startFakeKmsPlugin } from '../support/kms-plugin.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

const SECRET_VALUE = 'correct-horse-battery-staple';
const SECRET_B64 = Buffer.from(SECRET_VALUE).toString('base64');
const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(32, 2).toString('base64');
const KEY3 = Buffer.alloc(32, 3).toString('base64');

let dir: string;
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'keelson-enc-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, providers: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
    providers:
${providers}`);
  return file;
}

const aescbc = (...keys: [string, string][]) => `      - aescbc:
          keys:
${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}`).join('\n')}
`;
const identity = '      - identity: {}\n';

const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: SECRET_B64 } });

/** Everything SQLite has on disk: the database and its write-ahead log. */
function sqliteBytes(dataDir: string): Buffer {
  const files = ['keelson.db', 'keelson.db-wal'].map((f) => path.join(dataDir, f)).filter((f) => existsSync(f));
  return Buffer.concat(files.map((f) => readFileSync(f)));
}

async function createSecret(srv: TestServer, name: string): Promise<void> {
  const r = await srv.request('POST', '/api/v1/namespaces/default/secrets', { body: secret(name) });
  assert.equal(r.status, 201, r.text);
}

async function readSecret(srv: TestServer, name: string): Promise<string> {
  const r = await srv.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
  assert.equal(r.status, 200, r.text);
  return Buffer.from(r.json().data.password as string, 'base64').toString();
}

void test('sqlite: aescbc on secrets keeps no plaintext on disk, reads decrypt, rotation, identity-first, missing key', async () => {
  const dataDir = path.join(dir, 'sqlite');
  const cfg = writeConfig('enc.yaml', aescbc(['key1', KEY1]) + identity);
  let srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: cfg, encryptionProviderConfigAutomaticReload: true, encryptionTuning: { resyncMs: 100 } });
  try {
    await createSecret(srv, 's1');
    const cm = await srv.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' }, data: { note: 'visible-config-value' } } });
    assert.equal(cm.status, 201);
    assert.equal(await readSecret(srv, 's1'), SECRET_VALUE);
    const disk = sqliteBytes(dataDir);
    assert.ok(!disk.includes(SECRET_B64), 'the secret data is not on disk in plaintext');
    assert.ok(!disk.includes(SECRET_VALUE));
    assert.ok(disk.includes('k8s:enc:aescbc:v1:key1:'), 'stored with kube\'s prefix');
    assert.ok(disk.includes('visible-config-value'), 'resources without a rule stay as they are');
    // list and watch decrypt too
    const list = await srv.request('GET', '/api/v1/namespaces/default/secrets');
    assert.equal(list.json().items.find((s: any) => s.metadata.name === 's1').data.password, SECRET_B64);

    // Rotation step 1: the new key goes first, the old one stays for reading; the file is reloaded.
    writeConfig('enc.yaml', aescbc(['key2', KEY2], ['key1', KEY1]) + identity);
    await eventually('reloaded config writes with key2', async () => {
      const name = `probe-${Date.now()}`;
      await createSecret(srv, name);
      return sqliteBytes(dataDir).includes('k8s:enc:aescbc:v1:key2:');
    });
    // Step 2: rewrite every secret (kubectl get secrets -A -o json | kubectl replace -f -).
    const all = (await srv.request('GET', '/api/v1/secrets')).json();
    for (const s of all.items) {
      const r = await srv.request('PUT', `/api/v1/namespaces/${s.metadata.namespace}/secrets/${s.metadata.name}`, { body: { ...s, apiVersion: 'v1', kind: 'Secret' } });
      assert.equal(r.status, 200, r.text);
    }
    // Step 3: the old key is removed; everything still reads.
    writeConfig('enc.yaml', aescbc(['key2', KEY2]) + identity);
    await srv.stop();
    srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: cfg });
    assert.equal(await readSecret(srv, 's1'), SECRET_VALUE);
    await srv.stop();

    // Decryption off: identity first, aescbc still listed, reads old data and writes plaintext.
    const idFirst = writeConfig('identity-first.yaml', identity + aescbc(['key2', KEY2]));
    srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: idFirst });
    assert.equal(await readSecret(srv, 's1'), SECRET_VALUE);
    await createSecret(srv, 'plain-now');
    assert.ok(sqliteBytes(dataDir).includes(SECRET_B64), 'identity first stores plaintext');
    await srv.stop();

    // The key is lost: the corrupt-object errors, never a crash.
    const lost = writeConfig('lost.yaml', aescbc(['key3', KEY3]));
    srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: lost });
    const get = await srv.request('GET', '/api/v1/namespaces/default/secrets/s1');
    assert.equal(get.status, 500);
    assert.equal(get.json().message, 'no matching key was found for the provided AES transformer');
    await srv.stop();
    srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: lost, featureGates: { AllowUnsafeMalformedObjectDeletion: true } });
    const get2 = await srv.request('GET', '/api/v1/namespaces/default/secrets/s1');
    assert.equal(get2.status, 500);
    assert.equal(get2.json().message, 'StorageError: corrupt object, Code: 7, Key: /registry/secrets/default/s1, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: no matching key was found for the provided AES transformer');
    const lst = await srv.request('GET', '/api/v1/namespaces/default/secrets');
    assert.equal(lst.status, 500);
    assert.equal(lst.json().reason, 'StoreReadError');
    const del = await srv.request('DELETE', '/api/v1/namespaces/default/secrets/s1', { body: { kind: 'DeleteOptions', apiVersion: 'v1', ignoreStoreReadErrorWithClusterBreakingPotential: true } });
    assert.equal(del.status, 200, del.text);
    assert.equal((await srv.request('GET', '/api/v1/namespaces/default/secrets/s1')).status, 404);
  } finally {
    await srv.stop();
  }
});

void test('a malformed encryption configuration refuses the start, naming the file and kube\'s message', async () => {
  const bad = writeConfig('bad.yaml', '      - aescbc:\n          keys:\n            - name: k\n              secret: c2hvcnQ=\n');
  await assert.rejects(startServer({ port: 0, encryptionProviderConfig: bad }), (e: Error) => {
    assert.equal(e.message, 'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]');
    return true;
  });
  const typo = path.join(dir, 'typo.yaml');
  writeFileSync(typo, 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - aescbcx: {}\n');
  await assert.rejects(startServer({ port: 0, encryptionProviderConfig: typo }), new RegExp(`error decoding encryption provider configuration file "${typo.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": strict decoding error: unknown field "resources\\[0\\].providers\\[0\\].aescbcx"`));
  const masked = path.join(dir, 'masked.yaml');
  writeFileSync(masked, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: ['*.*']\n    providers: [{identity: {}}]\n  - resources: [secrets]\n    providers: [{identity: {}}]\n`);
  await assert.rejects(startServer({ port: 0, encryptionProviderConfig: masked }), /error while building transformers: resource "secrets" is masked by earlier rule "\*\.\*"/);
  await assert.rejects(startServer({ port: 0, encryptionProviderConfig: path.join(dir, 'missing.yaml') }), /error reading encryption provider configuration file ".*missing.yaml": open .*missing.yaml: no such file or directory/);
});

void test('etcd: the raw value in etcd has kube\'s aescbc layout and no plaintext', async (t) => {
  const etcd: EtcdProcess | undefined = await startEtcd();
  if (!etcd) return t.skip('no etcd binary');
  const prefix = `/keelson-enc-${process.pid}`;
  const cfg = writeConfig('etcd.yaml', aescbc(['key1', KEY1]));
  const srv = await startTestServer({ storage: 'etcd', etcdServers: [etcd.endpoint], etcdPrefix: prefix, encryptionProviderConfig: cfg });
  const { Etcd3 } = await import('etcd3');
  const client = new Etcd3({ hosts: etcd.endpoint });
  try {
    await createSecret(srv, 'e1');
    const raw = await client.get(`${prefix}/secrets/default/e1`).buffer();
    assert.ok(raw, 'stored in etcd');
    assert.ok(raw.toString('latin1').startsWith('k8s:enc:aescbc:v1:key1:'));
    assert.ok(!raw.includes(SECRET_B64));
    assert.equal(await readSecret(srv, 'e1'), SECRET_VALUE);
    // A value written by kube-apiserver with the same configuration (its key layout and value layout, built here) reads back.
    const { AesCbcTransformer } = await import('../../src/storage/value/aes.ts');
    const body = Buffer.from(JSON.stringify({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 'from-kube', namespace: 'default', uid: '3f0d3b6e-8a1c-4b8e-9a57-0c3c5d2f0a11', creationTimestamp: '2024-01-01T00:00:00Z' }, data: { password: SECRET_B64 }, type: 'Opaque' }));
    const kubeValue = Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), new AesCbcTransformer(Buffer.from(KEY1, 'base64')).toStorage(body)]);
    await client.put(`${prefix}/secrets/default/from-kube`).value(kubeValue);
    await eventually('kube-written secret readable', async () => (await srv.request('GET', '/api/v1/namespaces/default/secrets/from-kube')).status === 200);
    assert.equal(await readSecret(srv, 'from-kube'), SECRET_VALUE);
  } finally {
    client.close();
    await srv.stop();
    await etcd.stop();
  }
});

void test('KMS v2: a plugin over a unix socket; values carry an EncryptedObject; key ID rotation; health checks', async () => {
  const sock = path.join(dir, 'kms.sock');
  const plugin = await startFakeKmsPlugin(sock);
  const file = path.join(dir, 'kms.yaml');
  writeFileSync(file, `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms:
          apiVersion: v2
          name: fake
          endpoint: unix://${sock}
          timeout: 3s
      - identity: {}
`);
  const dataDir = path.join(dir, 'kms-data');
  let srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: file, encryptionTuning: { kmsHealthyIntervalMs: 100, kmsUnhealthyIntervalMs: 100 } });
  try {
    await createSecret(srv, 'k1');
    await createSecret(srv, 'k2');
    assert.equal(plugin.calls.encrypt, 1, 'one seed for many writes');
    const disk = sqliteBytes(dataDir);
    assert.ok(!disk.includes(SECRET_B64));
    const at = disk.indexOf('k8s:enc:kms:v2:fake:');
    assert.ok(at >= 0, 'stored with the KMS v2 prefix');
    assert.equal(await readSecret(srv, 'k1'), SECRET_VALUE);
    const ready = await srv.request('GET', '/readyz/kms-providers');
    assert.equal(ready.status, 200, ready.text);
    assert.equal((await srv.request('GET', '/healthz?verbose=1')).text.includes('[+]kms-providers ok'), true);

    // The plugin moves to another key: a new seed is made for writes, old values still read.
    plugin.keyID = 'key-2';
    await eventually('new seed after the key ID changed', () => plugin.calls.encrypt >= 2);
    // The probe that asked for the seed sets it before the next Status call is made.
    const statusCalls = plugin.calls.status;
    await eventually('the probe with the new seed finished', () => plugin.calls.status > statusCalls);
    await createSecret(srv, 'k3');
    plugin.healthz = 'broken';
    await eventually('unhealthy plugin reported', async () => (await srv.request('GET', '/readyz/kms-providers')).status === 500);
    plugin.healthz = 'ok';
    await srv.stop();

    // A fresh server decrypts DEK sources through the plugin (nothing cached) and reads both key IDs.
    const decryptsBefore = plugin.calls.decrypt;
    srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: file });
    assert.equal(await readSecret(srv, 'k1'), SECRET_VALUE);
    assert.equal(await readSecret(srv, 'k3'), SECRET_VALUE);
    assert.ok(plugin.calls.decrypt > decryptsBefore);
  } finally {
    await srv.stop();
    await plugin.stop();
  }
  // The stored value: kube's prefix, then an EncryptedObject (protobuf) naming the plugin's key and the seed mode.
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path.join(dataDir, 'keelson.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT l.value AS value FROM log l JOIN current c ON c.rev = l.rev WHERE c.key = ?').get('/registry/secrets/default/k3') as { value: Buffer };
    const prefix = 'k8s:enc:kms:v2:fake:';
    assert.equal(row.value.subarray(0, prefix.length).toString(), prefix);
    const obj = decodeEncryptedObject(row.value.subarray(prefix.length));
    assert.equal(obj.keyID, 'key-2');
    assert.equal(obj.encryptedDEKSourceType, 1, 'HKDF_SHA256_XNONCE_AES_GCM_SEED');
    assert.deepEqual(Buffer.from(obj.annotations.get('kms.example.com')!).toString(), 'fake');
    assert.ok(obj.encryptedData.length > 32 + 12 + 16, 'info, nonce, ciphertext and tag');
    assert.ok(!Buffer.from(obj.encryptedData).includes(SECRET_B64));
  } finally {
    db.close();
  }
});
