/**
 * Webhook conversion after a storage-version change (review issue 7, items 1 and 5): objects still stored in
 * the old version are converted by their own apiVersion through the webhook, also when read or written
 * through the new storage version, so no field is lost on the next write; what the webhook returns is pruned
 * in the served version.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startConversionWebhook, type ConversionWebhook } from '../support/conversion-webhook.ts';
import { waitFor } from './crd-support.ts';

type J = Record<string, any>;
let srv: TestServer;
let wh: ConversionWebhook;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'crontabs.storagever.example.com';
const V1 = '/apis/storagever.example.com/v1/namespaces/default/crontabs';
const V2 = '/apis/storagever.example.com/v2/namespaces/default/crontabs';

function convert(o: J, to: string): J {
  const spec = { ...(o.spec ?? {}) };
  if (to.endsWith('/v2') && 'cronSpec' in spec) {
    spec.schedule = spec.cronSpec;
    delete spec.cronSpec;
  } else if (to.endsWith('/v1') && 'schedule' in spec) {
    spec.cronSpec = spec.schedule;
    delete spec.schedule;
  }
  // A careless webhook: a field no version's schema knows, which serving must prune.
  spec.webhookJunk = 'x';
  if (spec.template) spec.template = { ...spec.template, metadata: { ...(spec.template.metadata ?? {}), bogus: 1 } };
  return { ...o, apiVersion: to, spec };
}

const template = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
const schema = (field: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, replicas: { type: 'integer' }, template } } } } });

function crd(storage: 'v1' | 'v2'): J {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: NAME },
    spec: {
      group: 'storagever.example.com', scope: 'Namespaced', names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
      conversion: { strategy: 'Webhook', webhook: { clientConfig: wh.clientConfig, conversionReviewVersions: ['v1'] } },
      versions: [
        { name: 'v1', served: true, storage: storage === 'v1', schema: schema('cronSpec') },
        { name: 'v2', served: true, storage: storage === 'v2', schema: schema('schedule') },
      ],
    },
  };
}

before(async () => {
  wh = await startConversionWebhook({ convert });
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  const r = await srv.request('POST', CRDS, { body: crd('v1') });
  assert.equal(r.status, 201, r.text);
  await waitFor(async () => (await srv.request('GET', V2)).status === 200);
});

after(async () => {
  await srv.stop();
  await wh.stop();
});

void test('objects stored in the old version go through the webhook after the storage version changes', async () => {
  const c = await srv.request('POST', V1, { body: { apiVersion: 'storagever.example.com/v1', kind: 'CronTab', metadata: { name: 'old' }, spec: { cronSpec: '1 1 * * *', replicas: 1 } } });
  assert.equal(c.status, 201, c.text);
  const cur = (await srv.request('GET', `${CRDS}/${NAME}`)).json();
  const r = await srv.request('PUT', `${CRDS}/${NAME}`, { body: { ...crd('v2'), metadata: cur.metadata } });
  assert.equal(r.status, 200, r.text);
  // The new storage version is served from the new generation once the controller rebuilt it.
  await waitFor(async () => {
    const g = (await srv.request('GET', `${V2}/old`)).json();
    return g.spec?.schedule === '1 1 * * *';
  });
  const asV2 = (await srv.request('GET', `${V2}/old`)).json();
  assert.equal(asV2.apiVersion, 'storagever.example.com/v2');
  assert.deepEqual(asV2.spec, { schedule: '1 1 * * *', replicas: 1 });
  const listed = (await srv.request('GET', V2)).json();
  assert.deepEqual(listed.items.map((i: J) => [i.apiVersion, i.spec]), [['storagever.example.com/v2', { schedule: '1 1 * * *', replicas: 1 }]]);
  // A write through the storage version must not lose the field it had under the old version.
  const p = await srv.request('PATCH', `${V2}/old`, { body: { spec: { replicas: 2 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
  assert.equal(p.status, 200, p.text);
  assert.deepEqual(p.json().spec, { schedule: '1 1 * * *', replicas: 2 });
  const back = (await srv.request('GET', `${V1}/old`)).json();
  assert.deepEqual(back.spec, { cronSpec: '1 1 * * *', replicas: 2 });
  // A watch through the storage version sees the object converted too.
  const w = await srv.request('GET', `${V2}?watch=1&timeoutSeconds=1`);
  const first = JSON.parse(w.text.split('\n')[0]!);
  assert.equal(first.object.apiVersion, 'storagever.example.com/v2');
  assert.equal(first.object.spec.schedule, '1 1 * * *');
  assert.equal(first.object.spec.webhookJunk, undefined);
});

void test('what the webhook returns is pruned and its embedded metadata coerced in the served version', async () => {
  const body = {
    apiVersion: 'storagever.example.com/v1', kind: 'CronTab', metadata: { name: 'junk' },
    spec: { cronSpec: '2 2 * * *', template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, extra: true } },
  };
  // Written through v1 (converted to the storage version v2), read back through both versions.
  const c = await srv.request('POST', V1, { body });
  assert.equal(c.status, 201, c.text);
  const want = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, extra: true };
  assert.deepEqual(c.json().spec, { cronSpec: '2 2 * * *', template: want });
  for (const [base, field] of [[V1, 'cronSpec'], [V2, 'schedule']] as const) {
    const g = (await srv.request('GET', `${base}/junk`)).json();
    assert.deepEqual(g.spec, { [field]: '2 2 * * *', template: want }, base);
    const l = (await srv.request('GET', base)).json();
    assert.deepEqual(l.items.find((i: J) => i.metadata.name === 'junk')?.spec, { [field]: '2 2 * * *', template: want }, base);
  }
});
