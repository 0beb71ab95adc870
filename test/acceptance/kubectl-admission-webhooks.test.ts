/**
 * Acceptance: admission webhooks as a kubectl 1.33 user meets them, against the server started as a user starts
 * it. Webhooks (HTTPS on 127.0.0.1, own CA) are registered with `kubectl apply`; a validating webhook's denial
 * is printed as kube-apiserver's; a mutating webhook's change is read back with `kubectl get`. Skips (printing
 * why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findKubectl, kubectl as run, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { startWebhookServer, type WebhookServer } from '../support/webhook-server.ts';
import { startKeelson, type KeelsonProcess } from './keelson-process.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl acceptance: ${skip}\n`);

type J = Record<string, any>;
let dir = '';
let kc = '';
let server: KeelsonProcess | undefined;
let wh: WebhookServer | undefined;

const b64 = (s: string): string => Buffer.from(s).toString('base64');

before(async () => {
  if (skip) return;
  wh = await startWebhookServer({
    handler(r) {
      const review = r.body as J;
      const req = review.request ?? {};
      const response: J = { uid: req.uid, allowed: true };
      if (r.path.startsWith('/deny')) {
        Object.assign(response, { allowed: false, status: { code: 403, reason: 'Forbidden', message: `configmap ${req.name} carries deny=yes` } });
      } else if (r.path.startsWith('/inject')) {
        const labels = { ...(req.object?.metadata?.labels ?? {}), injected: 'by-webhook' };
        Object.assign(response, { patchType: 'JSONPatch', patch: b64(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: labels }])) });
      }
      return { body: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response } };
    },
  });
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-acc-webhooks-'));
  kc = path.join(dir, 'kc');
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: kc });
});

after(async () => {
  await server?.stop();
  await wh?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const k = (args: string[], input?: string): Promise<KubectlResult> => run(args, { kubeconfig: kc, ...(input !== undefined ? { input } : {}) });

async function ok(args: string[], input?: string): Promise<string> {
  const r = await k(args, input);
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

function configurations(): string {
  const hook = (name: string, p: string, label: string): J => ({
    name, clientConfig: { url: `${wh!.url}${p}`, caBundle: b64(wh!.ca.certPem) }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { [label]: 'yes' } },
  });
  return [
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'acc-deny' }, webhooks: [hook('deny.acc.example.com', 'deny', 'deny')] },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'acc-inject' }, webhooks: [hook('inject.acc.example.com', 'inject', 'inject')] },
  ].map((o) => JSON.stringify(o)).join('\n---\n');
}

/** Retries `attempt` until it passes: a configuration applies once the server's watch delivered it. */
async function soon(attempt: () => Promise<void>): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

void test('kubectl: a webhook denial is printed as kube prints it; a mutated object is read back', { skip }, async () => {
  const applied = await ok(['apply', '-f', '-'], configurations());
  assert.match(applied, /validatingwebhookconfiguration.admissionregistration.k8s.io\/acc-deny created/);
  assert.match(applied, /mutatingwebhookconfiguration.admissionregistration.k8s.io\/acc-inject created/);

  await soon(async () => {
    const r = await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'refused', namespace: 'default', labels: { deny: 'yes' } }, data: { a: 'b' } }));
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /Error from server \(Forbidden\): error when creating "STDIN": admission webhook "deny.acc.example.com" denied the request: configmap refused carries deny=yes/);
  });
  const gone = await k(['get', 'configmap', 'refused', '-n', 'default']);
  assert.notEqual(gone.code, 0);
  assert.match(gone.stderr, /configmaps "refused" not found/);

  await soon(async () => {
    const name = `injected-${Date.now()}`;
    await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { inject: 'yes' } }, data: { a: 'b' } }));
    const labels = JSON.parse(await ok(['get', 'configmap', name, '-n', 'default', '-o', 'jsonpath={.metadata.labels}']));
    assert.deepEqual(labels, { inject: 'yes', injected: 'by-webhook' });
  });
});
