/**
 * Shared bits of the API suites: one server per test file, object builders, Status assertions and the
 * kube-apiserver reference answers (test/fixtures/kube-v1.32/responses, found by test/support/kube-reference.ts).
 */
import assert from 'node:assert/strict';
import type { TestResponse } from '../support/server.ts';
import { kubeReference, readKubeJson, readKubeText } from '../support/kube-reference.ts';

/** The recorded kube-apiserver answers. */
export const REFERENCE_DIR = kubeReference('responses');

/** A recorded answer, parsed (a missing file throws). */
export function reference<T = any>(rel: string): T {
  return readKubeJson<T>('responses', rel);
}

export function referenceText(rel: string): string {
  return readKubeText('responses', rel);
}

export function configMap(name: string, data: Record<string, string> = { a: 'b' }, extra: { labels?: Record<string, string>; namespace?: string; finalizers?: string[] } = {}) {
  return {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name, ...(extra.namespace ? { namespace: extra.namespace } : {}), ...(extra.labels ? { labels: extra.labels } : {}), ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
    data,
  };
}

export function namespace(name: string) {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function deployment(name: string, replicas = 1) {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }] } },
    },
  };
}

/** Asserts a Kubernetes Status failure body with this code and reason; returns the parsed Status. */
export function assertStatus(r: TestResponse, code: number, reason: string, message?: string | RegExp): any {
  assert.equal(r.status, code, `expected ${code} ${reason}, got ${r.status}: ${r.text.slice(0, 500)}`);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  const s = r.json();
  assert.equal(s.kind, 'Status', r.text);
  assert.equal(s.apiVersion, 'v1');
  assert.equal(s.status, 'Failure');
  assert.equal(s.code, code);
  assert.equal(s.reason, reason, r.text);
  if (typeof message === 'string') assert.equal(s.message, message);
  else if (message) assert.match(s.message, message);
  return s;
}

/**
 * Compares a Status with a recorded kube-apiserver answer, field by field (uid and other per-run values are
 * passed in `substitute` as [recorded, ours] pairs applied to the reference text first).
 */
export function assertMatchesReference(r: TestResponse, file: string, substitute: Array<[string, string]> = []): void {
  let text = referenceText(`errors/${file}`);
  for (const [from, to] of substitute) text = text.split(from).join(to);
  const want = JSON.parse(text);
  assert.equal(r.status, want.code, r.text);
  assert.deepEqual(r.json(), want);
}
