// PodSecurityConfiguration: defaults, exemptions and the start-up refusals in kube-apiserver's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OptionsError } from '../../../machinery/errors.ts';
import { lvString } from './api.ts';
import { loadConfiguration } from './configuration.ts';

const cfg = (body: Record<string, unknown>, apiVersion = 'pod-security.admission.config.k8s.io/v1') => ({ apiVersion, kind: 'PodSecurityConfiguration', ...body });
const refused = (raw: unknown, message: string) =>
  assert.throws(() => loadConfiguration(raw), (e: Error) => {
    assert.ok(e instanceof OptionsError, String(e));
    assert.equal(e.message, message);
    return true;
  });

void test('no configuration: privileged:latest for all three modes, no exemptions', () => {
  const c = loadConfiguration(undefined);
  assert.deepEqual([c.defaults.enforce, c.defaults.audit, c.defaults.warn].map(lvString), ['privileged:latest', 'privileged:latest', 'privileged:latest']);
  assert.equal(c.exemptNamespaces.size + c.exemptUsernames.size + c.exemptRuntimeClasses.size, 0);
});

void test('v1, v1beta1 and v1alpha1: unset fields default to privileged and latest', () => {
  for (const v of ['v1', 'v1beta1', 'v1alpha1']) {
    const c = loadConfiguration(cfg({ defaults: { enforce: 'baseline', 'audit-version': 'v1.25', warn: 'restricted' }, exemptions: { usernames: ['ci'], namespaces: ['kube-system'], runtimeClasses: ['kata'] } }, `pod-security.admission.config.k8s.io/${v}`));
    assert.deepEqual([c.defaults.enforce, c.defaults.audit, c.defaults.warn].map(lvString), ['baseline:latest', 'privileged:v1.25', 'restricted:latest'], v);
    assert.deepEqual([...c.exemptUsernames, ...c.exemptNamespaces, ...c.exemptRuntimeClasses], ['ci', 'kube-system', 'kata']);
  }
  const nulls = loadConfiguration(cfg({ defaults: null, exemptions: { usernames: null } }));
  assert.equal(lvString(nulls.defaults.enforce), 'privileged:latest');
});

void test('bad default levels and versions refuse the start (kube\'s ToPolicy errors)', () => {
  refused(cfg({ defaults: { enforce: 'strict' } }),
    'failed to initialize admission plugin "PodSecurity": PodSecurity configuration error: enforce: must be one of privileged, baseline, restricted');
  refused(cfg({ defaults: { 'enforce-version': '1.25', audit: 'Baseline', 'warn-version': 'v2.0' } }),
    'failed to initialize admission plugin "PodSecurity": PodSecurity configuration error: [enforce-version: must be "latest" or "v1.x", '
    + 'audit: must be one of privileged, baseline, restricted, warn-version: must be "latest" or "v1.x"]');
});

void test('bad exemptions refuse the start with their field errors', () => {
  refused(cfg({ exemptions: { namespaces: ['Kube_System'] } }),
    'failed to initialize admission plugin "PodSecurity": PodSecurity invalid: exemptions.namespaces[0]: Invalid value: "Kube_System": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')');
  refused(cfg({ exemptions: { namespaces: ['a', 'a'], runtimeClasses: ['x', 'x.y', 'x'], usernames: ['', 'u', 'u'] } }),
    'failed to initialize admission plugin "PodSecurity": PodSecurity invalid: [exemptions.namespaces[1]: Duplicate value: "a", '
    + 'exemptions.runtimeClasses[2]: Duplicate value: "x", exemptions.usernames[0]: Invalid value: "": username must not be empty, '
    + 'exemptions.usernames[2]: Duplicate value: "u"]');
});

void test('decoding is strict: unknown kinds, versions and fields, wrong types', () => {
  refused(cfg({}, 'pod-security.admission.config.k8s.io/v2'),
    'couldn\'t init admission plugin "PodSecurity": no kind "PodSecurityConfiguration" is registered for version "pod-security.admission.config.k8s.io/v2" in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31"');
  refused({ apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'Configuration' },
    'couldn\'t init admission plugin "PodSecurity": no kind "Configuration" is registered for version "pod-security.admission.config.k8s.io/v1" in scheme "k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31"');
  refused({ defaults: {} }, 'couldn\'t init admission plugin "PodSecurity": Object \'Kind\' is missing in \'{"defaults":{}}\'');
  refused(cfg({ defaults: { enforce: 'baseline', enforceVersion: 'v1.20' }, exemption: {} }),
    'couldn\'t init admission plugin "PodSecurity": strict decoding error: unknown field "defaults.enforceVersion", unknown field "exemption"');
  refused(cfg({ exemptions: { namespaces: 'kube-system' } }),
    'couldn\'t init admission plugin "PodSecurity": json: cannot unmarshal string into Go struct field PodSecurityExemptions.exemptions.namespaces of type []string');
});
