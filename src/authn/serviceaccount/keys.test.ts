import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { algFor, keyId, loadServiceAccountKeys, parsePublicKeys, parseSigningKey } from './keys.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
const p521 = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const ed = generateKeyPairSync('ed25519');

const spkiPem = (k: typeof rsa.publicKey) => k.export({ type: 'spki', format: 'pem' }) as string;

void test('key ids are base64url(SHA-256(DER SPKI)) without padding, as kube computes them', () => {
  const pem = spkiPem(rsa.publicKey);
  // Independently of KeyObject.export: the DER is the PEM body.
  const der = Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const want = createHash('sha256').update(der).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  assert.equal(keyId(rsa.publicKey), want);
  assert.equal(want.length, 43);
});

void test('algorithms: RS256 for RSA, ES256/384/512 by curve, nothing for other key types', () => {
  assert.equal(algFor(rsa.publicKey), 'RS256');
  assert.equal(algFor(p256.publicKey), 'ES256');
  assert.equal(algFor(p384.publicKey), 'ES384');
  assert.equal(algFor(p521.publicKey), 'ES512');
  assert.equal(algFor(ed.publicKey), undefined);
});

void test('parsePublicKeys reads public keys, PKCS#1/SEC1/PKCS#8 private keys (their public part), several per file, and skips the rest', () => {
  const text = [
    '# a comment line',
    rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    p256.privateKey.export({ type: 'sec1', format: 'pem' }) as string,
    spkiPem(p384.publicKey),
    rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    ed.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n',
  ].join('\n');
  const keys = parsePublicKeys(text);
  assert.deepEqual(keys.map((k) => k.alg), ['RS256', 'ES256', 'ES384', 'RS256']);
  assert.equal(keys[0]!.kid, keyId(rsa.publicKey));
  assert.equal(keys[3]!.kid, keys[0]!.kid);
  assert.deepEqual(parsePublicKeys('not a pem'), []);
});

void test('parseSigningKey takes the first usable private key; public keys alone sign nothing', () => {
  const k = parseSigningKey(spkiPem(rsa.publicKey) + (p256.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string));
  assert.equal(k?.alg, 'ES256');
  assert.equal(k?.kid, keyId(p256.publicKey));
  assert.equal(parseSigningKey(spkiPem(rsa.publicKey)), undefined);
});

void test('zero-config: an RSA key is generated into the cert dir as sa.key/sa.pub and reused', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-sa-keys-'));
  try {
    const a = await loadServiceAccountKeys({ certDir: dir });
    assert.equal(a.signing.alg, 'RS256');
    assert.equal(a.signing.key.asymmetricKeyDetails?.modulusLength, 2048);
    const b = await loadServiceAccountKeys({ certDir: dir });
    assert.equal(b.signing.kid, a.signing.kid);
    assert.deepEqual(parsePublicKeys(readFileSync(path.join(dir, 'sa.pub'), 'utf8')).map((k) => k.kid), [a.signing.kid]);
    assert.deepEqual(a.verifying.map((k) => k.kid), [a.signing.kid]);
    writeFileSync(path.join(dir, 'sa.key'), 'garbage');
    await assert.rejects(loadServiceAccountKeys({ certDir: dir }), /does not hold an RSA or ECDSA private key/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('key files verify alongside the signing key (deduplicated); bad files fail by flag name', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-sa-keys-'));
  try {
    const signing = path.join(dir, 'signing.key');
    writeFileSync(signing, p256.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const pubs = path.join(dir, 'pubs.pem');
    writeFileSync(pubs, spkiPem(rsa.publicKey) + spkiPem(p256.publicKey));
    const keys = await loadServiceAccountKeys({ signingKeyFile: signing, keyFiles: [pubs] });
    assert.equal(keys.signing.alg, 'ES256');
    assert.deepEqual(keys.verifying.map((k) => k.kid), [keyId(rsa.publicKey), keyId(p256.publicKey)]);
    const empty = path.join(dir, 'empty.pem');
    writeFileSync(empty, 'nothing here');
    await assert.rejects(loadServiceAccountKeys({ signingKeyFile: signing, keyFiles: [empty] }), /--service-account-key-file: failed to parse .*empty\.pem: data does not contain any valid RSA or ECDSA public keys/);
    await assert.rejects(loadServiceAccountKeys({ signingKeyFile: pubs }), /--service-account-signing-key-file: failed to parse/);
    await assert.rejects(loadServiceAccountKeys({ signingKeyFile: path.join(dir, 'missing') }), /--service-account-signing-key-file: unable to read/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
