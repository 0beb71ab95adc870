// ValidatePodCreate / ValidatePodUpdate (pkg/apis/core/validation/validation.go: validateContainers,
// validateInitContainers, validateContainerPorts, validateResourceRequirements, ValidateVolumes,
// validateVolumeSource, ValidateVolumeMounts, ValidateEnv, validateRestartPolicy, validateDNSPolicy,
// ValidateTolerations, ValidatePodUpdate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatePod, validatePodTemplateSpec, validatePodUpdate } from './core-pod.ts';
import { withPolicy } from './cluster-policy.ts';
import type { J } from './util.ts';

function pod(mut: (spec: J) => void = () => {}): J {
  const spec: J = {
    containers: [{ name: 'app', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', resources: {} }],
    restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30,
  };
  mut(spec);
  return { metadata: { name: 'p', namespace: 'default' }, spec };
}
const c0 = (s: J) => (s['containers'] as J[])[0]!;

const UPDATE_PREFIX = 'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';

const cases: [string, (s: J) => void, string[]][] = [
  ['valid', () => {}, []],
  ['no containers', (s) => { s['containers'] = []; }, ['spec.containers: Required value']],
  ['missing image', (s) => { delete c0(s)['image']; }, ['spec.containers[0].image: Required value']],
  ['bad container name', (s) => { c0(s)['name'] = 'App'; }, [
    `spec.containers[0].name: Invalid value: "App": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
  ]],
  ['duplicate container names', (s) => { (s['containers'] as J[]).push({ ...c0(s) }); }, ['spec.containers[1].name: Duplicate value: "app"']],
  ['init container reuses a name', (s) => { s['initContainers'] = [{ ...c0(s) }]; }, ['spec.initContainers[0].name: Duplicate value: "app"']],
  ['ports', (s) => {
    c0(s)['ports'] = [{ containerPort: 70000, protocol: 'TCP', name: 'web' }, { containerPort: 80, protocol: 'HTTP', name: 'web' }, { protocol: 'TCP' }];
  }, [
    'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'spec.containers[0].ports[1].name: Duplicate value: "web"',
    'spec.containers[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
    'spec.containers[0].ports[2].containerPort: Required value',
  ]],
  ['requests above limits', (s) => { c0(s)['resources'] = { limits: { cpu: '1' }, requests: { cpu: '2000m' } }; }, [
    'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  ]],
  ['negative request', (s) => { c0(s)['resources'] = { requests: { memory: '-1Gi' } }; }, [
    'spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
  ]],
  ['unknown resource', (s) => { c0(s)['resources'] = { limits: { gpu: '1' } }; }, [
    'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
    'spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers',
  ]],
  ['extended resource must be equal and integer', (s) => { c0(s)['resources'] = { limits: { 'example.com/dev': '2' }, requests: { 'example.com/dev': '1' } }; }, [
    'spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/dev limit of 2',
  ]],
  ['restartPolicy', (s) => { s['restartPolicy'] = 'Sometimes'; }, ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
  ['dnsPolicy', (s) => { s['dnsPolicy'] = 'Bogus'; }, ['spec.dnsPolicy: Unsupported value: "Bogus": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
  ['volumes', (s) => {
    s['volumes'] = [{ name: 'a' }, { name: 'b', emptyDir: {}, configMap: { name: 'x' } }, { name: 'c', emptyDir: {} }, { name: 'c', emptyDir: {} }];
  }, [
    'spec.volumes[0]: Required value: must specify a volume type',
    'spec.volumes[1].configMap: Forbidden: may not specify more than 1 volume type',
    'spec.volumes[3].name: Duplicate value: "c"',
  ]],
  ['volume source fields', (s) => { s['volumes'] = [{ name: 'a', secret: { defaultMode: 1000 } }, { name: 'b', persistentVolumeClaim: {} }]; }, [
    'spec.volumes[0].secret.secretName: Required value',
    'spec.volumes[0].secret.defaultMode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive',
    'spec.volumes[1].persistentVolumeClaim.claimName: Required value',
  ]],
  ['mount of an unknown volume', (s) => { c0(s)['volumeMounts'] = [{ name: 'data', mountPath: '/data' }]; }, ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
  ['env', (s) => { c0(s)['env'] = [{ name: 'A=B' }, { value: 'x' }, { name: 'C', valueFrom: {} }]; }, [
    `spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
    'spec.containers[0].env[1].name: Required value',
    'spec.containers[0].env[2].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
  ]],
  ['probe handler', (s) => { c0(s)['livenessProbe'] = { successThreshold: 2 }; }, [
    'spec.containers[0].livenessProbe: Required value: must specify a handler type',
    'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
  ]],
  ['tolerations', (s) => { s['tolerations'] = [{ operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Exists', value: 'v', tolerationSeconds: 5, effect: 'NoSchedule' }]; }, [
    'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    `spec.tolerations[1].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
    `spec.tolerations[1].operator: Invalid value: "v": value must be empty when \`operator\` is 'Exists'`,
  ]],
  ['image whitespace (pods only)', (s) => { c0(s)['image'] = ' nginx'; }, ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace']],
  ['activeDeadlineSeconds', (s) => { s['activeDeadlineSeconds'] = 0; }, ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
];

for (const [name, mut, want] of cases) test(`pod: ${name}`, () => assert.deepEqual(validatePod(pod(mut)).map(String), want));

test('pod update: image, activeDeadlineSeconds and added tolerations may change', () => {
  const old = pod((s) => { s['tolerations'] = [{ key: 'a', operator: 'Exists' }]; });
  const next = pod((s) => {
    c0(s)['image'] = 'nginx:1.26';
    s['activeDeadlineSeconds'] = 100;
    s['tolerations'] = [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }];
  });
  assert.deepEqual(validatePodUpdate(next, old).map(String), []);
});

test('pod update: other spec changes are forbidden with kube message', () => {
  const errs = validatePodUpdate(pod((s) => { c0(s)['ports'] = [{ containerPort: 80, protocol: 'TCP' }]; }), pod()).map(String);
  assert.equal(errs.length, 1);
  assert.ok(errs[0]!.startsWith(UPDATE_PREFIX), errs[0]);
  assert.match(errs[0]!, /spec\.containers\[0\]\.ports/);
});

test('pod update: containers may not be added; tolerations only added; deadline only lowered', () => {
  const two = pod((s) => { (s['containers'] as J[]).push({ ...c0(s), name: 'b' }); });
  assert.deepEqual(validatePodUpdate(two, pod()).map(String), ['spec.containers: Forbidden: pod updates may not add or remove containers']);
  const old = pod((s) => { s['tolerations'] = [{ key: 'a', operator: 'Exists' }]; s['activeDeadlineSeconds'] = 10; });
  const next = pod((s) => { s['tolerations'] = []; s['activeDeadlineSeconds'] = 20; });
  assert.deepEqual(validatePodUpdate(next, old).map(String), ['spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value']);
  const next2 = pod((s) => { s['tolerations'] = []; s['activeDeadlineSeconds'] = 5; });
  assert.deepEqual(validatePodUpdate(next2, old).map(String), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
});

test('privileged containers: refused by cluster policy unless --allow-privileged', () => {
  const spec = { containers: [{ name: 'a', image: 'x', securityContext: { privileged: true } }], ephemeralContainers: [] };
  const pod: J = { metadata: { name: 'p', namespace: 'default' }, spec };
  assert.deepEqual(validatePod(pod).map(String), ['spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy']);
  assert.deepEqual(validatePodTemplateSpec({ spec: { ...spec, initContainers: [{ name: 'i', image: 'x', securityContext: { privileged: true } }] } }, 'spec.template').map(String), [
    'spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
    'spec.template.spec.initContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
  ]);
  assert.deepEqual(withPolicy({ allowPrivileged: true }, () => validatePod(pod)), []);
  // The scope ends with the call.
  assert.equal(validatePod(pod).length, 1);
  assert.deepEqual(validatePod({ ...pod, spec: { containers: [{ name: 'a', image: 'x', securityContext: { privileged: false } }] } }), []);
});
