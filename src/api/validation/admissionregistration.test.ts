// validate{Validating,Mutating}WebhookConfiguration (pkg/apis/admissionregistration/validation/validation.go)
// and webhook.ValidateWebhookURL / ValidateWebhookService (k8s.io/apiserver/pkg/util/webhook/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration, validateValidatingWebhookConfigurationUpdate, validateWebhookURL,
} from './admissionregistration.ts';
import type { J } from './util.ts';

const hook = (o: J = {}): J => ({
  name: 'check.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail', matchPolicy: 'Equivalent',
  timeoutSeconds: 10, clientConfig: { service: { name: 's', namespace: 'n', port: 443 } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }], ...o,
});
const cfg = (...webhooks: J[]): J => ({ metadata: { name: 'c' }, webhooks });

test('webhook configuration: a valid one passes; names, versions, side effects, timeout', () => {
  assert.deepEqual(validateValidatingWebhookConfiguration(cfg(hook())).map(String), []);
  assert.deepEqual(validateValidatingWebhookConfiguration(cfg(
    hook({ name: 'short.com', sideEffects: undefined, admissionReviewVersions: [], timeoutSeconds: 31 }),
    hook({ name: 'check.example.com', sideEffects: 'Some', admissionReviewVersions: ['v2'], failurePolicy: 'Maybe' }),
    hook({ name: 'check.example.com' }),
  )).map(String), [
    'webhooks[0].name: Invalid value: "short.com": should be a domain with at least three segments separated by dots',
    'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
    'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    'webhooks[1].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    'webhooks[1].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
    'webhooks[2].name: Duplicate value: "check.example.com"',
  ]);
});

test('webhook configuration: client config, rules, match conditions', () => {
  assert.deepEqual(validateMutatingWebhookConfiguration(cfg(hook({
    clientConfig: { url: 'http://u:p@host/x?q=1#f' }, reinvocationPolicy: 'Always',
    rules: [{ operations: ['*', 'CREATE'], apiGroups: [], apiVersions: ['v1'], resources: ['*', 'pods'], scope: 'Global' }],
    matchConditions: [{ name: 'ok', expression: 'object != null' }, { name: 'ok', expression: '1 + 1' }, { name: '', expression: ' ' }],
  }))).map(String), [
    `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if '*' is present, must not specify other operations`,
    'webhooks[0].rules[0].apiGroups: Required value',
    `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
    'webhooks[0].clientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
    'webhooks[0].matchConditions[1].expression: Invalid value: "1 + 1": must evaluate to bool',
    'webhooks[0].matchConditions[1].name: Duplicate value: "ok"',
    'webhooks[0].matchConditions[2].expression: Required value',
    'webhooks[0].matchConditions[2].name: Required value',
  ]);
  assert.deepEqual(validateValidatingWebhookConfiguration(cfg(hook({ clientConfig: {} }), hook({ name: 'b.example.com', clientConfig: { service: { name: '', namespace: 'n', port: 0, path: 'a//B' } } }))).map(String), [
    'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
    'webhooks[1].clientConfig.service.name: Required value: service name is required',
    'webhooks[1].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
    `webhooks[1].clientConfig.service.path: Invalid value: "a//B": must start with a '/'`,
    'webhooks[1].clientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
    'webhooks[1].clientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
    `webhooks[1].clientConfig.service.path: Invalid value: "a//B": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  ]);
});

test('webhook configuration update: side effects a stored webhook already had stay allowed', () => {
  const old = cfg(hook({ sideEffects: 'Unknown' }));
  assert.deepEqual(validateValidatingWebhookConfigurationUpdate(cfg(hook({ sideEffects: 'Some' })), old).map(String), []);
  assert.deepEqual(validateValidatingWebhookConfigurationUpdate(cfg(hook({ sideEffects: 'Some' })), cfg(hook())).map(String), [
    'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
  ]);
});

test('webhook URL: strings Go parses without a host', () => {
  assert.deepEqual(validateWebhookURL('wrong url pattern', 'u').map(String), [
    `u: Invalid value: "": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    'u: Invalid value: "": host must be specified; desired format: https://host[/path]',
  ]);
  assert.deepEqual(validateWebhookURL('https://', 'u').map(String), ['u: Invalid value: "": host must be specified; desired format: https://host[/path]']);
});
