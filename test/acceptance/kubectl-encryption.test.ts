/**
 * Acceptance: key rotation for encryption at rest as kube documents it, driven by kubectl: add the new key first,
 * let the server reload the file, rewrite every secret with `kubectl get secrets -A -o json | kubectl replace -f -`,
 * remove the old key, restart — everything still reads. Skips (printing why) when no kubectl is found.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

const skip = findKubectl() ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl encryption acceptance: ${skip}\n`);

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-enc-kubectl-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const cfg = path.join(dir, 'enc.yaml');
const dataDir = path.join(dir, 'data');
const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(32, 2).toString('base64');

function writeKeys(keys: [string, string][]): void {
  writeFileSync(cfg, `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}`).join('\n')}
      - identity: {}
`);
}

/** The stored prefix of each secret's current value, straight from the SQLite file. */
function storedPrefixes(): Map<string, string> {
  const db = new Database(path.join(dataDir, 'keelson.db'), { readonly: true });
  try {
    const rows = db.prepare("SELECT c.key AS key, l.value AS value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key LIKE '/registry/secrets/%'").all() as { key: string; value: Buffer }[];
    return new Map(rows.map((r) => [r.key, r.value.subarray(0, 'k8s:enc:aescbc:v1:key1:'.length).toString('latin1')]));
  } finally {
    db.close();
  }
}

void test('rotate the aescbc key with kubectl get | kubectl replace', { skip }, async () => {
  writeKeys([['key1', KEY1]]);
  let srv: TestServer = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: cfg, encryptionProviderConfigAutomaticReload: true, encryptionTuning: { resyncMs: 100 } });
  const kc = () => srv.kubeconfigPath;
  const { ok } = kubectlFor(kc, 60_000);
  try {
    await ok(['create', 'namespace', 'team-a']);
    await ok(['create', 'secret', 'generic', 's1', '--from-literal=password=hunter2']);
    await ok(['create', 'secret', 'generic', 's2', '-n', 'team-a', '--from-literal=token=abc']);
    assert.equal(storedPrefixes().get('/registry/secrets/default/s1'), 'k8s:enc:aescbc:v1:key1:');

    writeKeys([['key2', KEY2], ['key1', KEY1]]);
    await eventually('the new key writes', async () => {
      await ok(['create', 'secret', 'generic', `probe-${Date.now()}`, '--from-literal=x=y']);
      return [...storedPrefixes().values()].includes('k8s:enc:aescbc:v1:key2:');
    });
    const all = await ok(['get', 'secrets', '-A', '-o', 'json']);
    await ok(['replace', '-f', '-'], all);
    for (const [key, prefix] of storedPrefixes()) assert.equal(prefix, 'k8s:enc:aescbc:v1:key2:', `${key} rewritten with key2`);

    writeKeys([['key2', KEY2]]);
    await srv.stop();
    srv = await startTestServer({ storage: 'sqlite', dataDir, encryptionProviderConfig: cfg });
    assert.equal(Buffer.from(await ok(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']), 'base64').toString(), 'hunter2');
    assert.equal(Buffer.from(await ok(['get', 'secret', 's2', '-n', 'team-a', '-o', 'jsonpath={.data.token}']), 'base64').toString(), 'abc');
  } finally {
    await srv.stop();
  }
});
