import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { postJson, loadKubeconfigConnection, WebhookTimeoutError } from './client.ts';
import { startWebhookServer } from '../../test/support/webhook-server.ts';

test('postJson: mutual TLS with the webhook CA, bearer token, JSON both ways', async () => {
  const wh = await startWebhookServer({ requireClientCert: true, handler: (r) => ({ status: 201, body: { echo: r.body, auth: r.headers.authorization ?? null, cn: r.clientCn } }) });
  try {
    const r = await postJson({ url: wh.url, caPem: wh.ca.certPem, certPem: wh.client.certPem, keyPem: wh.client.keyPem, tokenBearer: 'abc', timeoutMs: 5000, body: { a: 1 } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body, { echo: { a: 1 }, auth: 'Bearer abc', cn: 'keelson-apiserver' });
    assert.equal(wh.requests[0]!.headers['content-type'], 'application/json');
  } finally {
    await wh.stop();
  }
});

test('postJson: an unknown CA, a missing client certificate and a timeout are errors', async () => {
  const wh = await startWebhookServer({ requireClientCert: true, handler: (r) => ({ body: {}, delayMs: r.body?.slow ? 10_000 : 0 }) });
  try {
    await assert.rejects(postJson({ url: wh.url, timeoutMs: 5000, body: {} }), /certificate/);
    await assert.rejects(postJson({ url: wh.url, caPem: wh.ca.certPem, timeoutMs: 5000, body: {} }), /Post "https:\/\/127\.0\.0\.1/);
    await assert.rejects(
      postJson({ url: wh.url, caPem: wh.ca.certPem, certPem: wh.client.certPem, keyPem: wh.client.keyPem, timeoutMs: 100, body: { slow: true } }),
      (e: unknown) => e instanceof WebhookTimeoutError,
    );
    const ac = new AbortController();
    const p = postJson({ url: wh.url, caPem: wh.ca.certPem, certPem: wh.client.certPem, keyPem: wh.client.keyPem, timeoutMs: 5000, body: { slow: true }, signal: ac.signal });
    ac.abort();
    await assert.rejects(p, /aborted/);
  } finally {
    await wh.stop();
  }
});

test('postJson: a non-JSON reply comes back as text', async () => {
  const wh = await startWebhookServer({ handler: () => ({ status: 500, body: 'boom' }) });
  try {
    const r = await postJson({ url: wh.url, caPem: wh.ca.certPem, timeoutMs: 5000, body: {} });
    assert.equal(r.status, 500);
    assert.equal(r.body, 'boom');
  } finally {
    await wh.stop();
  }
});

test('loadKubeconfigConnection: paths relative to the file, inline data, current-context, errors', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-wh-'));
  const wh = await startWebhookServer({ requireClientCert: true, handler: () => ({ body: { ok: true } }) });
  try {
    for (const inline of [false, true]) {
      const file = await wh.writeKubeconfig(dir, { inline, name: `k-${inline}` });
      const c = await loadKubeconfigConnection(file);
      assert.equal(c.url, wh.url);
      assert.equal(c.caPem, wh.ca.certPem);
      assert.equal(c.certPem, wh.client.certPem);
      const r = await postJson({ ...c, timeoutMs: 5000, body: {} });
      assert.deepEqual(r.body, { ok: true });
    }
    const multi = path.join(dir, 'multi');
    writeFileSync(path.join(dir, 'tok'), 'secret-token\n');
    writeFileSync(multi, [
      'clusters:',
      '- {name: a, cluster: {server: "https://a.example"}}',
      '- {name: b, cluster: {server: "https://b.example", tls-server-name: bee}}',
      'users:',
      '- {name: u1, user: {token: t1}}',
      '- {name: u2, user: {tokenFile: tok}}',
      'contexts:',
      '- {name: c, context: {cluster: b, user: u2}}',
      'current-context: c',
    ].join('\n'));
    const m = await loadKubeconfigConnection(multi);
    assert.equal(m.url, 'https://b.example');
    assert.equal(m.tokenBearer, 'secret-token');
    assert.equal(m.serverName, 'bee');
    const first = path.join(dir, 'first');
    writeFileSync(first, 'clusters:\n- {name: a, cluster: {server: "https://a.example"}}\nusers:\n- {name: u1, user: {token: t1}}\n');
    const f = await loadKubeconfigConnection(first);
    assert.equal(f.url, 'https://a.example');
    assert.equal(f.tokenBearer, 't1');
    const bad = path.join(dir, 'bad');
    writeFileSync(bad, 'clusters: []\n');
    await assert.rejects(loadKubeconfigConnection(bad), /no server found/);
    writeFileSync(bad, 'clusters:\n- {name: a, cluster: {server: x}}\ncontexts: []\ncurrent-context: nope\n');
    await assert.rejects(loadKubeconfigConnection(bad), /context "nope" not found/);
  } finally {
    await wh.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
