/**
 * A restarted server serves the CRDs (and their objects) it stored before, as soon as it answers requests:
 * the CRD controller's initial sync runs before the listener opens.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-crd-restart-'));
after(() => rmSync(dir, { recursive: true, force: true }));

void test('CRDs and custom resources survive a restart and are served at once', async () => {
  const base = '/apis/stable.example.com/v1/namespaces/default/widgets';
  const first = await startTestServer({ storage: 'sqlite', dataDir: dir, authorizationMode: ['AlwaysAllow'] });
  try {
    assert.equal((await first.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crdManifest() })).status, 201);
    await waitFor(async () => (await first.request('GET', base)).status === 200);
    const c = await first.request('POST', base, { body: { apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'kept' }, spec: { color: 'red' } } });
    assert.equal(c.status, 201, c.text);
  } finally {
    await first.stop();
  }
  const second = await startTestServer({ storage: 'sqlite', dataDir: dir, authorizationMode: ['AlwaysAllow'] });
  try {
    const g = await second.request('GET', `${base}/kept`);
    assert.equal(g.status, 200, g.text);
    assert.equal(g.json().spec.color, 'red');
    assert.ok((await second.request('GET', '/apis/stable.example.com/v1')).json().resources.some((r: { name: string }) => r.name === 'widgets'));
  } finally {
    await second.stop();
  }
});
