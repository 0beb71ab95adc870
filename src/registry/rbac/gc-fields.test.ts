import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { isOnlyMutatingGCFields } from './gc-fields.ts';

const old = {
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role',
  metadata: { name: 'r', namespace: 'n', resourceVersion: '5', labels: { a: 'b' }, finalizers: ['x'] },
  rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
} as unknown as KObject;

const withMeta = (m: object, extra: object = {}) => ({ ...old, ...extra, metadata: { ...old.metadata, ...m } }) as KObject;

void test('only ownerReferences, finalizers, selfLink or managedFields changed: true', () => {
  assert.equal(isOnlyMutatingGCFields(withMeta({ finalizers: [] }), old), true);
  assert.equal(isOnlyMutatingGCFields(withMeta({ ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'u' }] }), old), true);
  assert.equal(isOnlyMutatingGCFields(withMeta({ managedFields: [{ manager: 'm' }], selfLink: '/x' }), old), true);
  assert.equal(isOnlyMutatingGCFields(old, old), true);
});

void test('anything else changed, or no old object: false; zero values equal absent ones', () => {
  assert.equal(isOnlyMutatingGCFields(withMeta({ labels: { a: 'c' } }), old), false);
  assert.equal(isOnlyMutatingGCFields(withMeta({}, { rules: [] }), old), false);
  assert.equal(isOnlyMutatingGCFields(withMeta({ finalizers: [] }, { rules: [...(old as any).rules, { verbs: ['get'], nonResourceURLs: ['/x'] }] }), old), false);
  assert.equal(isOnlyMutatingGCFields(old, undefined), false);
  assert.equal(isOnlyMutatingGCFields(withMeta({ annotations: {} }), old), true);
  assert.equal(isOnlyMutatingGCFields(withMeta({ generateName: '' }), old), true);
});
