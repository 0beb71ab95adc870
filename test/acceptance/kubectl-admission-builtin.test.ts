/**
 * Acceptance: what kubectl 1.33 users meet from the default-on admission plugins — `kubectl run` gives a pod the
 * default service account, its kube-api-access volume and the 300 s tolerations; system namespaces refuse
 * deletion in kube's words; a missing PriorityClass is refused. Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const skip = findKubectl() ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl admission acceptance: ${skip}\n`);

let srv: TestServer | undefined;
const NS = 'kadm';

before(async () => {
  if (skip) return;
  srv = await startTestServer();
});
after(async () => {
  await srv?.stop();
});

const { k, ok } = kubectlFor(() => srv!.kubeconfigPath);

void test('kubectl run: default service account, kube-api-access volume and mount, 300 s tolerations, priority 0', { skip }, async () => {
  await ok(['create', 'namespace', NS]);
  assert.match(await ok(['run', 'web', '-n', NS, '--image=nginx', '--restart=Never']), /^pod\/web created/);
  const pod = JSON.parse(await ok(['get', 'pod', 'web', '-n', NS, '-o', 'json']));
  assert.equal(pod.spec.serviceAccountName, 'default');
  const volume = pod.spec.volumes.find((v: any) => v.name.startsWith('kube-api-access-'));
  assert.ok(volume, JSON.stringify(pod.spec.volumes));
  assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
  const tolerations = await ok(['get', 'pod', 'web', '-n', NS, '-o', 'jsonpath={range .spec.tolerations[*]}{.key}={.tolerationSeconds} {end}']);
  assert.equal(tolerations.trim(), 'node.kubernetes.io/not-ready=300 node.kubernetes.io/unreachable=300');
  assert.equal(await ok(['get', 'pod', 'web', '-n', NS, '-o', 'jsonpath={.spec.priority}/{.spec.preemptionPolicy}']), '0/PreemptLowerPriority');
});

void test('kubectl delete namespace kube-system and a pod naming a missing PriorityClass: kube\'s refusals', { skip }, async () => {
  const del = await k(['delete', 'namespace', 'kube-system']);
  assert.notEqual(del.code, 0);
  assert.equal(del.stderr.trim(), 'Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted');
  const run = await k(['run', 'urgent', '-n', NS, '--image=nginx', '--restart=Never', '--overrides={"spec":{"priorityClassName":"urgent"}}']);
  assert.notEqual(run.code, 0);
  assert.equal(run.stderr.trim(), 'Error from server (Forbidden): pods "urgent" is forbidden: no PriorityClass with name urgent was found');
});
