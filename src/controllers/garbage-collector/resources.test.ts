import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { deletableResources, ResourceResolver, UnknownKindError } from './resources.ts';

void test('deletable resources: one per storage location, top-level, list+watch+delete, core events ignored', () => {
  const defs = deletableResources(builtinCatalog().all());
  const names = defs.map((d) => `${d.resource}.${d.group}`);
  assert.equal(new Set(defs.map((d) => d.storagePrefix)).size, defs.length);
  for (const d of defs) {
    assert.ok(!d.virtual && !d.resource.includes('/'));
    for (const v of ['list', 'watch', 'delete'] as const) assert.ok(d.verbs.includes(v), `${d.resource} ${v}`);
  }
  assert.ok(names.includes('events.events.k8s.io'), 'events seen through events.k8s.io');
  assert.ok(!names.includes('events.'), 'core events ignored, as kube-controller-manager does');
  for (const n of ['pods.', 'deployments.apps', 'replicasets.apps', 'namespaces.', 'customresourcedefinitions.apiextensions.k8s.io']) assert.ok(names.includes(n), n);
  assert.ok(!names.includes('tokenreviews.authentication.k8s.io'));
});

void test('the resolver maps apiVersion + kind to the storage of exactly that version', () => {
  const catalog = builtinCatalog();
  const served = new Set<string>();
  const registry: RestRegistry = {
    lookup(group, version, resource) {
      served.add(`${group}/${version}/${resource}`);
      const def = catalog.lookup(group, version, resource);
      return def ? ({ def } as RestStorage) : undefined;
    },
  };
  const r = new ResourceResolver({ catalog, registry });
  assert.equal(r.resolve('apps/v1', 'Deployment').def.resource, 'deployments');
  assert.equal(r.resolve('v1', 'Pod').def.resource, 'pods');
  assert.equal(r.resolve('rbac.authorization.k8s.io/v1', 'ClusterRole').def.namespaced, false);
  assert.throws(() => r.resolve('apps/v1beta1', 'Deployment'), UnknownKindError);
  assert.throws(() => r.resolve('example.com/v1', 'Widget'), /unable to find the resource for Widget in example\.com\/v1/);
});
