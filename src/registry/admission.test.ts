// Where the generic store calls admission, with which attributes, and what a refusal or a mutation does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../machinery/objects.ts';
import { errors } from '../machinery/errors.ts';
import type { Admission, AdmissionAttributes } from './admission.ts';
import { cm, statusOf, sys, testEnv } from './testing/registry.ts';

interface Call {
  phase: 'admit' | 'validate';
  op: string;
  kind: string;
  resource: string;
  sub: string;
  name: string;
  namespace: string;
  object?: KObject;
  old?: KObject;
  options?: Record<string, unknown>;
  dryRun: boolean;
}

/** Records every call; `onAdmit`/`onValidate` may change the object or throw. */
class Recorder implements Admission {
  readonly calls: Call[] = [];
  onAdmit?: (a: AdmissionAttributes) => void;
  onValidate?: (a: AdmissionAttributes) => void;

  private record(phase: Call['phase'], a: AdmissionAttributes): void {
    this.calls.push({
      phase, op: a.operation, kind: a.kind.kind, resource: a.resource.resource, sub: a.subresource, name: a.name,
      namespace: a.namespace, ...(a.object ? { object: structuredClone(a.object) } : {}),
      ...(a.oldObject ? { old: a.oldObject } : {}), ...(a.options ? { options: { ...a.options } } : {}), dryRun: a.dryRun,
    });
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    this.record('admit', a);
    this.onAdmit?.(a);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    this.record('validate', a);
    this.onValidate?.(a);
  }

  summary(): string[] {
    return this.calls.map((c) => `${c.phase} ${c.op} ${c.resource}${c.sub ? `/${c.sub}` : ''} ${c.kind} ${c.namespace}/${c.name}`);
  }
}

async function env() {
  const rec = new Recorder();
  const e = await testEnv({ admission: () => rec });
  rec.calls.length = 0; // the namespaces testEnv creates
  return { rec, ...e };
}

void test('create: admit sees the defaulted request before system fields; validate sees the object to store', async () => {
  const { rec, registry, close } = await env();
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    rec.onAdmit = (a) => {
      a.object!.metadata.labels = { added: 'by-admission' };
    };
    const created = await cms.create(sys('default', { fieldManager: 'test' }), cm('x'), {});
    assert.deepEqual(rec.summary(), ['admit CREATE configmaps ConfigMap default/x', 'validate CREATE configmaps ConfigMap default/x']);
    const [admit, validate] = rec.calls;
    assert.equal(admit!.object!.metadata.uid, undefined, 'mutating admission runs before system fields');
    assert.equal(admit!.object!.metadata.creationTimestamp, undefined);
    assert.deepEqual(admit!.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'test' });
    assert.ok(validate!.object!.metadata.uid, 'validating admission sees the object as it will be stored');
    assert.deepEqual(validate!.object!.metadata.labels, { added: 'by-admission' });
    assert.deepEqual(created.metadata.labels, { added: 'by-admission' }, 'the mutation is stored');
    // The request's field manager owns what the request set, not what admission added.
    const owned = JSON.stringify(created.metadata.managedFields?.[0]?.fieldsV1 ?? {});
    assert.ok(owned.includes('f:data') && !owned.includes('f:labels'), owned);
  } finally {
    await close();
  }
});

void test('a refusal in either phase stores nothing', async () => {
  const { rec, registry, store, close } = await env();
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    rec.onValidate = () => {
      throw errors.forbidden({ kind: 'configmaps', name: 'x' }, 'no');
    };
    const before = await store.currentRevision();
    const st = await statusOf(cms.create(sys('default'), cm('x'), {}));
    assert.equal(st.message, 'configmaps "x" is forbidden: no');
    assert.equal(await store.currentRevision(), before);
    rec.onValidate = undefined;
    rec.onAdmit = () => {
      throw new Error('boom');
    };
    // A plugin's plain error reaches the client as the chain reports it; the registry stores nothing either way.
    await assert.rejects(cms.create(sys('default'), cm('y'), {}), /boom/);
    assert.equal(await store.currentRevision(), before);
  } finally {
    await close();
  }
});

void test('update, patch, status: UPDATE with the current object as oldObject; a no-op update is still admitted', async () => {
  const { rec, registry, close } = await env();
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    await cms.create(sys('default'), cm('x'), {});
    rec.calls.length = 0;
    rec.onAdmit = (a) => {
      if (a.operation === 'UPDATE') a.object!['data'] = { ...(a.object!['data'] as object), mutated: 'yes' };
    };
    const res = await cms.guaranteedUpdate(sys('default'), 'x', (cur) => ({ ...cur!, data: { a: 'c' } }), {});
    assert.deepEqual(res.object['data'], { a: 'c', mutated: 'yes' });
    assert.deepEqual(rec.summary(), ['admit UPDATE configmaps ConfigMap default/x', 'validate UPDATE configmaps ConfigMap default/x']);
    assert.deepEqual(rec.calls[0]!.old!['data'], { a: 'b' });
    assert.equal(rec.calls[0]!.options!['kind'], 'UpdateOptions');
    rec.calls.length = 0;
    const again = await cms.guaranteedUpdate(sys('default'), 'x', (cur) => cur!, {});
    assert.equal(again.object.metadata.resourceVersion, res.object.metadata.resourceVersion, 'nothing changed: not written');
    assert.equal(rec.calls.length, 2);

    const deps = registry.lookup('apps', 'v1', 'deployments')!;
    await deps.create(sys('default'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 } }, {});
    rec.calls.length = 0;
    rec.onAdmit = undefined;
    await deps.guaranteedUpdate(sys('default', { subresource: 'status' }), 'd', (cur) => ({ ...cur!, status: { replicas: 1 } }), {});
    assert.deepEqual(rec.summary(), ['admit UPDATE deployments/status Deployment default/d', 'validate UPDATE deployments/status Deployment default/d']);
  } finally {
    await close();
  }
});

void test('scale: admission sees autoscaling/v1 Scales, and a mutated replica count is what is stored', async () => {
  const { rec, registry, close } = await env();
  try {
    const deps = registry.lookup('apps', 'v1', 'deployments')!;
    await deps.create(sys('default'), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 1 } }, {});
    rec.calls.length = 0;
    rec.onAdmit = (a) => {
      (a.object!['spec'] as { replicas: number }).replicas = 7;
    };
    const scale = await deps.update(sys('default', { subresource: 'scale' }), 'd', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd', namespace: 'default' }, spec: { replicas: 3 } }, {});
    assert.deepEqual(rec.summary(), ['admit UPDATE deployments/scale Scale default/d', 'validate UPDATE deployments/scale Scale default/d']);
    assert.equal(rec.calls[0]!.object!.kind, 'Scale');
    assert.equal((rec.calls[0]!.old!['spec'] as { replicas: number }).replicas, 1);
    assert.equal((scale.object['spec'] as { replicas: number }).replicas, 7);
  } finally {
    await close();
  }
});

void test('delete: DELETE with the object being deleted as oldObject and the DeleteOptions; dry-run is flagged', async () => {
  const { rec, registry, store, close } = await env();
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    await cms.create(sys('default'), cm('x'), {});
    rec.calls.length = 0;
    await cms.delete(sys('default', { dryRun: true }), 'x', { propagationPolicy: 'Background' });
    assert.deepEqual(rec.summary(), ['admit DELETE configmaps ConfigMap default/x', 'validate DELETE configmaps ConfigMap default/x']);
    assert.equal(rec.calls[0]!.object, undefined);
    assert.equal(rec.calls[0]!.old!.metadata.name, 'x');
    assert.deepEqual(rec.calls[0]!.options, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background', dryRun: ['All'] });
    assert.equal(rec.calls[0]!.dryRun, true);
    rec.onValidate = () => {
      throw errors.forbidden({ kind: 'configmaps', name: 'x' }, 'keep it');
    };
    const st = await statusOf(cms.delete(sys('default'), 'x', {}));
    assert.equal(st.code, 403);
    assert.ok(await store.get('/registry/configmaps/default/x'), 'still stored');
  } finally {
    await close();
  }
});

void test('create on update (PUT of a missing object where allowed) is admitted as CREATE', async () => {
  const { rec, registry, close } = await env();
  try {
    const cms = registry.lookup('', 'v1', 'configmaps')!;
    await cms.guaranteedUpdate(sys('default'), 'new', () => cm('new'), { allowCreate: true });
    assert.deepEqual(rec.summary(), ['admit CREATE configmaps ConfigMap default/new', 'validate CREATE configmaps ConfigMap default/new']);
  } finally {
    await close();
  }
});
