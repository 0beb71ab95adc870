import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OwnerReference } from '../../machinery/objects.ts';
import { DependencyGraph, type Identity, referenceMatches } from './graph.ts';

const id = (name: string, uid: string, namespace = 'ns', kind = 'ConfigMap', apiVersion = 'v1'): Identity => ({ apiVersion, kind, name, namespace, uid });
const ref = (i: Identity, extra: Partial<OwnerReference> = {}): OwnerReference => ({ apiVersion: i.apiVersion, kind: i.kind, name: i.name, uid: i.uid, ...extra });

void test('owners link both ways; unknown owners become virtual nodes at the dependent\'s namespace', () => {
  const g = new DependencyGraph();
  const a = g.observe(id('a', 'ua')).node;
  const { node: dep } = g.observe(id('dep', 'ud'));
  const diff = g.setOwners(dep, [ref(a.identity), { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: 'ux' }]);
  assert.deepEqual(diff.added.map((n) => n.uid), ['ua', 'ux']);
  assert.deepEqual(diff.newVirtual.map((n) => n.uid), ['ux']);
  const x = g.get('ux')!;
  assert.equal(x.observed, false);
  assert.deepEqual(x.identity, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', namespace: 'ns', uid: 'ux' });
  assert.ok(a.dependents.has(dep) && x.dependents.has(dep));

  // Dropping the reference to the virtual owner drops the virtual node; the observed owner stays while linked.
  const d2 = g.setOwners(dep, [ref(a.identity)]);
  assert.deepEqual(d2.released.map((n) => n.uid), ['ux']);
  assert.equal(g.get('ux'), undefined);
  assert.equal(g.get('ua'), a);
});

void test('a reference that stops blocking releases the owner; duplicate uids count once', () => {
  const g = new DependencyGraph();
  const a = g.observe(id('a', 'ua')).node;
  const dep = g.observe(id('dep', 'ud')).node;
  g.setOwners(dep, [ref(a.identity, { blockOwnerDeletion: true }), ref(a.identity)]);
  assert.equal(dep.owners.length, 1);
  assert.deepEqual(a.blockingDependents(), [dep]);
  const diff = g.setOwners(dep, [ref(a.identity, { blockOwnerDeletion: false })]);
  assert.deepEqual(diff.released, [a]);
  assert.deepEqual(diff.added, []);
  assert.deepEqual(a.blockingDependents(), []);
});

void test('a removed object with dependents stays as a virtual node until they let go', () => {
  const g = new DependencyGraph();
  const owner = g.observe(id('o', 'uo')).node;
  const dep = g.observe(id('d', 'ud')).node;
  g.setOwners(dep, [ref(owner.identity)]);
  owner.beingDeleted = true;
  assert.deepEqual(g.remove(owner), []);
  assert.equal(g.get('uo'), owner);
  assert.equal(owner.observed, false);
  assert.equal(owner.beingDeleted, false);
  assert.deepEqual(g.remove(dep), [owner]);
  assert.equal(g.get('uo'), undefined);
  assert.equal(g.get('ud'), undefined);
  assert.equal(g.size, 0);
});

void test('idle observed objects are not kept; being deleted keeps them', () => {
  const g = new DependencyGraph();
  const n = g.observe(id('n', 'un')).node;
  n.beingDeleted = true;
  g.dropIfIdle(n);
  assert.equal(g.get('un'), n);
  n.beingDeleted = false;
  g.dropIfIdle(n);
  assert.equal(g.get('un'), undefined);
});

void test('referenceMatches: group (any version), kind, name, and namespace for namespaced owners', () => {
  const owner = id('web', 'u1', 'ns', 'Deployment', 'apps/v1');
  assert.equal(referenceMatches(owner, ref(owner), 'ns'), true);
  assert.equal(referenceMatches(owner, { ...ref(owner), apiVersion: 'apps/v1beta2' }, 'ns'), true);
  assert.equal(referenceMatches(owner, { ...ref(owner), apiVersion: 'extensions/v1beta1' }, 'ns'), false);
  assert.equal(referenceMatches(owner, { ...ref(owner), name: 'other' }, 'ns'), false);
  assert.equal(referenceMatches(owner, { ...ref(owner), kind: 'StatefulSet' }, 'ns'), false);
  assert.equal(referenceMatches(owner, ref(owner), 'elsewhere'), false);
  const clusterOwner = id('admin', 'u2', '', 'ClusterRole', 'rbac.authorization.k8s.io/v1');
  assert.equal(referenceMatches(clusterOwner, ref(clusterOwner), 'anywhere'), true);
});
