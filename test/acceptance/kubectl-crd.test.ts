/**
 * Acceptance: kubectl 1.33 with a CustomResourceDefinition against a real server — apply the CRD, wait for
 * Established, create/list/watch/patch/apply/scale/delete custom resources, printer columns in `get`,
 * `explain`, a CEL validation rule and a transition rule failing with their messages, the API going away
 * with the CRD, and two versions converted by a webhook on 127.0.0.1. Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectlBackground, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startConversionWebhook } from '../support/conversion-webhook.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl CRD acceptance: ${skip}\n`);

let srv: TestServer | undefined;

before(async () => {
  if (skip) return;
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
});
after(async () => {
  await srv?.stop();
});

const { k, ok } = kubectlFor(() => srv!.kubeconfigPath);

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: The desired schedule.
            x-kubernetes-validations:
            - rule: "self.replicas <= 10"
              message: "replicas must be at most 10"
            properties:
              cronSpec:
                type: string
                description: The cron schedule.
              image:
                type: string
                x-kubernetes-validations:
                - rule: "self == oldSelf"
                  message: "image is immutable"
              replicas:
                type: integer
                default: 1
          status:
            type: object
            properties:
              replicas:
                type: integer
`;

const CT = (spec: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-crontab
  namespace: default
spec:
${spec}`;

void test('kubectl: a CRD from apply to delete', { skip }, async () => {
  assert.match(await ok(['apply', '-f', '-'], CRD), /customresourcedefinition.apiextensions.k8s.io\/crontabs.stable.example.com created/);
  assert.match(await ok(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']), /condition met/);

  const watcher = kubectlBackground(['get', 'crontabs', '-n', 'default', '-w', '-o', 'name'], { kubeconfig: srv!.kubeconfigPath });
  try {
    assert.match(await ok(['apply', '-f', '-'], CT('  cronSpec: "* * * * */5"\n  image: my-image\n')), /crontab.stable.example.com\/my-crontab created/);
    await watcher.waitFor(/crontab.stable.example.com\/my-crontab/);
  } finally {
    await watcher.stop();
  }
  // Printer columns, the default from the schema, short names.
  const table = await ok(['get', 'ct', '-n', 'default']);
  assert.match(table, /^NAME\s+SPEC\s+REPLICAS\s+AGE\n/);
  assert.match(table, /my-crontab\s+\* \* \* \* \*\/5\s+1\s+\d+s/);
  // Client-side apply again with a change: a merge patch computed from last-applied.
  assert.match(await ok(['apply', '-f', '-'], CT('  cronSpec: "0 * * * *"\n  image: my-image\n')), /configured/);
  assert.equal(await ok(['get', 'ct', 'my-crontab', '-n', 'default', '-o', 'jsonpath={.spec.cronSpec}']), '0 * * * *');
  await ok(['patch', 'ct', 'my-crontab', '-n', 'default', '--type=merge', '-p', '{"spec":{"replicas":2}}']);
  await ok(['patch', 'ct', 'my-crontab', '-n', 'default', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":3}]']);
  assert.match(await ok(['scale', 'ct', 'my-crontab', '-n', 'default', '--replicas=4']), /scaled/);
  assert.equal(await ok(['get', 'ct', 'my-crontab', '-n', 'default', '-o', 'jsonpath={.spec.replicas}']), '4');
  // Server-side apply by another manager.
  await ok(['apply', '--server-side', '--field-manager=other', '-f', '-'], `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ssa-crontab\n  namespace: default\nspec:\n  cronSpec: "1 1 * * *"\n`);
  const managers = JSON.parse(await ok(['get', 'ct', 'ssa-crontab', '-n', 'default', '-o', 'json', '--show-managed-fields']));
  assert.deepEqual(managers.metadata.managedFields.map((m: any) => [m.manager, m.operation]), [['other', 'Apply']]);

  // A validation rule and a transition rule, with their messages.
  const rule = await k(['patch', 'ct', 'my-crontab', '-n', 'default', '--type=merge', '-p', '{"spec":{"replicas":11}}']);
  assert.notEqual(rule.code, 0);
  assert.match(rule.stderr, /replicas must be at most 10/);
  const transition = await k(['patch', 'ct', 'my-crontab', '-n', 'default', '--type=merge', '-p', '{"spec":{"image":"other"}}']);
  assert.notEqual(transition.code, 0);
  assert.match(transition.stderr, /image is immutable/);

  // explain reads the CRD's schema from OpenAPI v3.
  const explain = await ok(['explain', 'crontab.spec']);
  assert.match(explain, /KIND:\s+CronTab/);
  assert.match(explain, /cronSpec\s+<string>/);
  assert.match(explain, /The cron schedule\./);

  assert.match(await ok(['delete', 'ct', 'my-crontab', '-n', 'default']), /deleted/);
  assert.match(await ok(['delete', 'crd', 'crontabs.stable.example.com', '--timeout=20s']), /deleted/);
  const gone = await k(['get', 'crontabs', '-n', 'default']);
  assert.notEqual(gone.code, 0);
  // kubectl's discovery cache may still list crontabs: then the list itself is a 404.
  assert.match(gone.stderr, /the server doesn't have a resource type "crontabs"|Unable to list "stable.example.com\/v1, Resource=crontabs": the server could not find the requested resource/);
});

void test('kubectl: two versions converted by a webhook', { skip }, async () => {
  const wh = await startConversionWebhook({
    convert(o, to) {
      const spec = { ...(o['spec'] ?? {}) };
      if (to.endsWith('/v2') && 'cronSpec' in spec) { spec.schedule = spec.cronSpec; delete spec.cronSpec; }
      if (to.endsWith('/v1') && 'schedule' in spec) { spec.cronSpec = spec.schedule; delete spec.schedule; }
      return { ...o, apiVersion: to, spec };
    },
  });
  try {
    const version = (name: string, field: string, storage: boolean) => ({
      name, served: true, storage,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' } } } } } },
    });
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'jobs.conv.example.com' },
      spec: {
        group: 'conv.example.com', scope: 'Namespaced', names: { plural: 'jobs', singular: 'job', kind: 'Job' },
        conversion: { strategy: 'Webhook', webhook: { clientConfig: wh.clientConfig, conversionReviewVersions: ['v1'] } },
        versions: [version('v1', 'cronSpec', true), version('v2', 'schedule', false)],
      },
    };
    await ok(['apply', '-f', '-'], JSON.stringify(crd));
    await ok(['wait', '--for=condition=Established', 'crd/jobs.conv.example.com', '--timeout=20s']);
    await ok(['apply', '-f', '-'], 'apiVersion: conv.example.com/v1\nkind: Job\nmetadata:\n  name: nightly\n  namespace: default\nspec:\n  cronSpec: "0 3 * * *"\n');
    assert.equal(await ok(['get', 'jobs.v2.conv.example.com', 'nightly', '-n', 'default', '-o', 'jsonpath={.apiVersion} {.spec.schedule}']), 'conv.example.com/v2 0 3 * * *');
    assert.equal(await ok(['get', 'jobs.v1.conv.example.com', 'nightly', '-n', 'default', '-o', 'jsonpath={.spec.cronSpec}']), '0 3 * * *');
    assert.ok(wh.reviews.length > 0, 'the webhook was called');
  } finally {
    await wh.stop();
  }
});
