// ValidateObjectMetaAccessor / ValidateObjectMetaAccessorUpdate (k8s.io/apimachinery/pkg/api/validation/
// objectmeta.go) and core's validateKubeFinalizerName.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ObjectMeta } from '../../machinery/objects.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.ts';

const ns = { namespaced: true, nameRule: 'dns1123-subdomain' as const };
const m = (meta: Record<string, unknown>, opts = ns) => validateObjectMeta(meta as ObjectMeta, opts).map(String);

const cases: [string, Record<string, unknown>, string[], typeof ns | { namespaced: boolean; nameRule: 'dns1123-label' | 'dns1035-label' | 'path-segment' }][] = [
  ['valid', { name: 'a', namespace: 'default' }, [], ns],
  ['no name', { namespace: 'default' }, ['metadata.name: Required value: name or generateName is required'], ns],
  ['no namespace', { name: 'a' }, ['metadata.namespace: Required value'], ns],
  ['namespace on cluster kind', { name: 'a', namespace: 'x' }, ['metadata.namespace: Forbidden: not allowed on this type'], { namespaced: false, nameRule: 'dns1123-label' }],
  ['service name rule', { name: '1web', namespace: 'd' }, [
    `metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
  ], { namespaced: true, nameRule: 'dns1035-label' }],
  ['path segment name', { name: 'a/b' }, [`metadata.name: Invalid value: "a/b": may not contain '/'`], { namespaced: false, nameRule: 'path-segment' }],
  ['generateName trailing dash ok', { generateName: 'web-', name: 'web-x1', namespace: 'd' }, [], ns],
  ['negative generation', { name: 'a', namespace: 'd', generation: -1 }, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'], ns],
  ['bad label key', { name: 'a', namespace: 'd', labels: { '-x': 'y' } }, [
    `metadata.labels: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  ], ns],
  ['annotations too big', { name: 'a', namespace: 'd', annotations: { k: 'x'.repeat(256 * 1024) } }, ['metadata.annotations: Too long: may not be more than 262144 bytes'], ns],
  ['owner refs', { name: 'a', namespace: 'd', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet' }] }, [
    'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
  ], ns],
  ['two controllers', { name: 'a', namespace: 'd', ownerReferences: [
    { apiVersion: 'v1', kind: 'A', name: 'x', uid: '1', controller: true },
    { apiVersion: 'v1', kind: 'B', name: 'y', uid: '2', controller: true },
  ] }, [
    'metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:"v1", Kind:"A", Name:"x", UID:"1", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}, v1.OwnerReference{APIVersion:"v1", Kind:"B", Name:"y", UID:"2", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference can have Controller set to true. Found "true" in references for A/x and B/y',
  ], ns],
  ['event owner banned', { name: 'a', namespace: 'd', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: '1' }] }, [
    'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"e", UID:"1", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
  ], ns],
  ['finalizers', { name: 'a', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion', 'custom'] }, [
    'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion", "custom"}: finalizer orphan and foregroundDeletion cannot be both set',
    'metadata.finalizers[2]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
  ], ns],
];

for (const [name, meta, want, opts] of cases) test(`object meta: ${name}`, () => assert.deepEqual(m(meta, opts as typeof ns), want));

test('object meta update: immutable identity, resourceVersion, generation, finalizers while deleting', () => {
  const old = { name: 'a', namespace: 'd', uid: 'u1', generation: 3, creationTimestamp: '2024-01-01T00:00:00Z', deletionTimestamp: '2024-01-02T00:00:00Z', finalizers: ['x/y'] };
  const next = { name: 'b', namespace: 'd', uid: 'u2', generation: 2, creationTimestamp: '2024-01-01T00:00:00Z', deletionTimestamp: '2024-01-02T00:00:00Z', finalizers: ['x/y', 'b/c', 'a/z'] };
  assert.deepEqual(validateObjectMetaUpdate(next as ObjectMeta, old as ObjectMeta).map(String), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/z", "b/c"}',
    'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    'metadata.generation: Invalid value: 2: must not be decremented',
    'metadata.name: Invalid value: "b": field is immutable',
    'metadata.uid: Invalid value: "u2": field is immutable',
  ]);
});
