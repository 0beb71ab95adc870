/**
 * Acceptance: what `kubectl get -o json` prints for an object created with its keys out of order and with
 * non-canonical quantities — kubectl prints the server's object with every map's keys sorted, so the output is
 * the one kube-apiserver's object gives: zero-valued fields present, quantities canonical, empty maps gone.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findKubectl, kubectl as run, kubectlMissingReason } from '../support/kubectl.ts';
import { startKeelson, type KeelsonProcess } from './keelson-process.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl canonical-output acceptance: ${skip}\n`);

let dir = '';
let kc = '';
let server: KeelsonProcess | undefined;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(path.join(tmpdir(), 'keelson-canon-'));
  kc = path.join(dir, 'kc');
  server = await startKeelson({ dataDir: path.join(dir, 'data'), kubeconfig: kc });
});

after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function ok(args: string[], input?: string): Promise<string> {
  const r = await run(args, { kubeconfig: kc, ...(input !== undefined ? { input } : {}) });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}):\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

void test('kubectl get -o json of a ReplicationController: kube\'s fields and values', { skip }, async () => {
  const rc = {
    status: {},
    spec: {
      template: { spec: { containers: [{ resources: { limits: { memory: '0.5Gi', cpu: '0.5' } }, image: 'busybox', name: 'c' }] }, metadata: { labels: { z: '1', app: 'rc1' } } },
      selector: { z: '1', app: 'rc1' }, replicas: 1,
    },
    metadata: { annotations: {}, name: 'rc1', namespace: 'default' }, kind: 'ReplicationController', apiVersion: 'v1',
  };
  await ok(['create', '-f', '-'], JSON.stringify(rc));
  const text = await ok(['get', 'rc', 'rc1', '-n', 'default', '-o', 'json']);
  const out = JSON.parse(text);
  assert.deepEqual(Object.keys(out), ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  assert.deepEqual(Object.keys(out.metadata), ['creationTimestamp', 'generation', 'labels', 'name', 'namespace', 'resourceVersion', 'uid']);
  assert.deepEqual(out.status, { replicas: 0 });
  assert.deepEqual(out.metadata.labels, { app: 'rc1', z: '1' });
  const c = out.spec.template.spec.containers[0];
  assert.deepEqual(c.resources, { limits: { cpu: '500m', memory: '512Mi' } });
  assert.deepEqual(out.spec.template.metadata, { creationTimestamp: null, labels: { app: 'rc1', z: '1' } });
  assert.ok(text.includes('"replicas": 0'), 'printed, not dropped');
});
