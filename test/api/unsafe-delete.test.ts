/**
 * Corrupt objects through HTTP (KEP-3926). A value is corrupted while the server is stopped (through the sqlite
 * store itself), then a server with AllowUnsafeMalformedObjectDeletion=true serves GET/LIST/DELETE of it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/storage/factory.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const KEY = '/registry/configmaps/default/broken';
/** Until the handlers pass the gate on (opContext) and call withUnsafeDelete / unsafeDeleteCollectionRefused. */

/** Rewrites a stored value with bytes that do not decode (the server must be stopped). */
async function corrupt(dataDir: string, key: string): Promise<number> {
  const store = await openStore({ kind: 'sqlite', dataDir });
  try {
    const cur = await store.get(key);
    assert.ok(cur, `${key} exists`);
    const r = await store.update(key, Buffer.from('garbage!'), { expectedModRevision: cur.modRevision });
    assert.ok(r.succeeded);
    return r.revision;
  } finally {
    await store.close();
  }
}

void describe('unsafe deletion of corrupt objects over HTTP', () => {
  let dataDir: string;
  let srv: TestServer;
  let brokenRevision = 0;
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'keelson-unsafe-'));
    const first = await startTestServer({ storage: 'sqlite', dataDir });
    try {
      for (const name of ['broken', 'healthy']) {
        const r = await first.request('POST', CM, { body: { metadata: { name, finalizers: ['example.com/keep'] } } });
        assert.equal(r.status, 201, r.text);
      }
    } finally {
      await first.stop();
    }
    brokenRevision = await corrupt(dataDir, KEY);
  });
  after(async () => {
    await srv?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  void it('without the gate: GET fails with the decode error, the option is dropped (a normal delete fails the same way)', async () => {
    const off = await startTestServer({ storage: 'sqlite', dataDir, authorizationMode: ['AlwaysAllow'] });
    try {
      const decodeError = "couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value";
      let r = await off.request('GET', `${CM}/broken`);
      assert.equal(r.status, 500);
      assert.equal(r.json().message, decodeError);
      assert.equal(r.json().reason, undefined);
      r = await off.request('DELETE', `${CM}/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
      assert.equal(r.status, 500);
      assert.equal(r.json().message, decodeError);
    } finally {
      await off.stop();
    }
    srv = await startTestServer({ storage: 'sqlite', dataDir, featureGates: { AllowUnsafeMalformedObjectDeletion: true }, authorizationMode: ['RBAC'] });
  });

  void it('GET of the corrupt object is the corrupt-object storage error (500)', async () => {
    const r = await srv.request('GET', `${CM}/broken`);
    assert.equal(r.status, 500);
    const st = r.json();
    assert.equal(st.reason, undefined);
    assert.equal(st.message, `StorageError: corrupt object, Code: 7, Key: ${KEY}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${brokenRevision}: couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value`);
    assert.equal((await srv.request('GET', `${CM}/healthy`)).status, 200);
  });

  void it('LIST reports the corrupt key as StoreReadError', async () => {
    const r = await srv.request('GET', CM);
    assert.equal(r.status, 500);
    const st = r.json();
    assert.equal(st.reason, 'StoreReadError');
    assert.equal(st.message, 'failed to read one or more configmaps from the storage');
    assert.deepEqual(st.details.causes.map((c: { field: string }) => c.field), [KEY]);
  });

  void it('DELETE with the option removes only the corrupt object; DELETECOLLECTION refuses it', async () => {
    let r = await srv.request('DELETE', `${CM}/healthy?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'configmaps "healthy" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option');
    r = await srv.request('DELETE', `${CM}/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true`, { user: 'anonymous' });
    assert.equal(r.status, 403, r.text);
    r = await srv.request('DELETE', `${CM}/broken?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'broken', kind: 'ConfigMap' }, code: 200 });
    assert.equal((await srv.request('GET', `${CM}/broken`)).status, 404);
    r = await srv.request('DELETE', `${CM}?ignoreStoreReadErrorWithClusterBreakingPotential=true`);
    assert.equal(r.status, 422);
    assert.equal(r.json().message, 'DeleteOptions.meta.k8s.io "" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is not allowed with DELETECOLLECTION, try again after removing the option');
  });
});
