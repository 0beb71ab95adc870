/**
 * Acceptance: kubectl 1.33 against Pod Security admission. In a namespace labelled enforce=restricted,
 * `kubectl run` is refused with the message kube-apiserver sends and `kubectl create deployment` prints the
 * warning for its template; labelling a namespace with pods warns about them; a bad label is refused.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectl as run, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl Pod Security acceptance: ${skip}\n`);

let srv: TestServer;
before(async () => {
  if (skip) return;
  srv = await startTestServer();
});
after(async () => { await srv?.stop(); });

const k = (args: string[]): Promise<KubectlResult> => run(args, { kubeconfig: srv.kubeconfigPath });
const restricted = (c: string) => `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), `
  + `unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), `
  + `runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), `
  + `seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

async function ok(args: string[]): Promise<KubectlResult> {
  const r = await k(args);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r;
}

/** The label change reaches admission through the plugin's namespace informer: wait until a dry run is refused. */
async function enforced(ns: string): Promise<void> {
  const end = Date.now() + 10_000;
  while ((await srv.request('POST', `/api/v1/namespaces/${ns}/pods?dryRun=All`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe' }, spec: { containers: [{ name: 'c', image: 'x' }] } } })).status !== 403) {
    assert.ok(Date.now() < end, `enforce label on ${ns} not seen`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

void test('kubectl run in an enforce=restricted namespace is refused; kubectl create deployment warns', { skip }, async () => {
  await ok(['create', 'namespace', 'psa']);
  const label = await ok(['label', 'namespace', 'psa', 'pod-security.kubernetes.io/enforce=restricted']);
  assert.equal(label.stdout, 'namespace/psa labeled\n');
  assert.equal(label.stderr, '');
  await enforced('psa');

  const runPod = await k(['run', 'web', '--image=nginx', '-n', 'psa']);
  assert.equal(runPod.code, 1);
  assert.equal(runPod.stdout, '');
  assert.equal(runPod.stderr, `Error from server (Forbidden): pods "web" is forbidden: violates PodSecurity "restricted:latest": ${restricted('web')}\n`);

  const deploy = await ok(['create', 'deployment', 'web', '--image=nginx', '-n', 'psa']);
  assert.equal(deploy.stderr, `Warning: would violate PodSecurity "restricted:latest": ${restricted('nginx')}\n`);
  assert.equal(deploy.stdout, 'deployment.apps/web created\n');

  // A dry run meets the same refusal.
  const dry = await k(['run', 'web', '--image=nginx', '-n', 'psa', '--dry-run=server']);
  assert.equal(dry.code, 1);
  assert.match(dry.stderr, /^Error from server \(Forbidden\): pods "web" is forbidden: violates PodSecurity "restricted:latest": /);
});

void test('kubectl label: warnings for existing pods; an invalid level is refused', { skip }, async () => {
  await ok(['create', 'namespace', 'psa-existing']);
  await ok(['run', 'web', '--image=nginx', '-n', 'psa-existing']);
  await ok(['run', 'web2', '--image=nginx', '-n', 'psa-existing']);
  const label = await ok(['label', 'namespace', 'psa-existing', 'pod-security.kubernetes.io/enforce=baseline', 'pod-security.kubernetes.io/enforce-version=v1.33']);
  assert.equal(label.stderr, '');
  const tighten = await ok(['label', '--overwrite', 'namespace', 'psa-existing', 'pod-security.kubernetes.io/enforce=restricted']);
  assert.equal(tighten.stderr, [
    'Warning: existing pods in namespace "psa-existing" violate the new PodSecurity enforce level "restricted:v1.33"',
    'Warning: web (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    '',
  ].join('\n'));
  assert.equal(tighten.stdout, 'namespace/psa-existing labeled\n');

  const bad = await k(['label', '--overwrite', 'namespace', 'psa-existing', 'pod-security.kubernetes.io/warn=strict']);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, 'The Namespace "psa-existing" is invalid: metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "strict": must be one of privileged, baseline, restricted\n');
});
