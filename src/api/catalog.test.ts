import { builtinCatalog } from '../registry/resources/groups/index.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RuntimeConfigError } from './resources/runtime-config.ts';
import { kubeReference, readKubeJson } from '../../test/support/kube-reference.ts';

const REF = kubeReference('responses');

interface RefResource {
  name: string; singularName: string; namespaced: boolean; kind: string; verbs: string[];
  shortNames?: string[]; categories?: string[]; storageVersionHash?: string; group?: string; version?: string;
}

function refLists(): Array<{ groupVersion: string; resources: RefResource[] }> {
  return readdirSync(join(REF, 'discovery')).map((f) => JSON.parse(readFileSync(join(REF, 'discovery', f), 'utf8')));
}

const split = (gv: string) => (gv.includes('/') ? gv.split('/') as [string, string] : ['', gv] as [string, string]);

void test('every served resource matches kube-apiserver discovery (verbs, names, scope, hash)', () => {
  const cat = builtinCatalog();
  const ref = new Map<string, RefResource>();
  for (const l of refLists()) for (const r of l.resources) ref.set(`${l.groupVersion}|${r.name}`, r);
  const onlyOurs: string[] = [];
  for (const d of cat.all()) {
    const gv = d.group ? `${d.group}/${d.version}` : d.version;
    const r = ref.get(`${gv}|${d.resource}`);
    if (!r) { onlyOurs.push(`${gv}/${d.resource}`); continue; }
    assert.equal(d.kind, r.kind, d.resource);
    assert.equal(d.singular, r.singularName, d.resource);
    assert.equal(d.namespaced, r.namespaced, d.resource);
    assert.deepEqual([...d.verbs].sort(), [...r.verbs].sort(), `${gv} ${d.resource} verbs`);
    assert.deepEqual(d.shortNames ?? [], r.shortNames ?? [], `${gv} ${d.resource} shortNames`);
    assert.deepEqual(d.categories ?? [], r.categories ?? [], `${gv} ${d.resource} categories`);
    assert.equal(cat.storageVersionHash(d), r.storageVersionHash, `${gv} ${d.resource} storageVersionHash`);
    for (const s of d.subresources ?? []) {
      // pods/resize is new in kube 1.33 (in-place resize beta, on by default): absent from the v1.32 reference.
      if (gv === 'v1' && `${d.resource}/${s.name}` === 'pods/resize') continue;
      const rs = ref.get(`${gv}|${d.resource}/${s.name}`);
      assert.ok(rs, `${gv} ${d.resource}/${s.name} is served by kube`);
      assert.deepEqual([...s.verbs].sort(), [...rs.verbs].sort(), `${d.resource}/${s.name} verbs`);
      assert.equal(s.kind?.kind ?? d.kind, rs.kind);
      // Kinds of the parent's own group version are listed bare (no group/version), as kube lists them.
      const own = s.kind && s.kind.group === d.group && s.kind.version === d.version;
      assert.equal(own ? undefined : s.kind?.group, rs.group);
      assert.equal(own ? undefined : s.kind?.version, rs.version);
    }
  }
  // Resources kube v1.33 serves that v1.32 (the reference) did not.
  assert.deepEqual(onlyOurs.sort(), ['networking.k8s.io/v1/ipaddresses', 'networking.k8s.io/v1/servicecidrs']);
});

void test('groups come in kube order with preferred versions first', () => {
  const cat = builtinCatalog();
  const ref = JSON.parse(readFileSync(join(REF, 'apis.json'), 'utf8')) as { groups: Array<{ name: string; versions: Array<{ version: string }>; preferredVersion: { version: string } }> };
  const ours = cat.groups().filter((g) => g.name !== '');
  assert.deepEqual(ours.map((g) => g.name), ref.groups.map((g) => g.name));
  for (const [i, g] of ref.groups.entries()) {
    assert.deepEqual(ours[i]!.versions, g.versions.map((v) => v.version));
    assert.equal(ours[i]!.preferredVersion, g.preferredVersion.version);
  }
  assert.deepEqual(cat.groups()[0], { name: '', versions: ['v1'], preferredVersion: 'v1' });
});

void test('storage layout follows kube-apiserver', () => {
  const cat = builtinCatalog();
  const prefix = (g: string, r: string) => cat.lookup(g, g === '' ? 'v1' : (cat.groups().find((x) => x.name === g)!.preferredVersion), r)!.storagePrefix;
  assert.equal(prefix('', 'services'), '/registry/services/specs/');
  assert.equal(prefix('', 'endpoints'), '/registry/services/endpoints/');
  assert.equal(prefix('', 'nodes'), '/registry/minions/');
  assert.equal(prefix('', 'replicationcontrollers'), '/registry/controllers/');
  assert.equal(prefix('networking.k8s.io', 'ingresses'), '/registry/ingress/');
  assert.equal(prefix('apiextensions.k8s.io', 'customresourcedefinitions'), '/registry/apiextensions.k8s.io/customresourcedefinitions/');
  assert.equal(prefix('events.k8s.io', 'events'), prefix('', 'events'));
  assert.equal(cat.lookup('autoscaling', 'v1', 'horizontalpodautoscalers')!.storageVersion, 'v2');
  assert.equal(cat.lookup('', 'v1', 'namespaces')!.nameRule, 'dns1123-label');
  assert.equal(cat.lookup('rbac.authorization.k8s.io', 'v1', 'roles')!.nameRule, 'path-segment');
  assert.equal(cat.lookupKind('apps', 'v1', 'Deployment')!.resource, 'deployments');
  assert.equal(cat.lookupKind('apps', 'v1', 'deployment'), undefined);
});

void test('runtime-config turns versions off and on, and rejects what it does not know', () => {
  assert.equal(builtinCatalog({ runtimeConfig: { 'batch/v1': 'false' } }).lookup('batch', 'v1', 'jobs'), undefined);
  const noAll = builtinCatalog({ runtimeConfig: { 'api/all': 'false', 'v1': 'true' } });
  assert.deepEqual(noAll.groups().map((g) => g.name), ['']);
  const onlyApps = builtinCatalog({ runtimeConfig: { 'api/all': 'false', 'apps/v1': 'true' } });
  assert.deepEqual(onlyApps.groups().map((g) => g.name), ['apps']);
  const noV1 = builtinCatalog({ runtimeConfig: { 'autoscaling/v1': 'false' } });
  assert.deepEqual(noV1.groups().find((g) => g.name === 'autoscaling')!.versions, ['v2']);
  assert.throws(() => builtinCatalog({ runtimeConfig: { 'nosuch.k8s.io/v1': 'true' } }), RuntimeConfigError);
  assert.throws(() => builtinCatalog({ runtimeConfig: { 'batch/v1': 'maybe' } }), RuntimeConfigError);
  assert.throws(() => builtinCatalog({ runtimeConfig: { 'batch/v1/jobs': 'false' } }), RuntimeConfigError);
});

void test('add/remove notify listeners and update lookups', () => {
  const cat = builtinCatalog();
  const seen: string[] = [];
  const off = cat.onChange((c) => seen.push(`${c.type}:${c.def.resource}`));
  const def = { group: 'example.com', version: 'v1', resource: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList',
    namespaced: true, verbs: ['get' as const], nameRule: 'dns1123-subdomain' as const, storagePrefix: '/registry/example.com/widgets/' };
  cat.add(def);
  assert.equal(cat.lookupKind('example.com', 'v1', 'Widget'), def);
  assert.equal(cat.groups().at(-1)!.name, 'example.com');
  assert.equal(cat.remove(def), true);
  assert.equal(cat.lookup('example.com', 'v1', 'widgets'), undefined);
  assert.equal(cat.groups().some((g) => g.name === 'example.com'), false);
  off();
  cat.add(def);
  assert.deepEqual(seen, ['added:widgets', 'removed:widgets']);
});

void test('top-level fields of every kind match the published OpenAPI (strict field validation relies on them)', () => {
  const swagger = readKubeJson('openapi/swagger.json') as { definitions: Record<string, { properties?: Record<string, unknown>; 'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }> }> };
  const byGvk = new Map<string, string[]>();
  for (const d of Object.values(swagger.definitions)) {
    for (const g of d['x-kubernetes-group-version-kind'] ?? []) byGvk.set(`${g.group}/${g.version}/${g.kind}`, Object.keys(d.properties ?? {}));
  }
  for (const d of builtinCatalog().all()) {
    const want = byGvk.get(`${d.group}/${d.version}/${d.kind}`);
    if (!want) continue; // kinds newer than the v1.32 reference
    const ours = (d as { topLevelFields?: readonly string[] }).topLevelFields;
    assert.deepEqual([...(ours ?? [])].sort(), want.filter((k) => !['apiVersion', 'kind', 'metadata'].includes(k)).sort(), `${d.group}/${d.version} ${d.kind}`);
  }
});

void test('DELETE returns the object for pods, services and service accounts (kube\'s ReturnDeletedObject)', () => {
  const c = builtinCatalog();
  const returns = c.all().filter((d) => (d as { returnDeletedObject?: boolean }).returnDeletedObject).map((d) => d.resource).sort();
  assert.deepEqual(returns, ['pods', 'serviceaccounts', 'services']);
});
