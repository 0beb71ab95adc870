// OwnerReferencesPermissionEnforcement (kube's plugin/pkg/admission/gc).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { Attributes } from '../../request/authorizer.ts';
import { ownerReferencesPermissionEnforcementPlugin } from './owner-references-permission-enforcement.ts';
import { pluginContext, refusal, request } from './testing/fake.ts';

const user = { username: 'bob', groups: [] };
const cm = (refs: unknown[]): KObject => ({ metadata: { name: 'x', ownerReferences: refs as never } });
const ref = (block?: boolean) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u1', ...(block === undefined ? {} : { blockOwnerDeletion: block }) });
const lookupKind = (g: string, v: string, k: string) => (g === 'apps' && v === 'v1' && k === 'Deployment' ? { resource: 'deployments', namespaced: true } : undefined);

void test('changing owner references needs delete; a new blocking reference needs update on the owner\'s finalizers', async () => {
  const grants = new Set(['delete configmaps']);
  const ctx = pluginContext({ lookupKind, authorize: (a: Attributes) => (grants.has(`${a.verb} ${a.resource}${a.subresource ? `/${a.subresource}` : ''}`) ? { kind: 'allow' } : { kind: 'no-opinion', reason: '' }) });
  const plugin = ownerReferencesPermissionEnforcementPlugin(ctx);
  await plugin.validate!(request({ resource: 'configmaps', namespace: 'ns', object: cm([ref(false)]), user }));
  const e = await refusal(plugin.validate!(request({ resource: 'configmaps', namespace: 'ns', object: cm([ref(true)]), user })));
  assert.equal(e.message, 'configmaps "x" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
  assert.deepEqual(ctx.asked.at(-1), { user, verb: 'update', isResourceRequest: true, path: '', apiGroup: 'apps', apiVersion: 'v1', namespace: 'ns', resource: 'deployments', subresource: 'finalizers', name: 'd' });
  grants.add('update deployments/finalizers');
  await plugin.validate!(request({ resource: 'configmaps', namespace: 'ns', object: cm([ref(true)]), user }));
  // Unchanged references need nothing; an unknown kind cannot be mapped.
  await plugin.validate!(request({ operation: 'UPDATE', resource: 'configmaps', namespace: 'ns', name: 'x', object: cm([ref(true)]), oldObject: cm([ref(true)]), user: { username: 'nobody', groups: [] } }));
  const unknown = await refusal(plugin.validate!(request({ resource: 'configmaps', namespace: 'ns', object: cm([{ ...ref(true), kind: 'Widget' }]), user })));
  assert.equal(unknown.message, 'configmaps "x" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion apps/v1 Kind Widget: no matches for kind "Widget" in version "apps/v1"');
  // Without delete on the object: a create may still name owners, an update may not change them.
  grants.delete('delete configmaps');
  await plugin.validate!(request({ resource: 'configmaps', namespace: 'ns', object: cm([ref()]), user }));
  const del = await refusal(plugin.validate!(request({ operation: 'UPDATE', resource: 'configmaps', namespace: 'ns', name: 'x', object: cm([ref()]), oldObject: cm([]), user })));
  assert.equal(del.message, 'configmaps "x" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
  assert.deepEqual(ctx.asked.at(-1), { user, verb: 'delete', isResourceRequest: true, path: '', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'configmaps', subresource: '', name: 'x' });
});
