/**
 * CBOR serving behind the feature gate CBORServingAndStorage: objects, lists, errors and watches in CBOR,
 * CBOR request bodies for create/update/apply, kube's 400s for invalid CBOR, and 406/415 without the gate.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { startTestServer, type TestServer } from '../support/server.ts';
import { encodeCborValue, decodeCborSequence } from '../../src/endpoints/negotiation/cbor.ts';
import { decodeCbor, CborByteString } from '../../src/endpoints/negotiation/cbor-codec.ts';
import { crdManifest, waitFor } from './crd-support.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const TAG = Buffer.from([0xd9, 0xd9, 0xf7]);

function cborBody(r: { raw: Buffer }): any {
  assert.ok(r.raw.subarray(0, 3).equals(TAG), `missing self-described tag: ${r.raw.subarray(0, 8).toString('hex')}`);
  return decodeCbor(r.raw);
}

describe('CBOR with CBORServingAndStorage=true', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer({ featureGates: { CBORServingAndStorage: true } });
  });
  after(async () => {
    await srv.stop();
  });

  it('creates from a CBOR body and answers objects and lists in CBOR', async () => {
    const body = encodeCborValue({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', labels: { a: 'b' } }, data: { k: 'v' } });
    let r = await srv.request('POST', CM, { headers: { 'Content-Type': 'application/cbor', Accept: 'application/cbor' }, body });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['content-type'], 'application/cbor');
    const created = cborBody(r);
    assert.equal(created.metadata.name, 'c1');
    assert.deepEqual(created.data, { k: 'v' });
    assert.equal(typeof created.metadata.resourceVersion, 'string');

    r = await srv.request('GET', `${CM}/c1`, { headers: { Accept: 'application/cbor' } });
    assert.equal(r.status, 200);
    const got = cborBody(r);
    assert.equal(got.kind, 'ConfigMap');
    // Same object as the JSON answer.
    const j = (await srv.request('GET', `${CM}/c1`)).json();
    assert.deepEqual(got, j);

    r = await srv.request('GET', CM, { headers: { Accept: 'application/cbor' } });
    assert.equal(r.status, 200);
    const list = cborBody(r);
    assert.equal(list.kind, 'ConfigMapList');
    assert.ok(list.items.some((i: any) => i.metadata.name === 'c1'));
  });

  it('writes []byte fields as byte strings and reads them back', async () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { pw: Buffer.from('hunter2').toString('base64') } };
    // Built with raw bytes for data.pw, as client-go encodes []byte.
    const wire = encodeCborValue(secret);
    let r = await srv.request('POST', SECRETS, { headers: { 'Content-Type': 'application/cbor', Accept: 'application/cbor' }, body: wire });
    assert.equal(r.status, 201, r.text);
    const raw = decodeCbor(r.raw) as any;
    assert.ok(raw.data.pw instanceof CborByteString, 'data.pw is a byte string');
    assert.equal(Buffer.from(raw.data.pw.bytes).toString(), 'hunter2');
    assert.equal(typeof raw.type, 'string');
    r = await srv.request('GET', `${SECRETS}/s1`);
    assert.equal(r.json().data.pw, Buffer.from('hunter2').toString('base64'));
  });

  it('encodes deterministically: sorted keys, integers as integers', async () => {
    const r = await srv.request('GET', '/api/v1/namespaces/default', { headers: { Accept: 'application/cbor' } });
    assert.equal(r.status, 200);
    // kind, apiVersion, metadata, spec, status: a5; encoded keys sort bytewise, so the short ones come first.
    assert.equal(r.raw[3], 0xa5);
    const keys: string[] = [];
    let off = 4;
    for (let i = 0; i < 5; i++) {
      const len = (r.raw[off] as number) - 0x60;
      keys.push(r.raw.subarray(off + 1, off + 1 + len).toString());
      off += 1 + len;
      // Skip the value: re-encode the decoded value to learn its size.
      const value = (cborBody(r) as any)[keys[i] as string];
      off += encodeCborValue(value).length - 3;
    }
    assert.deepEqual(keys, ['kind', 'spec', 'status', 'metadata', 'apiVersion']);
    assert.ok(Number.isInteger(cborBody(r).metadata.resourceVersion.length));
  });

  it('answers errors as CBOR Status', async () => {
    const r = await srv.request('GET', `${CM}/missing`, { headers: { Accept: 'application/cbor' } });
    assert.equal(r.status, 404);
    assert.equal(r.headers['content-type'], 'application/cbor');
    const st = cborBody(r);
    assert.equal(st.kind, 'Status');
    assert.equal(st.reason, 'NotFound');
    assert.equal(st.message, 'configmaps "missing" not found');
    assert.equal(st.code, 404);
  });

  it('refuses invalid CBOR with kube\'s 400s', async () => {
    const post = (body: Buffer) => srv.request('POST', CM, { headers: { 'Content-Type': 'application/cbor' }, body });
    // {"kind": "ConfigMap", "kind": "ConfigMap"}: duplicate top-level key.
    const kindKey = Buffer.from([0x64, ...Buffer.from('kind')]);
    const cmText = Buffer.from([0x69, ...Buffer.from('ConfigMap')]);
    let r = await post(Buffer.concat([TAG, Buffer.from([0xa2]), kindKey, cmText, kindKey, cmText]));
    assert.equal(r.status, 400);
    assert.match(r.json().message, /^the object provided is unrecognized \(must be of type ConfigMap\): unable to determine group\/version\/kind: cbor: found duplicate map key "kind" at map element index 1 \(d9d9f7/);
    // NaN inside data: known kind, so kube names it.
    const nan = encodeCborValue({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'n' }, data: { x: 'PLACEHOLDER' } });
    const at = nan.indexOf(Buffer.from([0x6b, ...Buffer.from('PLACEHOLDER')]));
    const withNaN = Buffer.concat([nan.subarray(0, at), Buffer.from([0xf9, 0x7e, 0x00]), nan.subarray(at + 12)]);
    r = await post(withNaN);
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: cbor: data item of cbor type primitives is not accepted by protocol: floating-point NaN');
    // Unknown fields: fxamacker names the first one by its position in its map.
    const unknown = encodeCborValue({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u' }, data: {}, zzzzzzzzzzzz: 1 });
    r = await srv.request('POST', `${CM}?fieldValidation=Strict`, { headers: { 'Content-Type': 'application/cbor' }, body: unknown });
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: cbor: found unknown field at map element index 4');
    r = await srv.request('POST', CM, { headers: { 'Content-Type': 'application/cbor' }, body: unknown });
    assert.equal(r.status, 201);
    assert.deepEqual(r.headers['warning'], '299 - "cbor: found unknown field at map element index 4"');
    // Not a map.
    r = await post(encodeCborValue(['x']));
    assert.equal(r.status, 400);
    assert.equal(r.json().message, 'the object provided is unrecognized (must be of type ConfigMap): unable to determine group/version/kind: cbor: cannot unmarshal array into Go value of type v1.TypeMeta (d9d9f7816178)');
    // Truncated.
    r = await post(nan.subarray(0, nan.length - 3));
    assert.equal(r.status, 400);
    assert.match(r.json().message, /unable to determine group\/version\/kind: unexpected EOF/);
  });

  it('updates from CBOR and applies with application/apply-patch+cbor', async () => {
    const cur = (await srv.request('GET', `${CM}/c1`)).json();
    cur.data = { k: 'v2' };
    let r = await srv.request('PUT', `${CM}/c1`, { headers: { 'Content-Type': 'application/cbor' }, body: encodeCborValue(cur) });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().data.k, 'v2');
    const applyBody = encodeCborValue({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ap1' }, data: { z: '1' } });
    r = await srv.request('PATCH', `${CM}/ap1?fieldManager=cbor-test`, { headers: { 'Content-Type': 'application/apply-patch+cbor', Accept: 'application/cbor' }, body: applyBody });
    assert.equal(r.status, 201, r.text);
    const applied = cborBody(r);
    assert.deepEqual(applied.data, { z: '1' });
    assert.equal(applied.metadata.managedFields[0].manager, 'cbor-test');
  });

  it('lists CBOR in 415 and 406 messages', async () => {
    let r = await srv.request('POST', CM, { headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    assert.equal(r.status, 415);
    assert.equal(r.json().message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf, application/cbor');
    r = await srv.request('GET', `${CM}/c1`, { headers: { Accept: 'text/html' } });
    assert.equal(r.status, 406);
    assert.match(r.json().message, /application\/vnd\.kubernetes\.protobuf, application\/cbor$/);
    r = await srv.request('PATCH', `${CM}/c1`, { headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    assert.equal(r.status, 415);
    assert.match(r.json().message, /application\/apply-patch\+yaml, application\/apply-patch\+cbor$/);
    // Tables exist only as JSON and YAML.
    r = await srv.request('GET', CM, { headers: { Accept: 'application/cbor;as=Table;g=meta.k8s.io;v=v1' } });
    assert.equal(r.status, 406);
  });

  it('serves custom resources in CBOR too (no protobuf for them)', async () => {
    const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const W = '/apis/stable.example.com/v1/namespaces/default/widgets';
    let r = await srv.request('POST', CRDS, { body: crdManifest() });
    assert.equal(r.status, 201, r.text);
    await waitFor(async () => (await srv.request('GET', `${CRDS}/widgets.stable.example.com`)).json().status?.conditions?.some((c: any) => c.type === 'Established' && c.status === 'True'));
    const body = encodeCborValue({ apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { color: 'red', replicas: 2 } });
    r = await srv.request('POST', W, { headers: { 'Content-Type': 'application/cbor', Accept: 'application/cbor' }, body });
    assert.equal(r.status, 201, r.text);
    const w = cborBody(r);
    assert.deepEqual(w.spec, { color: 'red', replicas: 2 });
    r = await srv.request('GET', `${W}/w1`, { headers: { Accept: 'application/vnd.kubernetes.protobuf, application/cbor' } });
    assert.equal(r.headers['content-type'], 'application/cbor');
    assert.equal(cborBody(r).kind, 'Widget');
    r = await srv.request('PATCH', `${W}/w1?fieldManager=m&force=true`, { headers: { 'Content-Type': 'application/apply-patch+cbor' }, body: encodeCborValue({ apiVersion: 'stable.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { color: 'blue' } }) });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().spec.color, 'blue');
  });

  it('streams watches as a CBOR sequence of WatchEvents', async () => {
    const kc = parseYaml(readFileSync(srv.kubeconfigPath, 'utf8')) as any;
    const user = kc.users[0].user;
    const url = new URL(srv.url);
    const events: any[] = [];
    let contentType = '';
    const req = https.request({
      hostname: '127.0.0.1', port: url.port, method: 'GET', path: `${CM}?watch=1&resourceVersion=0`,
      ca: srv.caPem, servername: 'localhost', agent: false,
      cert: Buffer.from(user['client-certificate-data'], 'base64'), key: Buffer.from(user['client-key-data'], 'base64'),
      headers: { Accept: 'application/cbor-seq' },
    });
    const got = new Promise<void>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        contentType = String(res.headers['content-type']);
        let buf = Buffer.alloc(0);
        res.on('data', (c: Buffer) => {
          buf = Buffer.concat([buf, c]);
          try {
            const items = decodeCborSequence(buf);
            events.splice(0, events.length, ...items);
          } catch {
            return; // an item split across chunks: wait for more
          }
          if (events.some((e) => e.object?.metadata?.name === 'w1')) resolve();
        });
        res.on('end', () => reject(new Error('watch ended early')));
      });
    });
    req.end();
    try {
      const create = await srv.request('POST', CM, { body: { metadata: { name: 'w1' } } });
      assert.equal(create.status, 201);
      await got;
    } finally {
      req.destroy();
    }
    assert.equal(contentType, 'application/cbor-seq');
    const added = events.find((e) => e.object?.metadata?.name === 'w1');
    assert.equal(added.type, 'ADDED');
    assert.equal(added.object.kind, 'ConfigMap');
  });
});

describe('CBOR without the gate (default)', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer();
  });
  after(async () => {
    await srv.stop();
  });

  it('answers 406 for Accept: application/cbor and 415 for CBOR bodies', async () => {
    let r = await srv.request('GET', `${CM}`, { headers: { Accept: 'application/cbor' } });
    assert.equal(r.status, 406);
    assert.equal(r.json().message, '406: Not Acceptable\n\nAvailable representations: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    r = await srv.request('POST', CM, { headers: { 'Content-Type': 'application/cbor' }, body: encodeCborValue({ metadata: { name: 'x' } }) });
    assert.equal(r.status, 415);
    assert.equal(r.json().message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
    r = await srv.request('PATCH', `${CM}/x?fieldManager=a`, { headers: { 'Content-Type': 'application/apply-patch+cbor' }, body: Buffer.from([0xa0]) });
    assert.equal(r.status, 415);
  });
});
