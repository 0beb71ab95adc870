import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statusOf, cm, sys, testEnv, type TestEnv } from './testing/registry.ts';

const GARBAGE = new Uint8Array([0x67, 0x61, 0x72, 0x62, 0x61, 0x67, 0x65, 0x21]); // "garbage!"

for (const cache of [false, true]) void describe(`corrupt objects (KEP-3926), watch cache ${cache ? 'on' : 'off'}`, () => {
  let env: TestEnv;
  before(async () => { env = await testEnv({ cache }); });
  after(async () => { await env.close(); });
  const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;

  void it('GET of an undecodable value is kube\'s corrupt-object storage error (500)', async () => {
    const w = await env.store.create('/registry/configmaps/default/bad-get', GARBAGE);
    assert.ok(w.succeeded);
    const plain = await statusOf(cms().get(sys('default'), 'bad-get', {}));
    assert.deepEqual([plain.code, plain.message], [500, "couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value"]);
    const st = await statusOf(cms().get(sys('default', { unsafeMalformedObjectDeletion: true }), 'bad-get', {}));
    assert.equal(st.code, 500);
    assert.equal(st.reason, undefined); // not an API status error: Go omits the empty reason
    assert.equal(st.message, `StorageError: corrupt object, Code: 7, Key: /registry/configmaps/default/bad-get, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${w.revision}: couldn't get version/kind; json parse error: invalid character 'g' looking for beginning of value`);
    // A missing key is still 404.
    const missing = await statusOf(cms().get(sys('default'), 'nope', {}));
    assert.equal(missing.code, 404);
  });

  void it('LIST with the gate reports corrupt keys as StoreReadError; without it they are left out', async () => {
    await env.registry.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'lst' } }, {});
    await cms().create(sys('lst'), cm('good'), {});
    const w = await env.store.create('/registry/configmaps/lst/bad', GARBAGE);
    assert.ok(w.succeeded);
    const st = await statusOf(cms().list(sys('lst', { unsafeMalformedObjectDeletion: true }), {}));
    assert.equal(st.code, 500);
    assert.equal(st.reason, 'StoreReadError');
    assert.equal(st.message, 'failed to read one or more configmaps from the storage');
    assert.equal(st.details?.name, 'list');
    assert.equal(st.details?.kind, 'configmaps');
    assert.deepEqual(st.details?.causes?.map((c) => [c.reason, c.field]), [['UnexpectedServerResponse', '/registry/configmaps/lst/bad']]);
    assert.match(st.details?.causes?.[0]?.message ?? '', /^StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/lst\/bad/);
    const plain = await cms().list(sys('lst'), {});
    assert.deepEqual(plain.items.map((i) => i.object.metadata.name), ['good']);
  });

  void it('a normal DELETE of a corrupt object fails with the corrupt-object error', async () => {
    await env.store.create('/registry/configmaps/default/bad-del', GARBAGE);
    const st = await statusOf(cms().delete(sys('default', { unsafeMalformedObjectDeletion: true }), 'bad-del', {}));
    assert.equal(st.code, 500);
    assert.match(st.message ?? '', /^StorageError: corrupt object, Code: 7, Key: \/registry\/configmaps\/default\/bad-del/);
  });

  void it('the unsafe DELETE removes a corrupt object, skipping preconditions, and answers a Success Status', async () => {
    await env.store.create('/registry/configmaps/default/bad-unsafe', GARBAGE);
    const r = await cms().delete(sys('default'), 'bad-unsafe', { ignoreStoreReadErrorWithClusterBreakingPotential: true, preconditions: { uid: 'whatever' } });
    assert.equal(r.deleted, true);
    assert.deepEqual(r.object, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200, details: { name: 'bad-unsafe', kind: 'ConfigMap' } });
    assert.equal(await env.store.get('/registry/configmaps/default/bad-unsafe'), undefined);
  });

  void it('the unsafe DELETE is refused (422) for readable and missing objects; dry run removes nothing', async () => {
    await cms().create(sys('default'), cm('fine', {}, { finalizers: ['example.com/x'] }), {});
    const st = await statusOf(cms().delete(sys('default'), 'fine', { ignoreStoreReadErrorWithClusterBreakingPotential: true }));
    assert.equal(st.code, 422);
    assert.equal(st.message, 'configmaps "fine" is invalid: ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: is exclusively used to delete corrupt object(s), try again by removing this option');
    assert.ok(await env.store.get('/registry/configmaps/default/fine'));
    const missing = await statusOf(cms().delete(sys('default'), 'ghost', { ignoreStoreReadErrorWithClusterBreakingPotential: true }));
    assert.equal(missing.code, 422);
    await env.store.create('/registry/configmaps/default/bad-dry', GARBAGE);
    const dry = await cms().delete(sys('default', { dryRun: true }), 'bad-dry', { ignoreStoreReadErrorWithClusterBreakingPotential: true });
    assert.equal(dry.deleted, true);
    assert.ok(await env.store.get('/registry/configmaps/default/bad-dry'));
  });
});
