import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../machinery/errors.ts';
import { rootNodeFor } from './schema-view.ts';
import { applyStrategicMergePatch } from './strategic-merge.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const pod = rootNodeFor('v1', 'Pod')!;
const deploy = rootNodeFor('apps/v1', 'Deployment')!;
const cm = rootNodeFor('v1', 'ConfigMap')!;

interface Case { name: string; original: object; patch: object; want: object; view?: typeof pod }

const podSpec = (spec: object): object => ({ spec });

const cases: Case[] = [
  { name: 'maps merge recursively, null deletes', original: { metadata: { labels: { a: '1', b: '2' } } }, patch: { metadata: { labels: { b: null, c: '3' } } }, want: { metadata: { labels: { a: '1', c: '3' } } } },
  { name: 'null for an absent key is ignored', original: { metadata: { labels: { a: '1' } } }, patch: { metadata: { annotations: { x: null } } }, want: { metadata: { labels: { a: '1' }, annotations: {} } } },
  { name: 'nulls inside a new subtree are dropped', original: {}, patch: { metadata: { labels: { a: '1', b: null } } }, want: { metadata: { labels: { a: '1' } } } },
  {
    name: 'containers merge by name; new ones appended after patch order rules',
    original: podSpec({ containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] }),
    patch: podSpec({ containers: [{ name: 'b', image: 'b:2' }, { name: 'c', image: 'c:1' }] }),
    want: podSpec({ containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }, { name: 'c', image: 'c:1' }] }),
  },
  {
    name: 'lists without merge strategy are replaced (args, tolerations)',
    original: podSpec({ containers: [{ name: 'a', args: ['x', 'y'] }], tolerations: [{ key: 'k' }] }),
    patch: podSpec({ containers: [{ name: 'a', args: ['z'] }], tolerations: [{ key: 'j' }] }),
    want: podSpec({ containers: [{ name: 'a', args: ['z'] }], tolerations: [{ key: 'j' }] }),
  },
  {
    name: '$patch: delete removes the item with that key',
    original: podSpec({ containers: [{ name: 'a' }, { name: 'b' }] }),
    patch: podSpec({ containers: [{ name: 'a', $patch: 'delete' }] }),
    want: podSpec({ containers: [{ name: 'b' }] }),
  },
  {
    name: '$patch: replace on a list replaces it with the other items',
    original: podSpec({ containers: [{ name: 'a', image: 'x' }, { name: 'b' }] }),
    patch: podSpec({ containers: [{ name: 'c' }, { $patch: 'replace' }] }),
    want: podSpec({ containers: [{ name: 'c' }] }),
  },
  {
    name: '$patch: replace on a map replaces the map',
    original: { metadata: { labels: { a: '1' } }, spec: { nodeSelector: { a: '1' } } },
    patch: { spec: { nodeSelector: { b: '2', $patch: 'replace' } } },
    want: { metadata: { labels: { a: '1' } }, spec: { nodeSelector: { b: '2' } } },
  },
  { name: '$patch: delete on a map empties it', original: { metadata: { labels: { a: '1' } } }, patch: { metadata: { labels: { $patch: 'delete' } } }, want: { metadata: { labels: {} } } },
  {
    name: 'primitive list with merge strategy: union, patch items first when unordered',
    original: { metadata: { finalizers: ['a', 'b'] } }, patch: { metadata: { finalizers: ['c', 'a'] } },
    want: { metadata: { finalizers: ['c', 'a', 'b'] } },
  },
  {
    name: '$deleteFromPrimitiveList removes scalars',
    original: { metadata: { finalizers: ['a', 'b', 'c'] } }, patch: { metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] } },
    want: { metadata: { finalizers: ['a', 'c'] } },
  },
  {
    name: '$setElementOrder orders the merged list',
    original: podSpec({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
    patch: podSpec({ '$setElementOrder/containers': [{ name: 'c' }, { name: 'b' }, { name: 'a' }], containers: [{ name: 'b', image: 'x' }] }),
    want: podSpec({ containers: [{ name: 'c' }, { name: 'b', image: 'x' }, { name: 'a' }] }),
  },
  {
    name: '$retainKeys clears the union members not listed',
    original: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
    patch: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    want: { spec: { strategy: { type: 'Recreate' } } }, view: deploy,
  },
  {
    name: 'volumes merge by name with retainKeys on the item',
    original: podSpec({ volumes: [{ name: 'v', emptyDir: {} }] }),
    patch: podSpec({ volumes: [{ name: 'v', $retainKeys: ['name', 'configMap'], configMap: { name: 'cm' } }] }),
    want: podSpec({ volumes: [{ name: 'v', configMap: { name: 'cm' } }] }),
  },
  {
    name: 'env merge with null deleting a field of an item',
    original: podSpec({ containers: [{ name: 'a', env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }] }] }),
    patch: podSpec({ containers: [{ name: 'a', env: [{ name: 'X', value: null, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }] }),
    want: podSpec({ containers: [{ name: 'a', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'Y', value: '2' }] }] }),
  },
  {
    name: 'ports merge by containerPort (the patch merge key, not the list map keys)',
    original: podSpec({ containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }] }] }),
    patch: podSpec({ containers: [{ name: 'a', ports: [{ containerPort: 80, name: 'http' }] }] }),
    want: podSpec({ containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }] }),
  },
  { name: 'a value of another shape replaces', original: { metadata: { labels: { a: '1' } } }, patch: { metadata: { labels: ['x'] } }, want: { metadata: { labels: ['x'] } }, view: undefined },
];

for (const c of cases) {
  test(`SMP: ${c.name}`, () => {
    const view = c.view ?? pod;
    if (c.name === 'a value of another shape replaces') {
      // Merging is shape-blind; the typed check afterwards rejects it.
      assert.throws(() => applyStrategicMergePatch(c.original, c.patch, view), (e: unknown) => e instanceof StatusError && e.code === 422 && /cannot restore map from slice/.test(e.message));
      return;
    }
    const before = JSON.stringify(c.original);
    const patchBefore = JSON.stringify(c.patch);
    assert.deepEqual(applyStrategicMergePatch(c.original, c.patch, view), c.want);
    assert.equal(JSON.stringify(c.original), before, 'original untouched');
    assert.equal(JSON.stringify(c.patch), patchBefore, 'patch untouched');
  });
}

test('SMP: wrong type is the 422 kube answers, byte for byte', () => {
  const ref = readKubeJson('responses/errors/422-smp-bad-type.json') as unknown;
  try {
    applyStrategicMergePatch({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } }, { data: 5 }, cm);
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.deepEqual(e.toStatus(), ref);
  }
});

test('SMP: converter wording for scalars', () => {
  const cases: Array<[object, RegExp]> = [
    [{ data: { a: 5 } }, /cannot convert int64 to string/],
    [{ data: { a: true } }, /unrecognized type: string/],
    [{ immutable: 'yes' }, /unrecognized type: bool/],
    [{ metadata: 'x' }, /cannot restore struct from: string/],
  ];
  for (const [patch, re] of cases) {
    assert.throws(() => applyStrategicMergePatch({ metadata: { name: 'x' } }, patch, cm), (e: unknown) => e instanceof StatusError && e.code === 422 && re.test(e.message));
  }
  assert.throws(() => applyStrategicMergePatch({}, { spec: { replicas: 1.5 } }, deploy), /cannot convert float64 to int32/);
  assert.deepEqual(applyStrategicMergePatch({}, { spec: { replicas: 3 } }, deploy), { spec: { replicas: 3 } });
});

test('SMP: directive errors carry kube status codes', () => {
  const status = (f: () => unknown): [number, string] => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof StatusError);
      return [e.code, e.message];
    }
    assert.fail('expected an error');
  };
  assert.deepEqual(status(() => applyStrategicMergePatch({ metadata: { name: 'x' } }, { metadata: { $patch: 'foo' } }, pod)), [500, 'unknown patch type: foo in map: map[$patch:foo]']);
  assert.deepEqual(status(() => applyStrategicMergePatch({ spec: { strategy: {} } }, { spec: { strategy: { $retainKeys: 'type' } } }, deploy)), [400, 'invalid patch format of retainKeys']);
  assert.deepEqual(status(() => applyStrategicMergePatch({ spec: { strategy: {} } }, { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }, deploy)), [400, 'invalid patch format of retainKeys']);
  assert.deepEqual(status(() => applyStrategicMergePatch(podSpec({ containers: [{ name: 'a' }] }), podSpec({ containers: [{ image: 'x' }] }), pod)), [500, 'map: map[image:x] does not contain declared merge key: name']);
  assert.deepEqual(status(() => applyStrategicMergePatch(podSpec({ containers: [{ name: 'a' }] }), podSpec({ containers: [{ name: 'a', $patch: 'merge' }] }), pod)), [500, 'merging lists cannot yet be specified in the patch']);
  assert.deepEqual(status(() => applyStrategicMergePatch({ metadata: { finalizers: [['a']] } }, { metadata: { finalizers: [['b']] } }, pod))[0], 422);
  const [code, msg] = status(() => applyStrategicMergePatch(podSpec({ containers: [{ name: 'a' }, { name: 'b' }] }),
    podSpec({ '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b' }] }), pod));
  assert.equal(code, 500);
  assert.match(msg, /doesn't match \$setElementOrder list/);
});

test('SMP: a three-way patch kubectl apply sends for a Deployment edit', () => {
  // Live object: created by a previous kubectl apply, then scaled and defaulted by the server.
  const live = {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"old":true}' }, labels: { app: 'web', tier: 'fe' } },
    spec: {
      replicas: 5, selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.25', env: [{ name: 'MODE', value: 'prod' }, { name: 'DEBUG', value: '1' }], imagePullPolicy: 'IfNotPresent' },
            { name: 'sidecar', image: 'busybox', args: ['sleep', '3600'] },
          ],
          restartPolicy: 'Always',
        },
      },
    },
  };
  // kubectl diffed last-applied → new file: new image, DEBUG removed, LOG added, label tier removed, sidecar reordered first.
  const patch = {
    metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}' }, labels: { tier: null } },
    spec: {
      template: {
        spec: {
          '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }],
          containers: [{
            name: 'web', image: 'nginx:1.27',
            '$setElementOrder/env': [{ name: 'MODE' }, { name: 'LOG' }],
            env: [{ name: 'LOG', value: 'json' }, { name: 'DEBUG', $patch: 'delete' }],
          }],
        },
      },
    },
  };
  const out = applyStrategicMergePatch(live, patch, deploy) as typeof live;
  assert.deepEqual(out.metadata, { name: 'web', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}' }, labels: { app: 'web' } });
  assert.equal(out.spec.replicas, 5, 'server-side scale kept');
  assert.deepEqual(out.spec.strategy, live.spec.strategy, 'server defaults kept');
  assert.deepEqual(out.spec.template.spec.containers, [
    { name: 'sidecar', image: 'busybox', args: ['sleep', '3600'] },
    { name: 'web', image: 'nginx:1.27', env: [{ name: 'MODE', value: 'prod' }, { name: 'LOG', value: 'json' }], imagePullPolicy: 'IfNotPresent' },
  ]);
});
