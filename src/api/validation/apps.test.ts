// ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec, ValidateDaemonSetSpec,
// ValidateStatefulSetUpdate (pkg/apis/apps/validation/validation.go) and the strategies' immutable selector.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { immutableSelector, validateDaemonSet, validateDeployment, validateReplicaSet, validateStatefulSet, validateStatefulSetUpdate } from './apps.ts';
import { validateFor } from './index.ts';
import type { J } from './util.ts';
import type { KObject } from '../../machinery/objects.ts';

function template(labels: Record<string, string> = { app: 'web' }, restartPolicy = 'Always'): J {
  return { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], restartPolicy, dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 } };
}
function deploy(mut: (s: J) => void = () => {}): J {
  const spec: J = { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template(), strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } }, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 };
  mut(spec);
  return { metadata: { name: 'd', namespace: 'default' }, spec };
}

const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

const deploymentCases: [string, (s: J) => void, string[]][] = [
  ['valid', () => {}, []],
  ['selector missing', (s) => { delete s['selector']; }, ['spec.selector: Required value', `spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: ${SELECTOR_MISMATCH}`]],
  ['selector empty', (s) => { s['selector'] = {}; }, ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']],
  ['selector mismatch', (s) => { s['selector'] = { matchLabels: { app: 'other' } }; }, [`spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: ${SELECTOR_MISMATCH}`]],
  ['match expressions', (s) => { s['selector'] = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }; }, []],
  ['bad operator', (s) => { s['selector'] = { matchExpressions: [{ key: 'app', operator: 'Has' }] }; }, [
    'spec.selector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator',
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Has", Values:[]string(nil)}}}: invalid label selector',
  ]],
  ['negative replicas', (s) => { s['replicas'] = -1; }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
  ['restartPolicy', (s) => { s['template'] = template({ app: 'web' }, 'Never'); }, ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']],
  ['strategy type', (s) => { s['strategy'] = { type: 'BlueGreen' }; }, ['spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"']],
  ['recreate with rollingUpdate', (s) => { s['strategy'] = { type: 'Recreate', rollingUpdate: {} }; }, ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]],
  ['both zero', (s) => { s['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } }; }, [
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
  ]],
  ['bad percent and over 100', (s) => { s['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '120%', maxSurge: 'x' } }; }, [
    `spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%',
  ]],
  ['progressDeadline', (s) => { s['minReadySeconds'] = 10; s['progressDeadlineSeconds'] = 10; }, ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds']],
];
for (const [name, mut, want] of deploymentCases) test(`deployment: ${name}`, () => assert.deepEqual(validateDeployment(deploy(mut)).map(String), want));

test('deployment update: selector is immutable (apps/v1)', () => {
  const next = deploy((s) => { s['selector'] = { matchLabels: { app: 'web', tier: 'x' } }; s['template'] = template({ app: 'web', tier: 'x' }); });
  assert.deepEqual(immutableSelector(next, deploy()).map(String), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable']);
  const v = validateFor('apps', 'Deployment')!;
  assert.deepEqual(v.validateUpdate!(next as KObject, deploy() as KObject).map(String), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable']);
  assert.deepEqual(v.validateUpdate!(next as KObject, deploy() as KObject, { subresource: 'status' }), [], 'status writes skip spec rules');
});

test('replicaset: same template rules', () => {
  const rs: J = { spec: { replicas: 1, selector: { matchLabels: { app: 'x' } }, template: template() } };
  assert.deepEqual(validateReplicaSet(rs).map(String), [`spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: ${SELECTOR_MISMATCH}`]);
});

test('statefulset: policies, selector, update restrictions', () => {
  const ss: J = { spec: { replicas: 1, podManagementPolicy: 'Random', updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 0 } },
    selector: { matchLabels: { app: 'web' } }, template: template(), serviceName: 'web' } };
  assert.deepEqual(validateStatefulSet(ss).map(String), [
    `spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`,
    `spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:(*int32)(0xc000000000), MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'`,
  ]);
  const ok: J = { spec: { replicas: 1, podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'RollingUpdate' }, selector: { matchLabels: { app: 'web' } }, template: template(), serviceName: 'web' } };
  const changed: J = structuredClone(ok);
  (changed['spec'] as J)['serviceName'] = 'other';
  (changed['spec'] as J)['replicas'] = 3;
  assert.deepEqual(validateStatefulSetUpdate(changed, ok).map(String), [
    "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  ]);
});

test('statefulset (v1.33): the pod spec is not validated, so claim-template mounts pass; template labels and annotations are', () => {
  const withClaims: J = { spec: {
    replicas: 1, selector: { matchLabels: { app: 'db' } }, serviceName: 'db',
    template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  } };
  assert.deepEqual(validateStatefulSet(withClaims).map(String), []);
  const loose: J = structuredClone(withClaims);
  const t = (loose['spec'] as J)['template'] as J;
  (t['spec'] as J)['containers'] = [{ name: 'Not_A_Label', image: '' }];
  (t['metadata'] as J)['labels'] = { app: 'db', 'bad key!': 'x' };
  (t['metadata'] as J)['annotations'] = { 'controller.kubernetes.io/pod-deletion-cost': 'lots' };
  (t['spec'] as J)['restartPolicy'] = 'Never';
  assert.deepEqual(validateStatefulSet(loose).map(String), [
    `spec.template.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "lots": must be a 32bit integer',
    'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
  ]);
});

test('daemonset: selector, update strategy', () => {
  const ds: J = { spec: { selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } } };
  assert.deepEqual(validateDaemonSet(ds).map(String), ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']);
  const noSel: J = { spec: { template: template() } };
  assert.deepEqual(validateDaemonSet(noSel).map(String), [`spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: ${SELECTOR_MISMATCH}`]);
  const badType: J = { spec: { selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'Surge' } } };
  assert.deepEqual(validateDaemonSet(badType).map(String), ['spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Surge", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"']);
});
