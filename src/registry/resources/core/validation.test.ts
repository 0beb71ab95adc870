// Kind validation comes from src/api/validation (validateFor), wired into every catalog strategy; these
// cases check the wiring end to end through the strategies the registry calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinCatalog } from '../groups/index.ts';
import type { KObject } from '../../../machinery/objects.ts';
import type { StrategyContext } from '../../../api/types.ts';
import { errors } from '../../../machinery/errors.ts';

const ctx: StrategyContext = { subresource: '', dryRun: false };
function check(group: string, resource: string, obj: KObject): string {
  const def = builtinCatalog().lookup(group, 'v1', resource)!;
  const o = structuredClone(obj);
  def.strategy!.prepareForCreate!(o, ctx);
  def.strategy!.defaults?.(o);
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
  assert.match(check('apps', 'deployments', { metadata: { name: 'd' }, spec: { template: tmpl } }), /^Deployment\.apps "d" is invalid: \[spec\.selector: Required value, /);
});

function update(group: string, resource: string, obj: KObject, old: KObject): string {
  const def = builtinCatalog().lookup(group, 'v1', resource)!;
  const errs = def.strategy!.validateUpdate!(obj, old, ctx);
  return errs.length ? errors.invalid({ kind: def.kind, group: def.group, name: obj.metadata.name ?? '' }, errs).message : '';
}

void test('config maps and secrets: kube\'s key rules, required keys per secret type, immutability', () => {
  assert.equal(check('', 'configmaps', { metadata: { name: 'c' }, data: { 'bad key': 'v', ok: 'v' } }),
    'ConfigMap "c" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, \'-\', \'_\' or \'.\' (e.g. \'key.name\',  or \'KEY_NAME\',  or \'key-name\', regex used for validation is \'[-._a-zA-Z0-9]+\')');
  assert.equal(check('', 'configmaps', { metadata: { name: 'c' }, data: { '..x': 'v' } }), 'ConfigMap "c" is invalid: data[..x]: Invalid value: "..x": must not start with \'..\'');
  assert.equal(check('', 'secrets', { metadata: { name: 's' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'Y2VydA==' } }), 'Secret "s" is invalid: data[tls.key]: Required value');
  assert.equal(check('', 'secrets', { metadata: { name: 's' }, stringData: { a: 'b' } }), '');
  const old: KObject = { metadata: { name: 'c' }, immutable: true, data: { a: 'b' } };
  assert.equal(update('', 'configmaps', { metadata: { name: 'c' }, immutable: true, data: { a: 'changed' } }, old),
    'ConfigMap "c" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  assert.equal(update('', 'configmaps', { metadata: { name: 'c' }, immutable: true, data: { a: 'b' } }, old), '');
  assert.equal(update('', 'secrets', { metadata: { name: 's' }, type: 'Other' }, { metadata: { name: 's' }, type: 'Opaque' }),
    'Secret "s" is invalid: type: Invalid value: "Other": field is immutable');
});

void test('services: ports required (unless headless or ExternalName), port range, names when several', () => {
  assert.equal(check('', 'services', { metadata: { name: 's' }, spec: { selector: { a: 'b' } } }), 'Service "s" is invalid: spec.ports: Required value');
  assert.equal(check('', 'services', { metadata: { name: 's' }, spec: { clusterIP: 'None' } }), '');
  // targetPort defaults to the port, so kube reports both.
  assert.equal(check('', 'services', { metadata: { name: 's' }, spec: { ports: [{ port: 70000 }, { port: 80 }] } }),
    'Service "s" is invalid: [spec.ports[0].name: Required value, spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[1].name: Required value]');
  assert.equal(check('', 'services', { metadata: { name: 's' }, spec: { type: 'Weird', ports: [{ port: 80 }] } }),
    'Service "s" is invalid: spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"');
});

void test('autoscaling/v1 HPAs are validated in their v2 (storage) form, as kube validates the internal form', () => {
  const def = builtinCatalog().lookup('autoscaling', 'v1', 'horizontalpodautoscalers')!;
  const ok: KObject = { metadata: { name: 'h' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 60 } };
  assert.deepEqual(def.strategy!.validate!(ok, ctx), []);
  const bad = structuredClone(ok);
  (bad['spec'] as Record<string, unknown>)['maxReplicas'] = 0;
  assert.ok(def.strategy!.validate!(bad, ctx).some((e) => e.field === 'spec.maxReplicas'));
});
