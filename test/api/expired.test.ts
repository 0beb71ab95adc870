/**
 * 410s once history is compacted: an old continue token (reason Expired, kube's exact message) and a watch
 * from a compacted resourceVersion. Needs a short history retention, which `startServer` must pass to the
 * store factory (`historyRetentionMs`); skipped with the reason until it does.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveOptions, type ServerOptions } from '../../src/controlplane/options.ts';
import { eventually, startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus, configMap, namespace } from './helpers.ts';

const RETENTION_MS = 300;
const withRetention = { historyRetentionMs: RETENTION_MS } as ServerOptions;
const supported = 'historyRetentionMs' in (resolveOptions(withRetention) as object);
const skip = supported ? false : 'startServer has no history retention option (ServerOptions.historyRetentionMs → openStore), so compaction cannot be forced';
if (skip) process.stderr.write(`skipping 410 tests: ${skip}\n`);

let srv: TestServer;
const NS = 'expiry';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

before(async () => {
  if (skip) return;
  srv = await startTestServer(withRetention);
  await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) });
  for (let i = 0; i < 4; i++) await srv.request('POST', CM, { body: configMap(`e-${i}`) });
});
after(async () => { await srv?.stop(); });

const EXPIRED = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

void test('an old continue token is 410 Expired after compaction, with a fresh token to go on', { skip }, async () => {
  const p1 = (await srv.request('GET', `${CM}?limit=1`)).json();
  assert.ok(p1.metadata.continue);
  // Writes after the page, then wait past the retention so the page's revision is compacted.
  const r = await eventually('token expired', async () => {
    await srv.request('POST', CM, { body: configMap(`later-${Date.now()}`) });
    await new Promise((res) => setTimeout(res, RETENTION_MS));
    const x = await srv.request('GET', `${CM}?limit=1&continue=${encodeURIComponent(p1.metadata.continue)}`);
    return x.status === 410 ? x : undefined;
  }, 20_000);
  const s = assertStatus(r, 410, 'Expired', EXPIRED);
  assert.ok(s.metadata.continue, 'a continue token to resume inconsistently');
  // The fresh token resumes at the latest revision from the same position: the remaining items follow.
  const token = JSON.parse(Buffer.from(s.metadata.continue, 'base64url').toString()) as { rv: number };
  assert.equal(token.rv, -1);
  const rest = await srv.request('GET', `${CM}?limit=100&continue=${encodeURIComponent(s.metadata.continue)}`);
  assert.equal(rest.status, 200, rest.text);
  assert.ok(rest.json().items.every((i: { metadata: { name: string } }) => i.metadata.name > p1.items[0].metadata.name));
});

void test('a watch from a compacted resourceVersion ends with a 410 Expired ERROR event', { skip }, async () => {
  const old = (await srv.request('GET', CM)).json().metadata.resourceVersion;
  await eventually('rv compacted', async () => {
    await srv.request('POST', CM, { body: configMap(`w-${Date.now()}`) });
    await new Promise((res) => setTimeout(res, RETENTION_MS));
    const w = await srv.watch(`${CM}?watch=1&resourceVersion=${old}`);
    try {
      const e = await w.next(5000).catch(() => undefined);
      if (e?.type !== 'ERROR') return false;
      assert.equal(e.object.kind, 'Status');
      assert.equal(e.object.code, 410);
      assert.equal(e.object.reason, 'Expired');
      assert.match(e.object.message, /^too old resource version: \d+ \(\d+\)$/);
      return true;
    } finally {
      w.close();
    }
  }, 20_000);
});
