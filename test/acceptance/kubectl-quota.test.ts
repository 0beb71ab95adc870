/**
 * Acceptance: kubectl 1.33 and quotas. `kubectl create quota` gets a status from the controller, `kubectl
 * create` past the quota fails with the message kube-apiserver sends (kubectl prints it as "Error from server
 * (Forbidden): ..."), and `kubectl describe quota` shows used against hard. Skips (printing why) when no kubectl
 * is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl quota acceptance: ${skip}\n`);

let srv: TestServer;
before(async () => {
  if (skip) return;
  srv = await startTestServer();
});
after(async () => { await srv?.stop(); });

const { k, ok } = kubectlFor(() => srv.kubeconfigPath);

async function until(what: string, fn: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

void test('kubectl: quota exhaustion as kubectl prints it, and describe quota', { skip }, async () => {
  await ok(['create', 'namespace', 'team']);
  await ok(['create', 'quota', 'compute', '-n', 'team', '--hard=count/configmaps=2,pods=3,requests.cpu=1,requests.memory=1Gi']);
  await until('the quota status', async () => (await ok(['get', 'quota', 'compute', '-n', 'team', '-o', 'jsonpath={.status.used.pods}'])) === '0');
  // kube-root-ca.crt is the namespace's first ConfigMap; one more fits.
  await ok(['create', 'configmap', 'one', '-n', 'team', '--from-literal=a=b']);
  const r = await k(['create', 'configmap', 'two', '-n', 'team', '--from-literal=a=b']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'error: failed to create configmap: configmaps "two" is forbidden: exceeded quota: compute, '
    + 'requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2\n');

  const pod = (name: string, cpu?: string) => JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'team' },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', ...(cpu ? { resources: { requests: { cpu, memory: '100Mi' } } } : {}) }] },
  });
  const bare = await k(['apply', '-f', '-'], pod('bare'));
  assert.equal(bare.code, 1);
  assert.match(bare.stderr, /Error from server \(Forbidden\): error when creating "STDIN": pods "bare" is forbidden: failed quota: compute: must specify requests\.cpu for: app; requests\.memory for: app\n$/);
  await ok(['apply', '-f', '-'], pod('small', '600m'));
  const big = await k(['apply', '-f', '-'], pod('big', '600m'));
  assert.equal(big.code, 1);
  assert.match(big.stderr, /pods "big" is forbidden: exceeded quota: compute, requested: requests\.cpu=600m, used: requests\.cpu=600m, limited: requests\.cpu=1\n$/);

  const described = await ok(['describe', 'quota', 'compute', '-n', 'team']);
  // One tab-aligned table: the labels are padded to the widest resource name.
  assert.deepEqual(described.trimEnd().split('\n').map((l) => l.trim().split(/\s+/)), [
    ['Name:', 'compute'],
    ['Namespace:', 'team'],
    ['Resource', 'Used', 'Hard'],
    ['--------', '----', '----'],
    ['count/configmaps', '2', '2'],
    ['pods', '1', '3'],
    ['requests.cpu', '600m', '1'],
    ['requests.memory', '100Mi', '1Gi'],
  ]);
});
