import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeErrorFor } from './type-check.ts';

const dep = (spec: unknown) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec });
const pod = (containers: unknown) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers } });

const cases: Array<[string, unknown, string, string, string | undefined]> = [
  ['string into int32', dep({ replicas: 'three' }), 'apps/v1', 'Deployment',
    'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ['fraction into int32', dep({ replicas: 1.5 }), 'apps/v1', 'Deployment',
    'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ['int32 out of range', dep({ replicas: 2147483648 }), 'apps/v1', 'Deployment',
    'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ['valid deployment', dep({ replicas: 3, selector: { matchLabels: { a: 'b' } } }), 'apps/v1', 'Deployment', undefined],
  ['null fits anything', dep({ replicas: null, selector: null, template: { spec: { containers: null } } }), 'apps/v1', 'Deployment', undefined],
  ['map value', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 5 } }, 'v1', 'ConfigMap',
    'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'],
  ['string into map', { apiVersion: 'v1', kind: 'ConfigMap', data: 'x' }, 'v1', 'ConfigMap',
    'json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string'],
  ['bool into bool ok, string into bool', { apiVersion: 'v1', kind: 'ConfigMap', immutable: 'yes' }, 'v1', 'ConfigMap',
    'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool'],
  ['string into struct', dep('x'), 'apps/v1', 'Deployment',
    'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec'],
  ['array into struct', dep([]), 'apps/v1', 'Deployment',
    'json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec'],
  ['object into slice', pod({}), 'v1', 'Pod',
    'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container'],
  ['inside a list item', pod([{ name: 'a', image: 5 }]), 'v1', 'Pod',
    'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
  ['env value', pod([{ name: 'a', env: [{ name: 'X', value: 1 }] }]), 'v1', 'Pod',
    'json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string'],
  ['ObjectMeta labels', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: true } } }, 'v1', 'ConfigMap',
    'json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string'],
  ['ObjectMeta generation', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generation: 'x' } }, 'v1', 'ConfigMap',
    'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64'],
  ['Time gets the outer field context', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: 5 } }, 'v1', 'ConfigMap',
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
  ['IntOrString number or string', pod([{ name: 'a', ports: [{ containerPort: 80 }], livenessProbe: { httpGet: { port: 'http' } } }]), 'v1', 'Pod', undefined],
  ['IntOrString bool', pod([{ name: 'a', livenessProbe: { httpGet: { port: true } } }]), 'v1', 'Pod',
    'json: cannot unmarshal bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32'],
  ['Quantity object', pod([{ name: 'a', resources: { limits: { cpu: {} } } }]), 'v1', 'Pod',
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ['Quantity string that does not parse', pod([{ name: 'a', resources: { requests: { memory: 'lots' } } }]), 'v1', 'Pod',
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ['Quantity empty string', pod([{ name: 'a', resources: { requests: { memory: '' } } }]), 'v1', 'Pod',
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ['Quantity with spaces around is trimmed', pod([{ name: 'a', resources: { requests: { memory: ' 1Gi ' } } }]), 'v1', 'Pod', undefined],
  ['Quantity number ok', pod([{ name: 'a', resources: { limits: { cpu: 1, memory: '1Gi' } } }]), 'v1', 'Pod', undefined],
  ['inline embedded struct (VolumeSource)', { apiVersion: 'v1', kind: 'Pod', spec: { volumes: [{ name: 'v', configMap: 'x' }] } }, 'v1', 'Pod',
    'json: cannot unmarshal string into Go struct field Volume.spec.volumes.configMap of type v1.ConfigMapVolumeSource'],
  ['double field', { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'a', ports: [{ containerPort: 'x' }] }] } }, 'v1', 'Pod',
    'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
  ['unknown keys are not this check\'s business', { apiVersion: 'v1', kind: 'ConfigMap', bogus: { a: 1 } }, 'v1', 'ConfigMap', undefined],
  ['custom resources are untouched', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', spec: { replicas: 'x' } }, 'stable.example.com/v1', 'CronTab', undefined],
  ['first error in document order', dep({ replicas: 'x', paused: 'y' }), 'apps/v1', 'Deployment',
    'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ['bytes map value', { apiVersion: 'v1', kind: 'Secret', data: { a: 1 } }, 'v1', 'Secret',
    'json: cannot unmarshal number into Go struct field Secret.data of type []uint8'],
  ['MicroTime needs six fraction digits (the ParseError as is)', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { renewTime: '2024-01-01T00:00:00Z' } }, 'coordination.k8s.io/v1', 'Lease',
    'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"'],
  ['MicroTime with six digits', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { acquireTime: '2024-01-01T00:00:00.000000Z', renewTime: null } }, 'coordination.k8s.io/v1', 'Lease', undefined],
  ['Time that does not parse', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { creationTimestamp: 'yesterday' } }, 'v1', 'ConfigMap',
    'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
];

for (const [name, obj, apiVersion, kind, want] of cases) {
  void test(`typeErrorFor: ${name}`, () => {
    assert.equal(typeErrorFor(obj, apiVersion, kind), want);
  });
}

const literalCases: Array<[string, string, string | undefined]> = [
  ['1.0 does not fit an int32 in JSON', '{"spec":{"replicas":1.0}}',
    'json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ['exponents are quoted as written', '{"spec":{"replicas":1e3}}',
    'json: cannot unmarshal number 1e3 into Go struct field DeploymentSpec.spec.replicas of type int32'],
  ['huge integers are quoted as written', '{"metadata":{"generation":99999999999999999999}}',
    'json: cannot unmarshal number 99999999999999999999 into Go struct field ObjectMeta.metadata.generation of type int64'],
  ['int64 upper bound fits', '{"metadata":{"generation":9223372036854775807}}', undefined],
  ['int64 one past the bound', '{"metadata":{"generation":9223372036854775808}}',
    'json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64'],
  ['fraction literals are numbers for strings', '{"metadata":{"name":1.5}}',
    'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string'],
  ['fraction literals fit quantities and raw places', '{"spec":{"template":{"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":0.5}}}]}}}}', undefined],
  ['IntOrString with a fraction', '{"spec":{"strategy":{"rollingUpdate":{"maxSurge":2.0}}}}',
    'json: cannot unmarshal number 2.0 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32'],
  ['-0 is an integer', '{"spec":{"replicas":-0}}', undefined],
  ['fraction digits inside strings are not numbers', '{"metadata":{"name":"v1.0"},"spec":{"replicas":2}}', undefined],
];

for (const [name, text, want] of literalCases) {
  void test(`typeErrorFor with the JSON text: ${name}`, () => {
    assert.equal(typeErrorFor(JSON.parse(text), 'apps/v1', 'Deployment', { jsonText: text }), want);
  });
}
