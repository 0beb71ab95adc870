/**
 * Deprecation signals end to end over the resource endpoint with a test catalog entry marked deprecated:
 * Warning header, audit annotations on the request context, and apiserver_requested_deprecated_apis on /metrics.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResourceEndpoint } from '../endpoints/resource-endpoint.ts';
import { createMetricsEndpoint, Metrics } from '../endpoints/metrics.ts';
import { FakeRegistry, resourceDef, serveEndpoint, type TestServer } from '../endpoints/handlers/testing/fake-storage.ts';
import type { Endpoint } from '../request/context.ts';
import { DEPRECATED_ANNOTATION, REMOVED_RELEASE_ANNOTATION, signalDeprecatedUse } from './deprecated-api.ts';

let server: TestServer;
const metrics = new Metrics();
const annotations: (Record<string, string> | undefined)[] = [];
const WARNING = 'example.com/v1beta1 Widget is deprecated in v1.40+, unavailable in v1.43+; use example.com/v1 Widget';

before(async () => {
  const reg = new FakeRegistry();
  reg.add(resourceDef({
    group: 'example.com', version: 'v1beta1', resource: 'widgets', kind: 'Widget',
    deprecation: { warning: WARNING, removedRelease: '1.43' },
    subresources: [{ name: 'status', verbs: ['get', 'update', 'patch'] }],
  }));
  reg.add(resourceDef({ group: 'example.com', version: 'v1alpha1', resource: 'gadgets', kind: 'Gadget', deprecation: { warning: 'gadgets are going' } }));
  reg.add(resourceDef({ group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget' }));
  const resources = createResourceEndpoint({ registry: reg, onDeprecatedRequest: (u) => metrics.recordDeprecatedRequest(u) });
  const metricsEp = createMetricsEndpoint(metrics);
  const endpoint: Endpoint = async (ctx) => {
    if (await metricsEp(ctx)) return true;
    const handled = await resources(ctx);
    if (ctx.info.isResourceRequest) annotations.push(ctx.auditAnnotations);
    return handled;
  };
  server = await serveEndpoint(endpoint);
});
after(async () => {
  await server.close();
});

void test('a request to a stable version carries no deprecation signal', async () => {
  annotations.length = 0;
  const r = await fetch(`${server.url}/apis/example.com/v1/namespaces/ns/widgets`);
  await r.text();
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('warning'), null);
  assert.deepEqual(annotations, [undefined]);
  assert.doesNotMatch(await (await fetch(`${server.url}/metrics`)).text(), /apiserver_requested_deprecated_apis/);
});

void test('a deprecated version: Warning header, audit annotations, gauge per resource and subresource', async () => {
  annotations.length = 0;
  const list = await fetch(`${server.url}/apis/example.com/v1beta1/namespaces/ns/widgets`);
  await list.text();
  assert.equal(list.status, 200);
  assert.equal(list.headers.get('warning'), `299 - "${WARNING}"`);
  const status = await fetch(`${server.url}/apis/example.com/v1beta1/namespaces/ns/widgets/w1/status`);
  await status.text();
  const gadgets = await fetch(`${server.url}/apis/example.com/v1alpha1/namespaces/ns/gadgets`);
  await gadgets.text();
  assert.deepEqual(annotations, [
    { [DEPRECATED_ANNOTATION]: 'true', [REMOVED_RELEASE_ANNOTATION]: '1.43' },
    { [DEPRECATED_ANNOTATION]: 'true', [REMOVED_RELEASE_ANNOTATION]: '1.43' },
    { [DEPRECATED_ANNOTATION]: 'true' },
  ]);
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const lines = text.split('\n').filter((l) => l.includes('apiserver_requested_deprecated_apis'));
  assert.deepEqual(lines, [
    '# HELP apiserver_requested_deprecated_apis [STABLE] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    '# TYPE apiserver_requested_deprecated_apis gauge',
    'apiserver_requested_deprecated_apis{group="example.com",removed_release="",resource="gadgets",subresource="",version="v1alpha1"} 1',
    'apiserver_requested_deprecated_apis{group="example.com",removed_release="1.43",resource="widgets",subresource="",version="v1beta1"} 1',
    'apiserver_requested_deprecated_apis{group="example.com",removed_release="1.43",resource="widgets",subresource="status",version="v1beta1"} 1',
  ]);
  // Other families are still there (apiserver_request_total needs the chain's filter, absent here; an empty
  // vector is not written, as client_golang does).
  assert.match(text, /# TYPE apiserver_current_inflight_requests gauge/);
  assert.doesNotMatch(text, /# TYPE apiserver_request_total counter/);
});

void test('signalDeprecatedUse keeps annotations already on the context', () => {
  const ctx: { auditAnnotations?: Record<string, string> } = { auditAnnotations: { other: 'x' } };
  const seen: string[] = [];
  signalDeprecatedUse(ctx, { group: 'g', version: 'v1beta1', resource: 'r', subresource: '', removedRelease: '' }, (u) => seen.push(u.resource));
  assert.deepEqual(ctx.auditAnnotations, { other: 'x', [DEPRECATED_ANNOTATION]: 'true' });
  assert.deepEqual(seen, ['r']);
});
