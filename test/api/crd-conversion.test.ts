/**
 * Multi-version custom resources: None conversion (apiVersion rewrite) and Webhook conversion through a
 * ConversionReview webhook on 127.0.0.1 (test/support/conversion-webhook.ts): reads in another version than
 * the storage version, writes through a non-storage version, lists mixing versions, and a failing webhook
 * surfacing as 500 with the webhook's message.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startConversionWebhook, type ConversionWebhook } from '../support/conversion-webhook.ts';
import { waitFor } from './crd-support.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GROUP = 'conv.example.com';

const crd = (plural: string, kind: string, conversion: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${GROUP}` },
  spec: {
    group: GROUP, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind },
    conversion,
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, host: { type: 'string' } } } } } } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { schedule: { type: 'string' }, host: { type: 'string' } } } } } } },
    ],
  },
});

/** v1 `spec.cronSpec` ⇄ v2 `spec.schedule`. */
function convert(o: Record<string, any>, to: string): Record<string, any> {
  const spec = o.spec ?? {};
  if (to === `${GROUP}/v2`) o.spec = { ...(spec.host ? { host: spec.host } : {}), ...(spec.cronSpec !== undefined ? { schedule: spec.cronSpec } : {}) };
  else o.spec = { ...(spec.host ? { host: spec.host } : {}), ...(spec.schedule !== undefined ? { cronSpec: spec.schedule } : {}) };
  o.apiVersion = to;
  return o;
}

let srv: TestServer;
let wh: ConversionWebhook;
let failing = false;

before(async () => {
  wh = await startConversionWebhook({
    convert(o, to) {
      if (failing) throw new Error('the webhook refuses today');
      return convert(o, to);
    },
  });
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  for (const body of [
    crd('crontabs', 'CronTab', { strategy: 'Webhook', webhook: { clientConfig: wh.clientConfig, conversionReviewVersions: ['v1'] } }),
    crd('plainjobs', 'PlainJob', { strategy: 'None' }),
  ]) {
    const r = await srv.request('POST', CRDS, { body });
    assert.equal(r.status, 201, r.text);
  }
  await waitFor(async () => (await srv.request('GET', `/apis/${GROUP}/v2/namespaces/default/crontabs`)).status === 200
    && (await srv.request('GET', `/apis/${GROUP}/v2/namespaces/default/plainjobs`)).status === 200);
});

after(async () => {
  await srv.stop();
  await wh.stop();
});

const path = (v: string, plural: string, name = '') => `/apis/${GROUP}/${v}/namespaces/default/${plural}${name ? `/${name}` : ''}`;

describe('Webhook conversion', () => {
  it('an object created in v1 reads back converted in v2', async () => {
    failing = false;
    const c = await srv.request('POST', path('v1', 'crontabs'), { body: { apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name: 'a' }, spec: { cronSpec: '* * * * */5' } } });
    assert.equal(c.status, 201, c.text);
    const g = await srv.request('GET', path('v2', 'crontabs', 'a'));
    assert.equal(g.status, 200, g.text);
    assert.equal(g.json().apiVersion, `${GROUP}/v2`);
    assert.deepEqual(g.json().spec, { schedule: '* * * * */5' });
    assert.equal(g.json().metadata.uid, c.json().metadata.uid);
    assert.ok(wh.reviews.some((r) => r.request.desiredAPIVersion === `${GROUP}/v2`));
    // Unstructured in kube: the converted object's keys are sorted at every level, whatever the webhook sent.
    const keys = (o: object) => Object.keys(o);
    assert.deepEqual(keys(g.json()), [...keys(g.json())].sort());
    assert.deepEqual(keys(g.json().metadata), [...keys(g.json().metadata)].sort());
  });

  it('an object written through v2 is stored as v1 and reads back in both', async () => {
    failing = false;
    const c = await srv.request('POST', path('v2', 'crontabs'), { body: { apiVersion: `${GROUP}/v2`, kind: 'CronTab', metadata: { name: 'b' }, spec: { schedule: '0 0 * * *' } } });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.json().apiVersion, `${GROUP}/v2`);
    assert.deepEqual(c.json().spec, { schedule: '0 0 * * *' });
    const v1 = await srv.request('GET', path('v1', 'crontabs', 'b'));
    assert.deepEqual(v1.json().spec, { cronSpec: '0 0 * * *' });
    const list = await srv.request('GET', path('v2', 'crontabs'));
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.json().items.map((i: any) => [i.apiVersion, i.spec.schedule]).sort(), [[`${GROUP}/v2`, '* * * * */5'], [`${GROUP}/v2`, '0 0 * * *']]);
  });

  it('a failing webhook surfaces as 500 with its message', async () => {
    failing = true;
    try {
      const g = await srv.request('GET', path('v2', 'crontabs', 'a'));
      assert.equal(g.status, 500, g.text);
      assert.equal(g.json().reason, 'InternalError');
      assert.match(g.json().message, /conversion webhook for conv\.example\.com\/v1, Kind=CronTab failed: the webhook refuses today/);
    } finally {
      failing = false;
    }
  });

  it('watch in v2 delivers converted objects', async () => {
    failing = false;
    const w = await srv.watch(`${path('v2', 'crontabs')}?watch=1&fieldSelector=metadata.name%3Dw`);
    try {
      assert.equal(w.status, 200);
      const c = await srv.request('POST', path('v1', 'crontabs'), { body: { apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name: 'w' }, spec: { cronSpec: '1 1 * * *' } } });
      assert.equal(c.status, 201, c.text);
      const e = await w.next();
      assert.equal(e.type, 'ADDED');
      assert.equal(e.object.apiVersion, `${GROUP}/v2`);
      assert.deepEqual(e.object.spec, { schedule: '1 1 * * *' });
    } finally {
      w.close();
    }
  });

  it('merge patch through v2 converts both ways', async () => {
    failing = false;
    const c = await srv.request('POST', path('v1', 'crontabs'), { body: { apiVersion: `${GROUP}/v1`, kind: 'CronTab', metadata: { name: 'm' }, spec: { cronSpec: 'x', host: 'a' } } });
    assert.equal(c.status, 201, c.text);
    const p = await srv.request('PATCH', path('v2', 'crontabs', 'm'), { body: { spec: { schedule: 'y' } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(p.status, 200, p.text);
    assert.deepEqual(p.json().spec, { host: 'a', schedule: 'y' });
    const v1 = await srv.request('GET', path('v1', 'crontabs', 'm'));
    assert.deepEqual(v1.json().spec, { host: 'a', cronSpec: 'y' });
  });

  it('a write through v2 that the webhook cannot convert fails with 500 and stores nothing', async () => {
    failing = true;
    try {
      const c = await srv.request('POST', path('v2', 'crontabs'), { body: { apiVersion: `${GROUP}/v2`, kind: 'CronTab', metadata: { name: 'nope' }, spec: { schedule: 'z' } } });
      assert.equal(c.status, 500, c.text);
      assert.match(c.json().message, /conversion webhook for conv\.example\.com\/v2, Kind=CronTab failed: the webhook refuses today/);
    } finally {
      failing = false;
    }
    const g = await srv.request('GET', path('v1', 'crontabs', 'nope'));
    assert.equal(g.status, 404, g.text);
  });
});

describe('None conversion', () => {
  it('rewrites apiVersion only', async () => {
    const c = await srv.request('POST', path('v1', 'plainjobs'), { body: { apiVersion: `${GROUP}/v1`, kind: 'PlainJob', metadata: { name: 'p' }, spec: { host: 'h' } } });
    assert.equal(c.status, 201, c.text);
    const g = await srv.request('GET', path('v2', 'plainjobs', 'p'));
    assert.equal(g.status, 200, g.text);
    assert.equal(g.json().apiVersion, `${GROUP}/v2`);
    assert.deepEqual(g.json().spec, { host: 'h' });
  });
});
