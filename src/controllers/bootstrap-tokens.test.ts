import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detachedSignature, SIGNING_KEY } from './bootstrap-tokens.ts';

// cluster-bootstrap/token/jws's own test vectors: the JWS construction (header, HS256, detached form) is kube's.
const content = 'Hello from the other side. I must have called a thousand times.';
const key = 'my voice is my passcode. my voice is my passcode';

void test('detached signatures match cluster-bootstrap\'s test vectors byte for byte', async () => {
  assert.equal(await detachedSignature(content, 'joshua', key), 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..SFoKn0-YxqnvpSExt4LuCZ_7pvIBdX3SoUO_NsTpkdg');
  assert.equal(await detachedSignature('', 'joshua', key), 'eyJhbGciOiJIUzI1NiIsImtpZCI6Impvc2h1YSJ9..kzZha466Sbz_vFhUBjjYp2rl3F7yHgdDdUIBGxQg4js');
});

void test('the signer keys signatures with the whole token, as the SPEC describes', () => {
  assert.equal(SIGNING_KEY('abcdef', '0123456789abcdef'), 'abcdef.0123456789abcdef');
});
