import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OptionsError } from '../machinery/errors.ts';
import { enabledPlugins, readAdmissionConfig } from './config.ts';
import { DEFAULT_ON_PLUGINS, ORDERED_PLUGINS } from './plugin-catalog.ts';

void test('the default set is kube-apiserver v1.33\'s, in kube\'s order', () => {
  const names = enabledPlugins({});
  assert.deepEqual(names, ORDERED_PLUGINS.filter((n) => DEFAULT_ON_PLUGINS.has(n)));
  assert.equal(names.length, 22);
  assert.equal(names[0], 'NamespaceLifecycle');
  assert.deepEqual(names.slice(-5), ['MutatingAdmissionPolicy', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
});

void test('enable/disable change the set, never the order', () => {
  const names = enabledPlugins({ enablePlugins: ['AlwaysDeny', 'NodeRestriction', 'AlwaysPullImages'], disablePlugins: ['PodSecurity', 'ResourceQuota'] });
  assert.ok(names.indexOf('NodeRestriction') < names.indexOf('TaintNodesByCondition'));
  assert.ok(names.indexOf('AlwaysPullImages') < names.indexOf('Priority'));
  assert.equal(names.at(-1), 'AlwaysDeny');
  assert.ok(!names.includes('PodSecurity') && !names.includes('ResourceQuota'));
});

void test('unknown and overlapping names are refused with kube\'s messages', () => {
  assert.throws(() => enabledPlugins({ enablePlugins: ['Nope'] }), (e: Error) => e instanceof OptionsError && e.message === 'enable-admission-plugins plugin "Nope" is unknown');
  assert.throws(() => enabledPlugins({ disablePlugins: ['Nah'] }), { message: 'disable-admission-plugins plugin "Nah" is unknown' });
  assert.throws(() => enabledPlugins({ enablePlugins: ['PodSecurity', 'AlwaysDeny'], disablePlugins: ['PodSecurity', 'AlwaysDeny'] }),
    { message: '[AlwaysDeny PodSecurity] in enable-admission-plugins and disable-admission-plugins overlapped' });
});

void test('AdmissionConfiguration: embedded configuration and files relative to the configuration file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-admission-'));
  writeFileSync(join(dir, 'psa.yaml'), 'apiVersion: pod-security.admission.config.k8s.io/v1\nkind: PodSecurityConfiguration\ndefaults:\n  enforce: baseline\n');
  writeFileSync(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: PodSecurity',
    '  path: psa.yaml',
    '- name: EventRateLimit',
    '  configuration:',
    '    apiVersion: eventratelimit.admission.k8s.io/v1alpha1',
    '    kind: Configuration',
    '    limits: [{type: Server, qps: 5, burst: 10}]',
  ].join('\n'));
  const c = readAdmissionConfig(join(dir, 'admission.yaml'));
  assert.deepEqual((c.get('PodSecurity') as { defaults: unknown }).defaults, { enforce: 'baseline' });
  assert.equal((c.get('EventRateLimit') as { kind: string }).kind, 'Configuration');
  assert.equal(c.get('ResourceQuota'), undefined);
  assert.equal(c.dirOf('PodSecurity'), dir);

  writeFileSync(join(dir, 'wrong.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
  assert.throws(() => readAdmissionConfig(join(dir, 'wrong.yaml')), (e: Error) => e instanceof OptionsError && /expected kind AdmissionConfiguration/.test(e.message));
  writeFileSync(join(dir, 'missing.yaml'), 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: nowhere.yaml\n');
  assert.throws(() => readAdmissionConfig(join(dir, 'missing.yaml')), /couldn't open admission plugin configuration .*nowhere\.yaml/);
  assert.throws(() => readAdmissionConfig(join(dir, 'absent.yaml')), /unable to read admission control configuration/);
});
