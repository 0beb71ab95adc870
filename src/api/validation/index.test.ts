// The registry: every validated kind is a served built-in kind, and objects kube-apiserver v1.32 itself
// created (test/fixtures/kube-v1.32/responses/objects/) pass create and no-op update validation.
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KObject } from '../../machinery/objects.ts';
import { validateFor, validatedKinds } from './index.ts';
import { validateObjectMeta, nameProblems } from './object-meta.ts';
import { kubeReference } from '../../../test/support/kube-reference.ts';

const REFERENCE = kubeReference('responses/objects');

test('validateFor: every validated kind is a built-in kind of the catalog', () => {
  // Every version on, alpha ones included (MutatingAdmissionPolicy is served only under --runtime-config).
  const catalog = builtinCatalog({ runtimeConfig: { 'api/all': 'true' } });
  const kinds = new Set(catalog.all().map((d) => `${d.group}/${d.kind}`));
  for (const { group, kind } of validatedKinds()) assert.ok(kinds.has(`${group}/${kind}`), `${group}/${kind} is not served`);
  assert.equal(validateFor('', 'Nonexistent'), undefined);
  assert.ok(validateFor('apps', 'Deployment')?.validate);
});

test('validateFor: kube-apiserver-made reference objects are valid on create and on a no-op update', () => {
  const catalog = builtinCatalog();
  let checked = 0;
  for (const f of readdirSync(REFERENCE).filter((x) => x.endsWith('.json'))) {
    const obj = JSON.parse(readFileSync(join(REFERENCE, f), 'utf8')) as KObject;
    const [group, version] = (obj.apiVersion ?? '').includes('/') ? obj.apiVersion!.split('/') as [string, string] : ['', obj.apiVersion ?? ''];
    const def = catalog.lookupKind(group, version, obj.kind ?? '');
    assert.ok(def, `${f}: kind in catalog`);
    assert.deepEqual(validateObjectMeta(obj.metadata, { namespaced: def.namespaced, nameRule: def.nameRule }).map(String), [], `${f}: metadata`);
    const v = validateFor(group, obj.kind ?? '');
    if (!v) continue;
    assert.deepEqual(v.validate!(obj).map(String), [], `${f}: create`);
    assert.deepEqual(v.validateUpdate!(obj, structuredClone(obj)).map(String), [], `${f}: update`);
    checked++;
  }
  assert.ok(checked >= 5, `checked ${checked} reference objects`);
});

test('name rules: generateName masks a trailing dash as kube does', () => {
  assert.deepEqual(nameProblems('dns1123-label', 'web-', true), []);
  assert.deepEqual(nameProblems('dns1035-label', '1web', false).length, 1);
});

test('validateFor: malformed objects never throw (every kind, odd shapes)', () => {
  const odd: unknown[] = [null, 'x', 7, true, [], {}, [null], [1, 'a'], { a: null }];
  const shapes: Record<string, unknown>[] = [];
  for (const v of odd) {
    shapes.push({ spec: v }, { spec: { containers: v, volumes: v, ports: v, selector: v, template: v, rules: v, metrics: v } });
    shapes.push({ spec: { template: { metadata: v, spec: { containers: [v], volumes: [v], tolerations: v, affinity: v } } } });
    shapes.push({ data: v, binaryData: v, stringData: v, rules: v, subjects: v, roleRef: v, regarding: v, series: v, parameters: v, value: v });
    shapes.push({ spec: { ports: [v], rules: [{ http: v }], ingress: [v], egress: [{ to: [v] }], jobTemplate: v, schedule: v, strategy: v, updateStrategy: v } });
  }
  for (const { group, kind } of validatedKinds()) {
    const v = validateFor(group, kind)!;
    for (const s of shapes) {
      const o = { metadata: { name: 'x', namespace: 'd' }, ...s } as KObject;
      assert.doesNotThrow(() => v.validate!(o), `${group}/${kind} validate ${JSON.stringify(s)}`);
      assert.doesNotThrow(() => v.validateUpdate!(o, { metadata: {} } as KObject), `${group}/${kind} update ${JSON.stringify(s)}`);
      assert.doesNotThrow(() => v.validateUpdate!({ metadata: {} } as KObject, o), `${group}/${kind} update from ${JSON.stringify(s)}`);
    }
  }
});
