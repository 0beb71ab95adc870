/**
 * Acceptance: kubectl sees kube's defaults and rules. `kubectl create -f` a webhook configuration and
 * `get -o yaml` shows what kube's defaulters add; `kubectl get hpa.v1.autoscaling` shows the v2 behavior in kube's
 * annotation; a privileged pod is refused by the default --allow-privileged=false. Skips without kubectl.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { startKeelson, type KeelsonProcess } from './keelson-process.ts';

const skip = findKubectl() ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl defaults acceptance: ${skip}\n`);

let dir = '';
let kc = '';
let server: KeelsonProcess | undefined;
const { k, ok } = kubectlFor(() => kc);

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-acc-defaults-'));
  kc = path.join(dir, 'kc');
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: kc });
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const WEBHOOK = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: acc-hooks
webhooks:
- name: pods.acc.example.com
  clientConfig:
    service: {namespace: default, name: hooks}
  rules:
  - operations: [CREATE]
    apiGroups: [""]
    apiVersions: [v1]
    resources: [pods]
  sideEffects: None
  admissionReviewVersions: [v1]
`;

void test('kubectl create -f a webhook configuration; get -o yaml shows kube\'s defaults', { skip }, async () => {
  assert.match(await ok(['create', '-f', '-'], WEBHOOK), /validatingwebhookconfiguration.admissionregistration.k8s.io\/acc-hooks created/);
  const got = parseYaml(await ok(['get', 'validatingwebhookconfiguration', 'acc-hooks', '-o', 'yaml']));
  const w = got.webhooks[0];
  assert.equal(w.failurePolicy, 'Fail');
  assert.equal(w.matchPolicy, 'Equivalent');
  assert.deepEqual(w.namespaceSelector, {});
  assert.deepEqual(w.objectSelector, {});
  assert.equal(w.timeoutSeconds, 10);
  assert.equal(w.rules[0].scope, '*');
  assert.equal(w.clientConfig.service.port, 443);
  assert.equal(got.metadata.generation, 1);
});

void test('kubectl reads a v2 HPA through autoscaling/v1 with kube\'s behavior annotation', { skip }, async () => {
  await ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'acc-hpa', namespace: 'default' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3, behavior: { scaleUp: { selectPolicy: 'Min' } } },
  }));
  const v1 = parseYaml(await ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'acc-hpa', '-o', 'yaml']));
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.equal(v1.spec.targetCPUUtilizationPercentage, 80);
  assert.equal(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'],
    '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Min","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},'
    + '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}');
  assert.equal(v1.metadata.generation, undefined);
});

void test('kubectl run --privileged is refused by cluster policy', { skip }, async () => {
  const r = await k(['run', 'acc-priv', '--image=busybox', '--privileged', '--restart=Never']);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /Pod "acc-priv" is invalid: spec\.containers\[0\]\.securityContext\.privileged: Forbidden: disallowed by cluster policy/);
});
