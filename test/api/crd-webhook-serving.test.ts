/**
 * Serving a non-storage version through a conversion webhook (a ConversionReview to a test webhook on
 * 127.0.0.1 that renames v1 `spec.cronSpec` ↔ v2 `spec.schedule`): create, get, list, watch and patch through
 * the converted version; a failing webhook surfaces as 500 with its message. (crd-conversion.test.ts covers
 * the converter's contract; this file the serving paths around it.)
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startConversionWebhook, type ConversionWebhook } from '../support/conversion-webhook.ts';
import { waitFor } from './crd-support.ts';

let srv: TestServer;
let wh: ConversionWebhook;
let failWith = '';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const V1 = '/apis/convserve.example.com/v1/namespaces/default/crontabs';
const V2 = '/apis/convserve.example.com/v2/namespaces/default/crontabs';

type J = Record<string, any>;

function convert(o: J, to: string): J {
  if (failWith) throw new Error(failWith);
  const spec = { ...(o.spec ?? {}) };
  if (to.endsWith('/v2') && 'cronSpec' in spec) {
    spec.schedule = spec.cronSpec;
    delete spec.cronSpec;
  } else if (to.endsWith('/v1') && 'schedule' in spec) {
    spec.cronSpec = spec.schedule;
    delete spec.schedule;
  }
  return { ...o, apiVersion: to, spec };
}

const schema = (field: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, replicas: { type: 'integer' } } } } } });

before(async () => {
  wh = await startConversionWebhook({ convert });
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'crontabs.convserve.example.com' },
    spec: {
      group: 'convserve.example.com', scope: 'Namespaced', names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
      conversion: { strategy: 'Webhook', webhook: { clientConfig: wh.clientConfig, conversionReviewVersions: ['v1'] } },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('cronSpec') },
        { name: 'v2', served: true, storage: false, schema: schema('schedule') },
      ],
    },
  };
  const r = await srv.request('POST', CRDS, { body: crd });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', V2)).status === 200);
});

after(async () => {
  await srv.stop();
  await wh.stop();
});

void test('create through v2 is stored as v1 and read back in either version', async () => {
  const c = await srv.request('POST', V2, { body: { apiVersion: 'convserve.example.com/v2', kind: 'CronTab', metadata: { name: 'a' }, spec: { schedule: '* * * * *', replicas: 1 } } });
  assert.equal(c.status, 201, c.text);
  assert.equal(c.json().apiVersion, 'convserve.example.com/v2');
  assert.equal(c.json().spec.schedule, '* * * * *');
  const asV1 = (await srv.request('GET', `${V1}/a`)).json();
  assert.equal(asV1.apiVersion, 'convserve.example.com/v1');
  assert.equal(asV1.spec.cronSpec, '* * * * *');
  assert.equal(asV1.spec.schedule, undefined);
  const asV2 = (await srv.request('GET', `${V2}/a`)).json();
  assert.equal(asV2.spec.schedule, '* * * * *');
  assert.ok(wh.reviews.length > 0);
  assert.equal(wh.reviews[0]?.kind, 'ConversionReview');
});

void test('list, patch and watch through the converted version', async () => {
  await srv.request('POST', V1, { body: { apiVersion: 'convserve.example.com/v1', kind: 'CronTab', metadata: { name: 'b' }, spec: { cronSpec: '0 0 * * *' } } });
  const l = (await srv.request('GET', V2)).json();
  assert.deepEqual(l.items.map((i: J) => [i.apiVersion, i.metadata.name, i.spec.schedule]).sort(), [['convserve.example.com/v2', 'a', '* * * * *'], ['convserve.example.com/v2', 'b', '0 0 * * *']]);
  const p = await srv.request('PATCH', `${V2}/b`, { body: { spec: { schedule: '5 5 * * *' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(p.status, 200, p.text);
  assert.equal(p.json().spec.schedule, '5 5 * * *');
  assert.equal((await srv.request('GET', `${V1}/b`)).json().spec.cronSpec, '5 5 * * *');
  const w = await srv.watch(`${V2}?watch=1&resourceVersion=${p.json().metadata.resourceVersion}`);
  await srv.request('PATCH', `${V1}/b`, { body: { spec: { cronSpec: '6 6 * * *' } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  const ev = await w.next(5000);
  w.close();
  assert.equal(ev.type, 'MODIFIED');
  assert.equal(ev.object.apiVersion, 'convserve.example.com/v2');
  assert.equal(ev.object.spec.schedule, '6 6 * * *');
});

void test('a failing webhook is a 500 carrying its message', async () => {
  // A new revision (written through the storage version: no conversion), then a read that needs one.
  await srv.request('PATCH', `${V1}/a`, { body: { spec: { replicas: 2 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  failWith = 'cannot convert today';
  try {
    const r = await srv.request('GET', `${V2}/a`);
    assert.equal(r.status, 500, r.text);
    assert.match(r.json().message, /cannot convert today/);
  } finally {
    failWith = '';
  }
  assert.equal((await srv.request('GET', `${V2}/a`)).status, 200);
});

void test('writes through the converted version are validated against its own schema first', async () => {
  const r = await srv.request('POST', V2, { body: { apiVersion: 'convserve.example.com/v2', kind: 'CronTab', metadata: { name: 'bad' }, spec: { schedule: 5 } } });
  assert.equal(r.status, 422, r.text);
  assert.match(r.json().message, /^CronTab.convserve.example.com "bad" is invalid: spec.schedule: Invalid value: "integer": spec.schedule in body must be of type string: "integer"/);
});
