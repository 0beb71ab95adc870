import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from '../../../api/catalog.ts';
import type { KObject, StrategyContext } from '../../../api/types.ts';
import { errors } from '../../../endpoints/status.ts';

const ctx: StrategyContext = { subresource: '', dryRun: false };
function check(group: string, resource: string, obj: KObject): string {
  const def = Catalog.builtin().lookup(group, 'v1', resource)!;
  const o = structuredClone(obj);
  def.strategy!.prepareForCreate!(o, ctx);
  def.strategy!.defaults!(o);
  const errs = def.strategy!.validate!(o, ctx);
  return errs.length ? errors.invalid({ kind: def.kind, group: def.group, name: o.metadata.name ?? '' }, errs).message : '';
}

void test('pods without containers, names or images are invalid as in kube', () => {
  assert.equal(check('', 'pods', { metadata: { name: 'p' }, spec: {} }), 'Pod "p" is invalid: spec.containers: Required value');
  assert.equal(check('', 'pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }, { name: 'a', image: 'x' }] } }),
    'Pod "p" is invalid: [spec.containers[0].image: Required value, spec.containers[1].name: Duplicate value: "a"]');
  assert.equal(check('', 'pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'x' }] } }), '');
});

void test('jobs must not restart in place; cron jobs need a schedule; workloads need a selector', () => {
  const tmpl = { spec: { containers: [{ name: 'c', image: 'busybox' }] } };
  assert.equal(check('batch', 'jobs', { metadata: { name: 'j', uid: 'u' }, spec: { template: tmpl } }),
    'Job.batch "j" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"');
  assert.equal(check('batch', 'cronjobs', { metadata: { name: 'c' }, spec: { jobTemplate: { spec: { template: { spec: { ...tmpl.spec, restartPolicy: 'Never' } } } } } }),
    'CronJob.batch "c" is invalid: spec.schedule: Required value');
  assert.equal(check('apps', 'deployments', { metadata: { name: 'd' }, spec: { template: tmpl } }), 'Deployment.apps "d" is invalid: spec.selector: Required value');
});
