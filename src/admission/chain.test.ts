import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors, StatusError } from '../machinery/errors.ts';
import type { AdmissionAttributes } from '../registry/admission.ts';
import { AdmissionChain } from './chain.ts';
import { operations, type AdmissionPlugin } from './types.ts';

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const gvk = { group: '', version: 'v1', kind: 'ConfigMap' };
  const gvr = { group: '', version: 'v1', resource: 'configmaps' };
  return {
    operation: 'CREATE', kind: gvk, resource: gvr, subresource: '', requestKind: gvk, requestResource: gvr, requestSubResource: '',
    name: 'x', namespace: 'default', object: { metadata: { name: 'x' } }, oldObject: undefined, options: undefined, dryRun: false,
    user: { username: 'u', groups: [] }, warnings: [], auditAnnotations: {}, reinvocation: { requested: false, running: false }, ...over,
  };
}

void test('phases run in plugin order, each plugin only for its operations', async () => {
  const seen: string[] = [];
  const plugin = (name: string, ops = operations('CREATE')): AdmissionPlugin => ({
    name, operations: ops, admit: () => void seen.push(`admit ${name}`), validate: () => void seen.push(`validate ${name}`),
  });
  const chain = new AdmissionChain([plugin('A'), plugin('B', operations('DELETE')), plugin('C')]);
  const a = attrs();
  await chain.admit(a);
  await chain.validate(a);
  assert.deepEqual(seen, ['admit A', 'admit C', 'validate A', 'validate C']);
});

void test('a reinvocation request runs the mutating phase once more, with reinvocation.running set', async () => {
  const runs: boolean[] = [];
  const chain = new AdmissionChain([{
    name: 'W', operations: operations('CREATE'),
    admit: (a) => {
      runs.push(a.reinvocation.running);
      if (!a.reinvocation.running) a.reinvocation.requested = true;
    },
  }]);
  await chain.admit(attrs());
  assert.deepEqual(runs, [false, true]);
});

void test('the first refusal ends the phase; a plain error becomes a 500 naming the plugin', async () => {
  const seen: string[] = [];
  const chain = new AdmissionChain([
    { name: 'Deny', operations: operations('CREATE'), validate: () => { throw errors.forbidden({ kind: 'configmaps', name: 'x' }, 'no'); } },
    { name: 'Later', operations: operations('CREATE'), validate: () => void seen.push('later') },
  ]);
  await assert.rejects(chain.validate(attrs()), (e: StatusError) => e.code === 403 && e.message === 'configmaps "x" is forbidden: no');
  assert.deepEqual(seen, []);
  const broken = new AdmissionChain([{ name: 'Broken', operations: operations('CREATE'), admit: () => { throw new Error('bad state'); } }]);
  await assert.rejects(broken.admit(attrs()), (e: StatusError) => e.code === 500 && /"Broken" failed: bad state/.test(e.message));
});

void test('latencies go to the metrics sink: one step per phase, one controller entry per plugin that handled it', async () => {
  const steps: string[] = [];
  const controllers: string[] = [];
  const sink = {
    observeAdmissionStep: (type: string, op: string, rejected: boolean, s: number) => { assert.ok(s >= 0); steps.push(`${type} ${op} ${rejected}`); },
    observeAdmissionController: (name: string, type: string, op: string, rejected: boolean) => { controllers.push(`${name} ${type} ${op} ${rejected}`); },
  };
  const chain = new AdmissionChain([
    { name: 'A', operations: operations('CREATE'), admit: () => {}, validate: () => {} },
    { name: 'Skip', operations: operations('DELETE'), validate: () => {} },
    { name: 'No', operations: operations('CREATE'), validate: () => { throw errors.badRequest('no'); } },
  ], sink);
  await chain.admit(attrs());
  await assert.rejects(chain.validate(attrs()), StatusError);
  assert.deepEqual(steps, ['admit CREATE false', 'validate CREATE true']);
  assert.deepEqual(controllers, ['A admit CREATE false', 'A validate CREATE false', 'No validate CREATE true']);
});
