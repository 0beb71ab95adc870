import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { StrategyContext } from '../../api/types.ts';
import { builtinCatalog } from './groups/index.ts';
import { defaultPullPolicy } from './core/defaults.ts';
import { readKubeJson } from '../../../test/support/kube-reference.ts';

const ref = (f: string) => readKubeJson<KObject>('responses/objects', f);
const ctx: StrategyContext = { subresource: '', dryRun: false };

/** What the generic store does on create, as far as the strategy is concerned. */
function create(group: string, resource: string, obj: KObject): KObject {
  const def = builtinCatalog().lookup(group, group === '' ? 'v1' : 'v1', resource)!;
  const o = structuredClone(obj);
  def.strategy!.prepareForCreate!(o, ctx);
  def.strategy!.defaults!(o);
  return o;
}

void test('deployments are defaulted as kube does (kubectl create deployment)', () => {
  const want = ref('apis_apps_v1_namespaces_ref_deployments_web.json');
  const got = create('apps', 'deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1', resources: {} }] } }, strategy: {} },
    status: {},
  });
  assert.deepEqual(got['spec'], want['spec']);
  assert.deepEqual(got['status'], want['status']);
});

void test('jobs get kube\'s selector, labels and defaults (kubectl create job)', () => {
  const want = ref('apis_batch_v1_namespaces_ref_jobs_j1.json');
  const uid = want.metadata.uid!;
  const got = create('batch', 'jobs', {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j1', uid },
    spec: { template: { metadata: {}, spec: { containers: [{ name: 'j1', image: 'busybox', resources: {} }], restartPolicy: 'Never' } } },
  });
  assert.deepEqual(got['spec'], want['spec']);
  assert.deepEqual(got.metadata.labels, want.metadata.labels);
});

void test('pods are defaulted as kube does, admission plugins aside (kubectl run)', () => {
  const want = ref('api_v1_namespaces_ref_pods_pod1.json');
  const got = create('', 'pods', {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod1', labels: { run: 'pod1' } },
    spec: { containers: [{ name: 'pod1', image: 'busybox', resources: {} }], restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' },
  });
  // Added by admission (ServiceAccount, DefaultTolerationSeconds, Priority), not by defaulting.
  const wantSpec = structuredClone(want['spec']) as Record<string, unknown>;
  for (const k of ['volumes', 'serviceAccountName', 'serviceAccount', 'tolerations', 'priority', 'preemptionPolicy']) delete wantSpec[k];
  for (const c of wantSpec['containers'] as Array<Record<string, unknown>>) delete c['volumeMounts'];
  assert.deepEqual(got['spec'], wantSpec);
  assert.deepEqual(got['status'], want['status']);
});

void test('services are defaulted as kube does, IP allocation aside (kubectl create service clusterip)', () => {
  const want = ref('api_v1_namespaces_ref_services_svc1.json');
  const got = create('', 'services', {
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc1', labels: { app: 'svc1' } },
    spec: { ports: [{ name: '80-8080', port: 80, targetPort: 8080 }], selector: { app: 'svc1' } },
  });
  const wantSpec = structuredClone(want['spec']) as Record<string, unknown>;
  for (const k of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) delete wantSpec[k];
  assert.deepEqual(got['spec'], wantSpec);
  assert.deepEqual(got['status'], want['status']);
});

void test('image pull policy defaults', () => {
  assert.equal(defaultPullPolicy('busybox'), 'Always');
  assert.equal(defaultPullPolicy('busybox:latest'), 'Always');
  assert.equal(defaultPullPolicy('nginx:1'), 'IfNotPresent');
  assert.equal(defaultPullPolicy('localhost:5000/app'), 'Always');
  assert.equal(defaultPullPolicy('localhost:5000/app:v2'), 'IfNotPresent');
  assert.equal(defaultPullPolicy('app@sha256:abc'), 'IfNotPresent');
});

void test('secrets default to Opaque; RBAC user subjects get the RBAC group', () => {
  assert.equal(create('', 'secrets', { metadata: { name: 's' } })['type'], 'Opaque');
  const rb = create('rbac.authorization.k8s.io', 'rolebindings', { metadata: { name: 'rb' }, subjects: [{ kind: 'User', name: 'a' }, { kind: 'ServiceAccount', name: 'd', namespace: 'n' }] });
  assert.deepEqual(rb['subjects'], [{ kind: 'User', name: 'a', apiGroup: 'rbac.authorization.k8s.io' }, { kind: 'ServiceAccount', name: 'd', namespace: 'n' }]);
});

test('endpoint ports default to TCP (Endpoints and EndpointSlice), slices also to an empty name', () => {
  const ep = create('', 'endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e' }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }] });
  assert.deepEqual((ep['subsets'] as Array<{ ports: unknown[] }>)[0]!.ports, [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }]);
  const slice = create('discovery.k8s.io', 'endpointslices', { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [], ports: [{ port: 80 }] });
  assert.deepEqual(slice['ports'], [{ port: 80, name: '', protocol: 'TCP' }]);
});
