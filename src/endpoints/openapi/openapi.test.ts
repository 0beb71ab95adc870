import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { createOpenApiEndpoint } from './index.ts';
import { fakeContext } from '../discovery/testing/support.ts';
import { v3Document, swaggerV2 } from './documents.ts';
import { definitionName, groupIdPart, tagOf } from '../../api/openapi/names.ts';
import { kubeReference } from '../../../test/support/kube-reference.ts';

const REF = kubeReference('openapi');
type Doc = { paths: Record<string, Record<string, unknown>>; components?: { schemas: Record<string, unknown> }; definitions?: Record<string, unknown> };
const refV3 = (key: string) => JSON.parse(readFileSync(join(REF, 'v3', `${key.replace(/\//g, '__')}_openapi.json`), 'utf8')) as Doc;
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];
const opts = { patchContentTypes: ['application/json-patch+json', 'application/merge-patch+json'] };

async function get(path: string, headers: Record<string, string> = {}, catalog = builtinCatalog()) {
  const ep = createOpenApiEndpoint({ catalog, warmAfterMs: -1 });
  const { ctx, done } = fakeContext(path, { headers });
  const handled = await ep(ctx);
  const r = done();
  return { handled, ...r, json: () => JSON.parse(r.body.toString()) as Record<string, unknown> };
}

/** For each path: method → [operationId, x-kubernetes-action, gvk, sorted param names (op + path level)]. */
function summary(doc: Doc, keepPath: (p: string) => boolean) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [p, item] of Object.entries(doc.paths)) {
    if (!keepPath(p)) continue;
    const pathParams = ((item['parameters'] ?? []) as Array<{ name?: string; $ref?: string }>).map((x) => x.name ?? x.$ref);
    const ops: Record<string, unknown> = {};
    for (const m of METHODS) {
      const op = item[m] as Record<string, unknown> | undefined;
      if (!op) continue;
      const names = ((op['parameters'] ?? []) as Array<{ name?: string; in?: string }>).filter((x) => x.in !== 'body').map((x) => x.name);
      ops[m] = [op['operationId'], op['x-kubernetes-action'], op['x-kubernetes-group-version-kind'], [...names].sort(), [...pathParams].sort(), op['tags']];
    }
    out[p] = ops;
  }
  return out;
}

// Sub-resources documented differently in v1.33: pods/resize is new; kube documents ephemeralcontainers.
const NOT_YET = /\/(ephemeralcontainers|resize)(\/|$)/;

void test('v3 group-version documents have kube paths, operation ids, actions and parameters', () => {
  const catalog = builtinCatalog();
  for (const g of catalog.groups()) {
    for (const v of g.versions) {
      const key = g.name ? `apis/${g.name}/${v}` : `api/${v}`;
      const ours = v3Document(catalog, key, opts) as unknown as Doc;
      const want = refV3(key);
      const servedPaths = new Set(Object.keys(ours.paths));
      const theirs = summary(want, (p) => servedPaths.has(p));
      const mine = summary(ours, (p) => p in want.paths);
      assert.deepEqual(mine, theirs, key);
      const missing = Object.keys(want.paths).filter((p) => !servedPaths.has(p) && !NOT_YET.test(p));
      assert.deepEqual(missing, [], `${key}: paths kube documents that we do not`);
      // Every kind schema is there with its GVK.
      for (const d of catalog.resourcesOf(g.name, v)) {
        const s = ours.components!.schemas[definitionName(d.group, d.version, d.kind)] as Record<string, unknown>;
        assert.deepEqual(s['x-kubernetes-group-version-kind'], [{ group: d.group, kind: d.kind, version: d.version }]);
        // IPAddress and ServiceCIDR became v1 in kube 1.33, after the v1.32 reference.
        if (d.group === 'networking.k8s.io' && ['ipaddresses', 'servicecidrs'].includes(d.resource)) continue;
        assert.ok(want.components!.schemas[definitionName(d.group, d.version, d.kind)], `${d.kind}: kube's definition name`);
      }
    }
  }
});

void test('every PATCH operation accepts fieldValidation (kubectl --validate=strict relies on it)', () => {
  const catalog = builtinCatalog();
  const doc = v3Document(catalog, 'api/v1', opts) as unknown as Doc;
  let patches = 0;
  for (const item of Object.values(doc.paths)) {
    const op = item['patch'] as { parameters: Array<{ name: string; in: string }>; 'x-kubernetes-group-version-kind': unknown; 'x-kubernetes-action': string } | undefined;
    // Proxies take PATCH too, passed through to the backend (action connect): no object, no field validation.
    if (!op || op['x-kubernetes-action'] === 'connect') continue;
    patches++;
    assert.ok(op.parameters.some((p) => p.name === 'fieldValidation' && p.in === 'query'));
    assert.ok(op['x-kubernetes-group-version-kind']);
  }
  assert.ok(patches > 10);
});

void test('swagger 2.0 document: same operation ids as kube for the paths we serve', () => {
  const catalog = builtinCatalog();
  const ours = swaggerV2(catalog, opts) as unknown as Doc;
  const want = JSON.parse(readFileSync(join(REF, 'swagger.json'), 'utf8')) as Doc;
  let compared = 0;
  for (const [p, item] of Object.entries(ours.paths)) {
    const w = want.paths[p];
    if (!w) continue;
    for (const m of METHODS) {
      const a = item[m] as Record<string, unknown> | undefined;
      const b = w[m] as Record<string, unknown> | undefined;
      assert.equal(Boolean(a), Boolean(b), `${m} ${p}`);
      if (!a || !b) continue;
      assert.equal(a['operationId'], b['operationId']);
      assert.deepEqual(a['x-kubernetes-group-version-kind'], b['x-kubernetes-group-version-kind']);
      compared++;
    }
  }
  assert.ok(compared > 400, `compared ${compared}`);
  // Placeholder kind schemas carry no GVK in v2, so kubectl falls back to its compiled-in types.
  assert.equal((ours.definitions!['io.k8s.api.apps.v1.Deployment'] as Record<string, unknown>)['x-kubernetes-group-version-kind'], undefined);
  assert.equal((ours as unknown as Record<string, unknown>)['swagger'], '2.0');
});

void test('/openapi/v3 index lists every document with a hash; hashes redirect and cache', async () => {
  const catalog = builtinCatalog();
  const idx = await get('/openapi/v3', {}, catalog);
  assert.equal(idx.status, 200);
  assert.equal(idx.headers['content-type'], 'application/json');
  const paths = idx.json()['paths'] as Record<string, { serverRelativeURL: string }>;
  const refIdx = Object.keys(paths);
  for (const k of ['api', 'api/v1', 'apis', 'apis/apps', 'apis/apps/v1', 'apis/autoscaling/v2', 'version']) assert.ok(refIdx.includes(k), k);
  for (const k of refIdx) {
    if (k === 'version') continue;
    assert.ok(existsSync(join(REF, 'v3', `${k.replace(/\//g, '__')}_openapi.json`)), `kube documents ${k}`);
  }
  const url = paths['apis/apps/v1']!.serverRelativeURL;
  assert.match(url, /^\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}$/);
  const doc = await get(url, {}, catalog);
  assert.equal(doc.status, 200);
  assert.equal(doc.headers['cache-control'], 'public, immutable');
  assert.ok(doc.headers['expires']);
  const etag = String(doc.headers['etag']);
  assert.equal(etag, `"${url.split('hash=')[1]}"`);
  const notModified = await get('/openapi/v3/apis/apps/v1', { 'if-none-match': etag }, catalog);
  assert.equal(notModified.status, 304);
  const stale = await get('/openapi/v3/apis/apps/v1?hash=ABC', {}, catalog);
  assert.equal(stale.status, 301);
  assert.equal(stale.headers['location'], url);
  assert.equal((await get('/openapi/v3/apis/nosuch/v1', {}, catalog)).status, 404);
  const group = (await get('/openapi/v3/apis/apps', {}, catalog)).json() as unknown as Doc;
  assert.deepEqual(Object.keys(group.paths), ['/apis/apps/']);
  assert.equal((group.paths['/apis/apps/']!['get'] as Record<string, unknown>)['operationId'], 'getAppsAPIGroup');
});

void test('/openapi/v2 serves JSON; unknown types get 406; others fall through', async () => {
  const v2 = await get('/openapi/v2', { accept: 'application/json' });
  assert.equal(v2.status, 200);
  assert.equal(v2.json()['swagger'], '2.0');
  const html = await get('/openapi/v2', { accept: 'text/html' });
  assert.equal(html.status, 406);
  const v3pb = await get('/openapi/v3/api/v1', { accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' });
  assert.equal(v3pb.status, 406);
  assert.equal((await get('/openapiv2')).handled, false);
  assert.equal((await get('/apis')).handled, false);
});

void test('naming helpers follow kube', () => {
  assert.equal(groupIdPart('rbac.authorization.k8s.io'), 'RbacAuthorization');
  assert.equal(groupIdPart('flowcontrol.apiserver.k8s.io'), 'FlowcontrolApiserver');
  assert.equal(tagOf('', 'v1'), 'core_v1');
  assert.equal(definitionName('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition'), 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition');
  assert.equal(definitionName('example.com', 'v1', 'Widget'), 'com.example.v1.Widget');
});

void test('background warm-up builds the same documents the first request would', async () => {
  const catalog = builtinCatalog();
  const warmed = createOpenApiEndpoint({ catalog, warmAfterMs: 0 });
  // Let the warm-up run to completion (one document per turn).
  for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
  const a = fakeContext('/openapi/v3');
  await warmed(a.ctx);
  const cold = await get('/openapi/v3', {}, catalog);
  assert.deepEqual(JSON.parse(a.done().body.toString()), cold.json());
});

void test('placeholder kind schemas list each top-level field with kube\'s JSON type', () => {
  const catalog = builtinCatalog();
  let checked = 0;
  for (const g of catalog.groups()) {
    for (const v of g.versions) {
      const key = g.name ? `apis/${g.name}/${v}` : `api/${v}`;
      const ours = v3Document(catalog, key, opts) as unknown as Doc;
      const want = refV3(key);
      for (const d of catalog.resourcesOf(g.name, v)) {
        const name = definitionName(d.group, d.version, d.kind);
        const w = want.components!.schemas[name] as { properties?: Record<string, { type?: string; allOf?: unknown; $ref?: string }> } | undefined;
        if (!w) continue;
        const o = ours.components!.schemas[name] as { properties: Record<string, { type?: string; allOf?: unknown }> };
        for (const [f, ws] of Object.entries(w.properties ?? {})) {
          if (f === 'metadata') continue;
          const os = o.properties[f];
          assert.ok(os, `${d.kind}.${f} listed`);
          // Resolve kube's $refs (Time, MicroTime and Quantity are strings on the wire).
          const refName = ws.$ref ?? ((ws.allOf as Array<{ $ref?: string }> | undefined)?.[0]?.$ref);
          const target = refName ? (want.components!.schemas[refName.split('/').pop()!] as { type?: string; oneOf?: Array<{ type?: string }> } | undefined) : undefined;
          const wantType = ws.type ?? target?.type ?? target?.oneOf?.[0]?.type ?? 'object';
          assert.equal(os.type ?? (os.allOf ? 'object' : undefined), wantType, `${d.kind}.${f} type`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 150, `checked ${checked}`);
});
