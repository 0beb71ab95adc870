import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { publicKeyFingerprint, trustMismatches, type TrustFingerprints } from './replica-check.ts';

const base: TrustFingerprints = {
  serviceAccountSigningKey: 'sha256:aaaa', serviceAccountVerifyingKeys: ['sha256:aaaa'], clientCAs: ['sha256:ca01'], servingCA: 'sha256:ca01',
};

void test('identical trust material agrees', () => {
  assert.deepEqual(trustMismatches(base, { ...base }), []);
});

void test('a different signing key is a mismatch unless each side accepts the other\'s (key rotation)', () => {
  const other = { ...base, serviceAccountSigningKey: 'sha256:bbbb', serviceAccountVerifyingKeys: ['sha256:bbbb'] };
  const [problem, ...rest] = trustMismatches(base, other);
  assert.deepEqual(rest, []);
  assert.match(problem!, /^service account signing key differs: this server signs tokens with sha256:aaaa, which the other server does not accept \(it signs with sha256:bbbb\)$/);
  // The other accepts ours but we do not accept theirs.
  assert.match(trustMismatches(base, { ...other, serviceAccountVerifyingKeys: ['sha256:aaaa', 'sha256:bbbb'] })[0]!, /^service account keys differ: the other server signs tokens with sha256:bbbb/);
  const rotating = { ...base, serviceAccountVerifyingKeys: ['sha256:aaaa', 'sha256:bbbb'] };
  assert.deepEqual(trustMismatches(rotating, { ...other, serviceAccountVerifyingKeys: ['sha256:aaaa', 'sha256:bbbb'] }), []);
});

void test('client CAs must be the same set; the serving CA the same', () => {
  const problems = trustMismatches(base, { ...base, clientCAs: ['sha256:ca02'], servingCA: 'sha256:ca02' });
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /^client CA differs: this server trusts sha256:ca01, the other sha256:ca02/);
  assert.match(problems[1]!, /^serving CA differs/);
});

void test('a key pair\'s private and public halves have one fingerprint', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  assert.equal(publicKeyFingerprint(privateKey), publicKeyFingerprint(publicKey));
  assert.match(publicKeyFingerprint(publicKey), /^sha256:[0-9a-f]{64}$/);
});
