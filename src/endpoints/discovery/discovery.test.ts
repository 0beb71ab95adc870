import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { createDiscoveryEndpoint } from './index.ts';
import { fakeContext } from './testing/support.ts';
import { negotiateDiscovery } from './negotiate.ts';
import { readKubeJson } from '../../../test/support/kube-reference.ts';

const ref = (f: string) => readKubeJson<Record<string, unknown>>('responses', f);
const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
// kubectl 1.33's discovery Accept header.
const KUBECTL_ACCEPT = 'application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/vnd.kubernetes.protobuf,application/json;q=0.9';

async function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const ep = createDiscoveryEndpoint({ catalog: builtinCatalog() });
  const { ctx, done } = fakeContext(path, { headers, method });
  const handled = await ep(ctx);
  const r = done();
  return { handled, ...r, json: () => JSON.parse(r.body.toString()) as Record<string, unknown> };
}

/** Same keys in the same order, recursively; arrays compared element-wise (lengths may differ where noted). */
function keysInOrder(a: unknown, b: unknown, path = '$'): void {
  if (Array.isArray(b)) {
    assert.ok(Array.isArray(a), path);
    return;
  }
  if (b && typeof b === 'object') {
    assert.ok(a && typeof a === 'object', path);
    assert.deepEqual(Object.keys(a as object), Object.keys(b), `key order at ${path}`);
    for (const k of Object.keys(b)) keysInOrder((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
  }
}

/** What kube 1.33 serves by default that the v1.32 reference does not. */
const NEW_IN_133 = new Set(['pods/resize', 'ipaddresses', 'servicecidrs', 'servicecidrs/status']);

/** Leaves out only what v1.33 added; every resource either side serves must be on the other. */
function commonResources<T extends { name?: string; resource?: string }>(oursIn: T[], theirs: T[]): [T[], T[]] {
  const id = (r: T) => r.name ?? r.resource ?? '';
  const ours = oursIn.filter((r) => !NEW_IN_133.has(id(r))).map((r) => {
    const subs = (r as { subresources?: Array<{ subresource: string }> }).subresources;
    if (!subs) return r;
    const kept = subs.filter((x) => !NEW_IN_133.has(`${id(r)}/${x.subresource}`));
    const copy = { ...r } as T & { subresources?: unknown[] };
    if (kept.length) copy.subresources = kept;
    else delete copy.subresources;
    return copy as T;
  });
  return [ours, theirs];
}

void test('/api answers APIVersions with the serving address', async () => {
  const r = await get('/api');
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], 'application/json');
  const want = ref('api.json');
  keysInOrder(r.json(), want);
  assert.deepEqual(r.json(), want);
});

void test('/apis lists the groups exactly as kube does', async () => {
  const r = await get('/apis');
  assert.deepEqual(r.json(), ref('apis.json'));
  const g = await get('/apis/autoscaling');
  const want = (ref('apis.json')['groups'] as Array<{ name: string }>).find((x) => x.name === 'autoscaling');
  assert.deepEqual(g.json(), { kind: 'APIGroup', apiVersion: 'v1', ...want });
});

void test('APIResourceLists match the reference for every group version (common resources)', async () => {
  const files = ['api__v1', ...builtinCatalog().groups().filter((g) => g.name).flatMap((g) => g.versions.map((v) => `apis__${g.name}__${v}`))];
  for (const f of files) {
    const path = '/' + f.replace(/__/g, '/');
    const r = await get(path);
    assert.equal(r.status, 200, path);
    const body = r.json();
    const want = ref(`discovery/${f}.json`);
    keysInOrder({ ...body, resources: [] }, { ...want, resources: [] }, path);
    const [ours, theirs] = commonResources(body['resources'] as Array<{ name: string }>, want['resources'] as Array<{ name: string }>);
    for (const [i, t] of theirs.entries()) keysInOrder(ours[i], t, `${path} ${t.name}`);
    assert.deepEqual(ours, theirs, path);
  }
});

void test('aggregated discovery v2 matches the reference for what we serve', async () => {
  for (const [path, file] of [['/api', 'api.aggregated-discovery.json'], ['/apis', 'apis.aggregated-discovery.json']] as const) {
    const r = await get(path, { accept: KUBECTL_ACCEPT });
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], AGG);
    assert.equal(r.headers['vary'], 'Accept');
    assert.match(String(r.headers['etag']), /^"[0-9A-F]{128}"$/);
    const body = r.json() as { items: Array<{ metadata: unknown; versions: Array<{ version: string; resources: Array<{ resource: string }> }> }> };
    const want = ref(file) as unknown as typeof body;
    keysInOrder({ ...body, items: [] }, { ...want, items: [] });
    assert.deepEqual(body.items.map((i) => i.metadata), want.items.map((i) => i.metadata));
    for (const [gi, wg] of want.items.entries()) {
      const og = body.items[gi]!;
      assert.deepEqual(og.versions.map((v) => v.version), wg.versions.map((v) => v.version));
      for (const [vi, wv] of wg.versions.entries()) {
        const ov = og.versions[vi]!;
        keysInOrder({ ...ov, resources: [] }, { ...wv, resources: [] });
        const [ours, theirs] = commonResources(ov.resources, wv.resources);
        for (const [i, t] of theirs.entries()) {
          const o = ours[i] as unknown as { subresources?: Array<{ subresource: string }> };
          const tt = t as unknown as { subresources?: Array<{ subresource: string }> };
          keysInOrder(o, t, `${path} ${t.resource}`);
        }
        assert.deepEqual(ours, theirs, `${path} ${wv.version}`);
      }
    }
  }
});

void test('ETag and If-None-Match give 304; v2beta1 is served too', async () => {
  const first = await get('/apis', { accept: AGG });
  const etag = String(first.headers['etag']);
  const again = await get('/apis', { accept: AGG, 'if-none-match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers['etag'], etag);
  const beta = await get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
  assert.equal(beta.json()['apiVersion'], 'apidiscovery.k8s.io/v2beta1');
  assert.equal(beta.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
});

void test('unknown paths fall through, bad Accept is 406, writes are 405', async () => {
  assert.equal((await get('/apis/nosuch.k8s.io')).handled, false);
  assert.equal((await get('/apis/apps/v9')).handled, false);
  assert.equal((await get('/api/v1/namespaces')).handled, false);
  assert.equal((await get('/healthz')).handled, false);
  const na = await get('/apis', { accept: 'text/html' });
  assert.equal(na.status, 406);
  assert.equal(na.json()['reason'], 'NotAcceptable');
  const post = await get('/apis', {}, 'POST');
  assert.equal(post.status, 405);
  const yaml = await get('/apis/apps/v1', { accept: 'application/yaml' });
  assert.equal(yaml.headers['content-type'], 'application/yaml');
  assert.match(yaml.body.toString(), /^kind: APIResourceList/);
});

void test('negotiation prefers higher q and skips aggregated types off /api and /apis', () => {
  assert.equal(negotiateDiscovery(`application/json;q=0.5,${AGG}`, true).kind, 'aggregated');
  assert.equal(negotiateDiscovery(`${AGG};q=0.1,application/json`, true).kind, 'legacy');
  assert.equal(negotiateDiscovery(AGG, false).kind, 'none');
  assert.equal(negotiateDiscovery(undefined, true).kind, 'legacy');
});
