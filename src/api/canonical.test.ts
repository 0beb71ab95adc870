// The canonicalizer against kube-shaped JSON (facts: the Go types' field order and json tags, encoding/json's
// rules, Quantity's MarshalJSON). Byte comparison of JSON.stringify output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './protobuf/messages/index.ts';
import { canonicalMessage, normalizeValues, objectShape, sortedDeep } from './canonical.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

type Obj = Record<string, unknown>;

function canon(message: string, obj: Obj, rv?: string): string {
  return JSON.stringify(objectShape(message).canonical(obj, rv));
}

const cases: { name: string; message: string; input: Obj; want: string }[] = [
  {
    name: 'RoleBinding: Go field order (subjects before roleRef), kind/apiVersion first, struct order inside',
    message: 'rbac.v1.RoleBinding',
    input: { roleRef: { name: 'r', kind: 'Role', apiGroup: 'rbac.authorization.k8s.io' }, subjects: [{ name: 'u', kind: 'User', apiGroup: 'rbac.authorization.k8s.io' }], metadata: { namespace: 'n', name: 'x', creationTimestamp: '2026-01-01T00:00:00Z' }, apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding' },
    want: '{"kind":"RoleBinding","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"x","namespace":"n","creationTimestamp":"2026-01-01T00:00:00Z"},"subjects":[{"kind":"User","apiGroup":"rbac.authorization.k8s.io","name":"u"}],"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"}}',
  },
  {
    name: 'APIService: spec in Go order, empty status struct written',
    message: 'apiregistration.v1.APIService',
    input: { kind: 'APIService', apiVersion: 'apiregistration.k8s.io/v1', metadata: { name: 'v1.x' }, spec: { versionPriority: 15, version: 'v1', groupPriorityMinimum: 100, group: 'x', service: { namespace: 'n', name: 's' } } },
    want: '{"kind":"APIService","apiVersion":"apiregistration.k8s.io/v1","metadata":{"name":"v1.x","creationTimestamp":null},"spec":{"service":{"namespace":"n","name":"s"},"group":"x","version":"v1","groupPriorityMinimum":100,"versionPriority":15},"status":{}}',
  },
  {
    name: 'ConfigMap: maps sorted, empty omitempty map dropped',
    message: 'core.v1.ConfigMap',
    input: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', labels: {}, annotations: { z: '1', a: '2' }, creationTimestamp: '2026-01-01T00:00:00Z' }, data: { z: '1', b: '2', a: '3' } },
    want: '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","creationTimestamp":"2026-01-01T00:00:00Z","annotations":{"a":"2","z":"1"}},"data":{"a":"3","b":"2","z":"1"}}',
  },
  {
    name: 'ReplicationController: status.replicas 0, selector sorted, template creationTimestamp null, quantities canonical',
    message: 'core.v1.ReplicationController',
    input: { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc', namespace: 'd' }, spec: { replicas: 1, selector: { b: '1', a: '2' }, template: { metadata: { labels: { b: '1', a: '2' } }, spec: { containers: [{ image: 'x', name: 'c', resources: { limits: { memory: '0.5Gi', cpu: '0.5' }, requests: { cpu: '1000m' } } }] } } } },
    want: '{"kind":"ReplicationController","apiVersion":"v1","metadata":{"name":"rc","namespace":"d","resourceVersion":"7","creationTimestamp":null},"spec":{"replicas":1,"selector":{"a":"2","b":"1"},"template":{"metadata":{"creationTimestamp":null,"labels":{"a":"2","b":"1"}},"spec":{"containers":[{"name":"c","image":"x","resources":{"limits":{"cpu":"500m","memory":"512Mi"},"requests":{"cpu":"1"}}}]}}},"status":{"replicas":0}}',
  },
  {
    name: 'DaemonSet: the four status counters without omitempty',
    message: 'apps.v1.DaemonSet',
    input: { kind: 'DaemonSet', apiVersion: 'apps/v1', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, updateStrategy: { type: 'OnDelete' } }, status: {} },
    want: '{"kind":"DaemonSet","apiVersion":"apps/v1","metadata":{"name":"d","creationTimestamp":null},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","resources":{}}]}},"updateStrategy":{"type":"OnDelete"}},"status":{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}}',
  },
  {
    name: 'PodDisruptionBudget: status counters',
    message: 'policy.v1.PodDisruptionBudget',
    input: { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1', metadata: { name: 'p' }, spec: { minAvailable: 1, selector: { matchLabels: { b: '1', a: '1' } } } },
    want: '{"kind":"PodDisruptionBudget","apiVersion":"policy/v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"minAvailable":1,"selector":{"matchLabels":{"a":"1","b":"1"}}},"status":{"disruptionsAllowed":0,"currentHealthy":0,"desiredHealthy":0,"expectedPods":0}}',
  },
  {
    name: 'HorizontalPodAutoscaler v1: currentReplicas and desiredReplicas',
    message: 'autoscaling.v1.HorizontalPodAutoscaler',
    input: { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1', metadata: { name: 'h' }, spec: { maxReplicas: 3, scaleTargetRef: { name: 'd', kind: 'Deployment', apiVersion: 'apps/v1' } } },
    want: '{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v1","metadata":{"name":"h","creationTimestamp":null},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d","apiVersion":"apps/v1"},"maxReplicas":3},"status":{"currentReplicas":0,"desiredReplicas":0}}',
  },
  {
    name: 'HorizontalPodAutoscaler v2: desiredReplicas and currentMetrics null',
    message: 'autoscaling.v2.HorizontalPodAutoscaler',
    input: { kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v2', metadata: { name: 'h' }, spec: { maxReplicas: 3, scaleTargetRef: { name: 'd', kind: 'Deployment', apiVersion: 'apps/v1' } } },
    want: '{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v2","metadata":{"name":"h","creationTimestamp":null},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d","apiVersion":"apps/v1"},"maxReplicas":3},"status":{"desiredReplicas":0,"currentMetrics":null}}',
  },
  {
    name: 'VolumeAttachment: attached false',
    message: 'storage.v1.VolumeAttachment',
    input: { kind: 'VolumeAttachment', apiVersion: 'storage.k8s.io/v1', metadata: { name: 'va' }, spec: { source: { persistentVolumeName: 'pv' }, nodeName: 'n', attacher: 'a' } },
    want: '{"kind":"VolumeAttachment","apiVersion":"storage.k8s.io/v1","metadata":{"name":"va","creationTimestamp":null},"spec":{"attacher":"a","source":{"persistentVolumeName":"pv"},"nodeName":"n"},"status":{"attached":false}}',
  },
  {
    name: 'Ingress: status.loadBalancer {} (omitempty on a struct never omits)',
    message: 'networking.v1.Ingress',
    input: { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', metadata: { name: 'i' }, spec: { defaultBackend: { service: { port: { number: 80 }, name: 's' } } } },
    want: '{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"i","creationTimestamp":null},"spec":{"defaultBackend":{"service":{"name":"s","port":{"number":80}}}},"status":{"loadBalancer":{}}}',
  },
  {
    name: 'Node: daemonEndpoints and nodeInfo filled with their own fields',
    message: 'core.v1.Node',
    input: { kind: 'Node', apiVersion: 'v1', metadata: { name: 'n' } },
    want: '{"kind":"Node","apiVersion":"v1","metadata":{"name":"n","creationTimestamp":null},"spec":{},"status":{"daemonEndpoints":{"kubeletEndpoint":{"Port":0}},"nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"","osImage":"","containerRuntimeVersion":"","kubeletVersion":"","kubeProxyVersion":"","operatingSystem":"","architecture":""}}}',
  },
  {
    name: 'core Event: zero times null, reportingComponent/Instance ""',
    message: 'core.v1.Event',
    input: { kind: 'Event', apiVersion: 'v1', metadata: { name: 'e' }, involvedObject: { name: 'p', kind: 'Pod' }, reason: 'x', count: 0 },
    want: '{"kind":"Event","apiVersion":"v1","metadata":{"name":"e","creationTimestamp":null},"involvedObject":{"kind":"Pod","name":"p"},"reason":"x","source":{},"firstTimestamp":null,"lastTimestamp":null,"eventTime":null,"reportingComponent":"","reportingInstance":""}',
  },
  {
    name: 'CustomResourceDefinition: schema in JSONSchemaProps order, properties sorted, status acceptedNames and null lists',
    message: 'apiextensions.v1.CustomResourceDefinition',
    input: { kind: 'CustomResourceDefinition', apiVersion: 'apiextensions.k8s.io/v1', metadata: { name: 'ps.g' }, spec: { scope: 'Namespaced', group: 'g', names: { kind: 'P', plural: 'ps' }, versions: [{ storage: true, served: true, name: 'v1', schema: { openAPIV3Schema: { properties: { z: { type: 'string' }, a: { default: { y: 1, b: 2 }, type: 'object', additionalProperties: { type: 'string' } } }, type: 'object' } } }] } },
    want: '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"ps.g","creationTimestamp":null},"spec":{"group":"g","names":{"plural":"ps","kind":"P"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{"type":"object","default":{"y":1,"b":2},"additionalProperties":{"type":"string"}},"z":{"type":"string"}}}}}]},"status":{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":null}}',
  },
  {
    name: 'PersistentVolume hostPath: a set pointer keeps its zero value ("")',
    message: 'core.v1.PersistentVolume',
    input: { kind: 'PersistentVolume', apiVersion: 'v1', metadata: { name: 'pv' }, spec: { accessModes: ['ReadWriteOnce'], hostPath: { type: '', path: '/x' }, capacity: { storage: '1000Mi' } } },
    want: '{"kind":"PersistentVolume","apiVersion":"v1","metadata":{"name":"pv","creationTimestamp":null},"spec":{"capacity":{"storage":"1000Mi"},"hostPath":{"path":"/x","type":""},"accessModes":["ReadWriteOnce"]},"status":{}}',
  },
  {
    name: 'Pod: inline VolumeSource in place, resources canonical and sorted, Probe handler inline, unknown keys last',
    message: 'core.v1.Pod',
    input: { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' }, spec: { containers: [{ readinessProbe: { periodSeconds: 3, httpGet: { port: 80 } }, resources: { requests: { memory: '1024Mi', cpu: '0.1' } }, name: 'c' }], volumes: [{ emptyDir: { sizeLimit: '1e3' }, name: 'v' }], extra: true } },
    want: '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","creationTimestamp":null},"spec":{"volumes":[{"name":"v","emptyDir":{"sizeLimit":"1e3"}}],"containers":[{"name":"c","resources":{"requests":{"cpu":"100m","memory":"1Gi"}},"readinessProbe":{"httpGet":{"port":80},"periodSeconds":3}}],"extra":true},"status":{}}',
  },
  {
    name: 'ControllerRevision: absent RawExtension is null, revision 0 written',
    message: 'apps.v1.ControllerRevision',
    input: { kind: 'ControllerRevision', apiVersion: 'apps/v1', metadata: { name: 'r' } },
    want: '{"kind":"ControllerRevision","apiVersion":"apps/v1","metadata":{"name":"r","creationTimestamp":null},"data":null,"revision":0}',
  },
];

for (const c of cases) {
  test(`canonical: ${c.name}`, () => assert.equal(canon(c.message, c.input, c.message === 'core.v1.ReplicationController' ? '7' : undefined), c.want));
}

test('canonical: idempotent on every case', () => {
  for (const c of cases) {
    const once = objectShape(c.message).canonical(c.input);
    assert.equal(JSON.stringify(objectShape(c.message).canonical(once)), JSON.stringify(once), c.name);
  }
});

test('canonical: metadata in ObjectMeta order, selfLink dropped, resourceVersion from the argument', () => {
  const input = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { managedFields: [{ time: 't', manager: 'm', operation: 'Update', fieldsV1: { 'f:data': {} }, apiVersion: 'v1', fieldsType: 'FieldsV1' }], finalizers: ['f'], labels: { b: '', a: '' }, uid: 'u', selfLink: '/x', resourceVersion: '3', generateName: 'g', name: 'n' } };
  assert.equal(canon('core.v1.ConfigMap', input),
    '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"n","generateName":"g","uid":"u","creationTimestamp":null,"labels":{"a":"","b":""},"finalizers":["f"],"managedFields":[{"manager":"m","operation":"Update","apiVersion":"v1","time":"t","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}]}}');
  assert.equal(canon('core.v1.ConfigMap', input, '9').includes('"uid":"u","resourceVersion":"9","creationTimestamp"'), true);
});

test('canonical: withResourceVersion puts the version in its place', () => {
  const s = objectShape('core.v1.ConfigMap');
  const c = s.canonical({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'n', uid: 'u', creationTimestamp: 't' } });
  assert.equal(JSON.stringify(s.withResourceVersion(c, '5')), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"n","uid":"u","resourceVersion":"5","creationTimestamp":"t"}}');
  const cr = objectShape(undefined).canonical({ kind: 'W', apiVersion: 'e/v1', metadata: { name: 'n', uid: 'u' } });
  assert.equal(JSON.stringify(objectShape(undefined).withResourceVersion(cr, '5')), '{"apiVersion":"e/v1","kind":"W","metadata":{"creationTimestamp":null,"name":"n","resourceVersion":"5","uid":"u"}}');
});

test('canonical: custom resources have every key sorted, metadata made ObjectMeta first', () => {
  const cr = { spec: { z: 1, a: [{ y: 1, b: { d: 1, c: 2 } }], m: null }, metadata: { uid: 'u', namespace: 'n', name: 'x', labels: {}, creationTimestamp: 't', generation: 1 }, kind: 'W', apiVersion: 'e/v1', status: { b: 1, a: 2 } };
  assert.equal(JSON.stringify(objectShape(undefined).canonical(cr, '4')),
    '{"apiVersion":"e/v1","kind":"W","metadata":{"creationTimestamp":"t","generation":1,"name":"x","namespace":"n","resourceVersion":"4","uid":"u"},"spec":{"a":[{"b":{"c":2,"d":1},"y":1}],"m":null,"z":1},"status":{"a":2,"b":1}}');
  assert.equal(JSON.stringify(sortedDeep([{ b: 1, a: [{ d: 1, c: 1 }] }])), '[{"a":[{"c":1,"d":1}],"b":1}]');
  assert.equal(JSON.stringify(objectShape('example.v1.Nothing').canonical({ b: 1, a: 1 })), '{"a":1,"b":1}');
});

test('canonical: embedded messages on their own', () => {
  assert.equal(JSON.stringify(canonicalMessage('core.v1.ResourceRequirements', { requests: { memory: '0.5Gi' }, limits: { cpu: '2000m' } })), '{"limits":{"cpu":"2"},"requests":{"memory":"512Mi"}}');
  assert.equal(JSON.stringify(canonicalMessage('meta.LabelSelector', { matchExpressions: [{ values: ['a'], operator: 'In', key: 'k' }] })), '{"matchExpressions":[{"key":"k","operator":"In","values":["a"]}]}');
});

test('canonical: kube-apiserver v1.32 answers are fixed points', () => {
  const files: [string, string][] = [
    ['api_v1_namespaces_ref.json', 'core.v1.Namespace'], ['api_v1_namespaces_ref_configmaps_cm1.json', 'core.v1.ConfigMap'],
    ['api_v1_namespaces_ref_pods_pod1.json', 'core.v1.Pod'], ['api_v1_namespaces_ref_serviceaccounts_robot.json', 'core.v1.ServiceAccount'],
    ['api_v1_namespaces_ref_services_svc1.json', 'core.v1.Service'], ['apis_apps_v1_namespaces_ref_deployments_web.json', 'apps.v1.Deployment'],
    ['apis_batch_v1_namespaces_ref_jobs_j1.json', 'batch.v1.Job'],
  ];
  for (const [file, message] of files) {
    const kube = readKubeJson<Obj>('responses/objects', file);
    const rv = (kube['metadata'] as Obj)['resourceVersion'] as string;
    assert.equal(JSON.stringify(objectShape(message).canonical(kube, rv)), JSON.stringify(kube), file);
  }
});

test('normalizeValues: quantities canonical in place, shape untouched', () => {
  const pod: Obj = { spec: { containers: [{ name: 'c', resources: { limits: { memory: '0.5Gi', cpu: '1000m' } } }], overhead: { cpu: '0.1' } }, metadata: { labels: { b: '1', a: '1' } } };
  normalizeValues('core.v1.Pod', pod);
  assert.equal(JSON.stringify(pod), '{"spec":{"containers":[{"name":"c","resources":{"limits":{"memory":"512Mi","cpu":"1"}}}],"overhead":{"cpu":"100m"}},"metadata":{"labels":{"b":"1","a":"1"}}}');
  const cr: Obj = { spec: { memory: '0.5Gi' } };
  normalizeValues(undefined, cr);
  assert.equal(JSON.stringify(cr), '{"spec":{"memory":"0.5Gi"}}');
});
