import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { StrategyContext } from '../../api/types.ts';
import { builtinCatalog } from './groups/index.ts';
import { statusStrategy } from './strategy-kit.ts';
import { podStrategy } from './core/pods.ts';

const ctx = (subresource = ''): StrategyContext => ({ subresource, dryRun: false });
const clone = <T>(v: T): T => structuredClone(v);

void test('main-resource writes keep status; status writes keep spec and metadata', () => {
  const s = statusStrategy({ status: true, generation: true });
  assert.equal(s.tracksGeneration, true);
  const created: KObject = { metadata: { name: 'd' }, spec: { replicas: 1 }, status: { replicas: 5 } };
  s.prepareForCreate!(created, ctx());
  assert.deepEqual(created['status'], {}, 'kube resets status to empty on create');

  const old: KObject = { metadata: { name: 'd', generation: 1, labels: { a: '1' } }, spec: { replicas: 1 }, status: { replicas: 1 } };
  const upd: KObject = { metadata: { name: 'd', generation: 1, labels: { a: '2' } }, spec: { replicas: 3 }, status: { replicas: 9 } };
  s.prepareForUpdate!(upd, clone(old), ctx());
  assert.deepEqual(upd['status'], { replicas: 1 });
  assert.deepEqual(upd.metadata.labels, { a: '2' });

  const st: KObject = { metadata: { name: 'd', generation: 1, labels: { x: 'y' } }, spec: { replicas: 100 }, extra: 1, status: { replicas: 2 } };
  s.prepareForUpdate!(st, clone(old), ctx('status'));
  assert.deepEqual(st['spec'], { replicas: 1 });
  assert.equal(st['extra'], undefined);
  assert.deepEqual(st['status'], { replicas: 2 });
  assert.deepEqual(st.metadata.labels, { a: '1' }, 'status writes cannot change labels');
});

void test('generation is tracked by the kinds kube tracks it for', () => {
  const c = builtinCatalog();
  const tracks = (g: string, r: string) => (c.lookup(g, 'v1', r)!.strategy as { tracksGeneration?: boolean }).tracksGeneration === true;
  assert.equal(tracks('apps', 'deployments'), true);
  assert.equal(tracks('batch', 'jobs'), true);
  assert.equal(tracks('apiextensions.k8s.io', 'customresourcedefinitions'), true);
  assert.equal(tracks('', 'configmaps'), false);
  assert.equal(tracks('', 'pods'), true, 'kube 1.33 tracks pod generation');
  assert.equal(tracks('', 'services'), false);
  assert.equal(tracks('', 'namespaces'), false);
});

void test('pods: Pending with a QoS class on create; graceful deletion period', () => {
  const pod: KObject = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running' } };
  podStrategy.prepareForCreate!(pod, ctx());
  assert.deepEqual(pod['status'], { phase: 'Pending', qosClass: 'BestEffort' });
  const guaranteed: KObject = { metadata: { name: 'g' }, spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' } } }] } };
  podStrategy.prepareForCreate!(guaranteed, ctx());
  assert.equal((guaranteed['status'] as { qosClass: string }).qosClass, 'Guaranteed');

  const unscheduled: KObject = { metadata: { name: 'p' }, spec: { terminationGracePeriodSeconds: 10 } };
  assert.equal(podStrategy.gracefulDeletePeriod!(unscheduled, undefined), 0);
  const scheduled: KObject = { metadata: { name: 'p' }, spec: { nodeName: 'n1', terminationGracePeriodSeconds: 10 }, status: { phase: 'Running' } };
  assert.equal(podStrategy.gracefulDeletePeriod!(scheduled, undefined), 10);
  assert.equal(podStrategy.gracefulDeletePeriod!(scheduled, 3), 3);
  assert.equal(podStrategy.gracefulDeletePeriod!({ ...scheduled, spec: { nodeName: 'n1' } }, undefined), 30);
  assert.equal(podStrategy.gracefulDeletePeriod!({ ...scheduled, status: { phase: 'Succeeded' } }, undefined), 0);
});

void test('pods: status writes keep spec and owner references; ephemeralcontainers only touches that list', () => {
  const old: KObject = { metadata: { name: 'p', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: '1' }], labels: { a: '1' } }, spec: { containers: [{ name: 'c' }] }, status: { phase: 'Pending' } };
  const st: KObject = { metadata: { name: 'p', labels: { a: '2' } }, spec: { containers: [] }, status: { phase: 'Running' } };
  podStrategy.prepareForUpdate!(st, clone(old), ctx('status'));
  assert.deepEqual(st['spec'], old['spec']);
  assert.deepEqual(st.metadata.ownerReferences, old.metadata.ownerReferences);
  assert.deepEqual(st.metadata.labels, { a: '2' }, 'kubelets may update labels through status (kube keeps them)');
  assert.deepEqual(st['status'], { phase: 'Running' });

  const eph: KObject = { metadata: { name: 'p' }, spec: { containers: [], ephemeralContainers: [{ name: 'debug' }] }, status: { phase: 'Failed' } };
  podStrategy.prepareForUpdate!(eph, clone(old), ctx('ephemeralcontainers'));
  assert.deepEqual(eph['spec'], { containers: [{ name: 'c' }], ephemeralContainers: [{ name: 'debug' }] });
  assert.deepEqual(eph['status'], { phase: 'Pending' });
});

void test('namespaces: Active, the kubernetes finalizer and the name label; finalize changes only finalizers', () => {
  const ns = builtinCatalog().lookup('', 'v1', 'namespaces')!.strategy!;
  const o: KObject = { metadata: { name: 'team' } };
  ns.prepareForCreate!(o, ctx());
  assert.deepEqual(o['status'], { phase: 'Active' });
  assert.deepEqual(o['spec'], { finalizers: ['kubernetes'] });
  assert.equal(o.metadata.labels?.['kubernetes.io/metadata.name'], 'team');
  const upd: KObject = { metadata: { name: 'team' }, spec: { finalizers: [] } };
  ns.prepareForUpdate!(upd, clone(o), ctx());
  assert.deepEqual(upd['spec'], { finalizers: ['kubernetes'] });
  assert.equal(upd.metadata.labels?.['kubernetes.io/metadata.name'], 'team');
  const fin: KObject = { metadata: { name: 'team' }, spec: { finalizers: [] }, status: { phase: 'Gone' } };
  ns.prepareForUpdate!(fin, clone(o), ctx('finalize'));
  assert.deepEqual(fin['spec'], { finalizers: [] });
  assert.deepEqual(fin['status'], { phase: 'Active' });
});

void test('allowCreateOnUpdate follows kube per kind', () => {
  const c = builtinCatalog();
  const cou = (g: string, v: string, r: string) => c.lookup(g, v, r)!.strategy?.allowCreateOnUpdate ?? false;
  for (const [g, v, r] of [['', 'v1', 'services'], ['', 'v1', 'endpoints'], ['', 'v1', 'events'], ['apps', 'v1', 'deployments'], ['coordination.k8s.io', 'v1', 'leases'], ['rbac.authorization.k8s.io', 'v1', 'roles']] as const) {
    assert.equal(cou(g, v, r), true, r);
  }
  for (const [g, v, r] of [['', 'v1', 'configmaps'], ['', 'v1', 'pods'], ['', 'v1', 'namespaces'], ['batch', 'v1', 'jobs'], ['apiextensions.k8s.io', 'v1', 'customresourcedefinitions']] as const) {
    assert.equal(cou(g, v, r), false, r);
  }
});

void test('no strategy hook throws on odd objects (bad input must become a Status, not a crash)', () => {
  const odd = (): KObject[] => [
    { metadata: {} },
    { metadata: { name: 'x' }, spec: 'oops', status: 7 },
    { metadata: { name: 'x' }, spec: { template: 'x', jobTemplate: [], containers: [null, 'c', { name: 3 }], ports: [null], strategy: 'x', updateStrategy: 5, selector: null, volumes: [null, { secret: 'x' }] } },
    { metadata: { name: 'x' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i', ports: [{}], env: [null, { valueFrom: 'x' }], livenessProbe: 'x' }] } } }, stringData: { a: 1 }, subjects: [null, 'x'] },
  ];
  for (const d of builtinCatalog().all()) {
    const s = d.strategy;
    if (!s) continue;
    for (const sub of ['', 'status']) {
      for (const o of odd()) {
        assert.doesNotThrow(() => {
          s.prepareForCreate?.(o, ctx(sub));
          s.defaults?.(o);
          s.validate?.(o, ctx(sub));
          const old = odd()[1]!;
          s.prepareForUpdate?.(o, old, ctx(sub));
          s.validateUpdate?.(o, old, ctx(sub));
          s.gracefulDeletePeriod?.(o, undefined);
        }, `${d.group}/${d.resource} ${sub}`);
      }
    }
  }
});

void test('pods/resize changes container resources and nothing else', () => {
  const old: KObject = { metadata: { name: 'p', namespace: 'n', labels: { a: '1' }, resourceVersion: '5', uid: 'u' },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '1' } } }], nodeName: 'n1' }, status: { phase: 'Running' } };
  const req: KObject = { metadata: { name: 'p', namespace: 'n', labels: { a: 'changed' }, resourceVersion: '5', uid: 'u' },
    spec: { containers: [{ name: 'c', image: 'other', resources: { requests: { cpu: '2' } }, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }], nodeName: 'n2' }, status: { phase: 'Failed' } };
  podStrategy.prepareForUpdate!(req, clone(old), ctx('resize'));
  assert.deepEqual(req, { metadata: old.metadata, spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: '2' } }, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }], nodeName: 'n1' }, status: { phase: 'Running' } });
});

void test('CSRs record the requester; /approval changes only the conditions', () => {
  const csr = builtinCatalog().lookup('certificates.k8s.io', 'v1', 'certificatesigningrequests')!.strategy!;
  const o: KObject = { metadata: { name: 'c' }, spec: { request: 'UkVR', signerName: 's', username: 'root', groups: ['system:masters'] }, status: { certificate: 'x' } };
  csr.prepareForCreate!(o, { subresource: '', dryRun: false, user: { username: 'alice', uid: '42', groups: ['dev', 'system:authenticated'] } });
  assert.deepEqual(o['spec'], { request: 'UkVR', signerName: 's', username: 'alice', uid: '42', groups: ['dev', 'system:authenticated'] });
  assert.deepEqual(o['status'], {});
  const old = clone(o);
  old['status'] = { certificate: 'CERT' };
  const appr: KObject = { metadata: { name: 'c' }, spec: { request: 'OTHER' }, status: { certificate: 'FORGED', conditions: [{ type: 'Approved', status: 'True' }] } };
  csr.prepareForUpdate!(appr, clone(old), ctx('approval'));
  assert.deepEqual(appr['spec'], old['spec']);
  assert.deepEqual(appr['status'], { certificate: 'CERT', conditions: [{ type: 'Approved', status: 'True' }] });
});

void test('nodes keep their status on create; other kinds with a status sub-resource start empty', () => {
  const c = builtinCatalog();
  const nodes = c.lookup('', 'v1', 'nodes')!.strategy as { allowStatusOnCreate?: boolean } & typeof podStrategy;
  assert.equal(nodes.allowStatusOnCreate, true);
  const n: KObject = { metadata: { name: 'n1' }, status: { nodeInfo: { kubeletVersion: 'v1.33.0' } } };
  nodes.prepareForCreate!(n, ctx());
  assert.deepEqual(n['status'], { nodeInfo: { kubeletVersion: 'v1.33.0' } });
  const svc: KObject = { metadata: { name: 's' }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } };
  c.lookup('', 'v1', 'services')!.strategy!.prepareForCreate!(svc, ctx());
  assert.deepEqual(svc['status'], { loadBalancer: {} });
});
