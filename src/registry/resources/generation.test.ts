// metadata.generation and the per-kind update rules of kube's strategies, through the generic store.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { builtinCatalog } from './groups/index.ts';
import { statusOf, sys, testEnv, type TestEnv } from '../testing/registry.ts';

type J = Record<string, any>;

void describe('generation and update rules per kind', () => {
  let env: TestEnv;
  before(async () => {
    const c = builtinCatalog();
    const defs = [
      ['', 'v1', 'namespaces'], ['', 'v1', 'pods'], ['', 'v1', 'persistentvolumes'], ['apps', 'v1', 'deployments'], ['apps', 'v1', 'daemonsets'],
      ['apps', 'v1', 'statefulsets'], ['batch', 'v1', 'jobs'], ['discovery.k8s.io', 'v1', 'endpointslices'],
      ['autoscaling', 'v2', 'horizontalpodautoscalers'], ['autoscaling', 'v1', 'horizontalpodautoscalers'],
    ].map(([g, v, r]) => c.lookup(g!, v!, r!)!);
    env = await testEnv({ defs });
  });
  after(async () => { await env.close(); });
  const store = (g: string, v: string, r: string) => env.registry.lookup(g, v, r)!;
  const tmpl = (labels: Record<string, string>) => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } });

  async function put(g: string, v: string, r: string, obj: KObject, change: (o: J) => void, ns = 'default'): Promise<KObject> {
    const next = structuredClone(obj) as J;
    change(next);
    return (await store(g, v, r).update(sys(ns), obj.metadata.name!, next as KObject, {})).object;
  }

  void it('Deployment: an annotation change bumps generation, a label change does not', async () => {
    const d = await store('apps', 'v1', 'deployments').create(sys('default'), {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl({ a: 'b' }) },
    }, {});
    assert.equal(d.metadata.generation, 1);
    const labelled = await put('apps', 'v1', 'deployments', d, (o) => { o.metadata.labels = { x: 'y' }; });
    assert.equal(labelled.metadata.generation, 1);
    const annotated = await put('apps', 'v1', 'deployments', labelled, (o) => { o.metadata.annotations = { 'kubernetes.io/change-cause': 'test' }; });
    assert.equal(annotated.metadata.generation, 2);
    const both = await put('apps', 'v1', 'deployments', annotated, (o) => { o.metadata.annotations = { z: '1' }; o.spec.replicas = 3; });
    assert.equal(both.metadata.generation, 3, 'one bump per write');
  });

  void it('EndpointSlice: a label change bumps generation, an annotation change does not', async () => {
    const s = await store('discovery.k8s.io', 'v1', 'endpointslices').create(sys('default'), {
      apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [],
    }, {});
    assert.equal(s.metadata.generation, 1);
    const annotated = await put('discovery.k8s.io', 'v1', 'endpointslices', s, (o) => { o.metadata.annotations = { a: 'b' }; });
    assert.equal(annotated.metadata.generation, 1);
    const labelled = await put('discovery.k8s.io', 'v1', 'endpointslices', annotated, (o) => { o.metadata.labels = { 'kubernetes.io/service-name': 'svc' }; });
    assert.equal(labelled.metadata.generation, 2);
  });

  void it('HPAs carry no generation (v2 and v1); pods start at 1 (v1.33)', async () => {
    const h = await store('autoscaling', 'v2', 'horizontalpodautoscalers').create(sys('default'), {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    }, {});
    assert.equal(h.metadata.generation, undefined);
    const changed = await put('autoscaling', 'v2', 'horizontalpodautoscalers', h, (o) => { o.spec.maxReplicas = 4; });
    assert.equal(changed.metadata.generation, undefined);
    const h1 = await store('autoscaling', 'v1', 'horizontalpodautoscalers').create(sys('default'), {
      apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h1' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    }, {});
    assert.equal(h1.metadata.generation, undefined);
    const p = await store('', 'v1', 'pods').create(sys('default'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: tmpl({}).spec }, {});
    assert.equal(p.metadata.generation, 1);
  });

  void it('Job: removing every label puts the template\'s labels back', async () => {
    const j = await store('batch', 'v1', 'jobs').create(sys('default'), {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { metadata: { labels: { app: 'j' } }, spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } },
    }, {});
    const uid = j.metadata.uid!;
    const expected = { app: 'j', 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'j', 'controller-uid': uid, 'job-name': 'j' };
    assert.deepEqual(j.metadata.labels, expected);
    const stripped = await put('batch', 'v1', 'jobs', j, (o) => { delete o.metadata.labels; });
    assert.deepEqual(stripped.metadata.labels, expected);
    const own = await put('batch', 'v1', 'jobs', stripped, (o) => { o.metadata.labels = { mine: 'yes' }; });
    assert.deepEqual(own.metadata.labels, { mine: 'yes' }, 'labels of its own are kept');
  });

  void it('DaemonSet: deprecated.daemonset.template.generation 1 on create, +1 on a template change only', async () => {
    const ds = await store('apps', 'v1', 'daemonsets').create(sys('default'), {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds' }, spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl({ a: 'b' }) },
    }, {});
    const tg = (o: KObject) => o.metadata.annotations?.['deprecated.daemonset.template.generation'];
    assert.equal(tg(ds), '1');
    assert.equal(ds.metadata.generation, 1);
    const other = await put('apps', 'v1', 'daemonsets', ds, (o) => { o.spec.minReadySeconds = 5; o.metadata.annotations['deprecated.daemonset.template.generation'] = '9'; });
    assert.equal(tg(other), '1', 'the caller cannot set it on update');
    assert.equal(other.metadata.generation, 2);
    // Leaving out defaulted template fields is no template change.
    const same = await put('apps', 'v1', 'daemonsets', other, (o) => { delete o.spec.template.spec.dnsPolicy; });
    assert.equal(tg(same), '1');
    const newImage = await put('apps', 'v1', 'daemonsets', same, (o) => { o.spec.template.spec.containers[0].image = 'nginx:2'; });
    assert.equal(tg(newImage), '2');
    assert.equal(newImage.metadata.generation, 3);
    const given = await store('apps', 'v1', 'daemonsets').create(sys('default'), {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds5', annotations: { 'deprecated.daemonset.template.generation': '5' } },
      spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl({ a: 'b' }) },
    }, {});
    assert.equal(tg(given), '5');
    const bad = await statusOf(store('apps', 'v1', 'daemonsets').create(sys('default'), {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'dsx', annotations: { 'deprecated.daemonset.template.generation': 'x' } },
      spec: { selector: { matchLabels: { a: 'b' } }, template: tmpl({ a: 'b' }) },
    }, {}));
    assert.equal(bad.code, 400);
    assert.equal(bad.message, 'DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "x": invalid syntax');
  });

  void it('pod templates: serviceAccount and serviceAccountName mirror each other (kube\'s conversion)', async () => {
    const sts = await store('apps', 'v1', 'statefulsets').create(sys('default'), {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { serviceAccount: 'robot', containers: [{ name: 'c', image: 'x' }] } } },
    }, {});
    const tspec = (sts as J)['spec'].template.spec;
    assert.equal(tspec.serviceAccountName, 'robot');
    assert.equal(tspec.serviceAccount, 'robot');
    const p = await store('', 'v1', 'pods').create(sys('default'), {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sa' }, spec: { serviceAccountName: 'a', serviceAccount: 'b', containers: [{ name: 'c', image: 'x' }] },
    }, {});
    assert.equal((p['spec'] as J)['serviceAccount'], 'a', 'the name wins');
  });

  void it('PersistentVolume: lastPhaseTransitionTime stamped on create and on a phase change', async () => {
    const pvs = store('', 'v1', 'persistentvolumes');
    const pv = await pvs.create(sys(''), {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } },
    }, {});
    const st = pv['status'] as J;
    assert.equal(st['phase'], 'Pending');
    assert.match(st['lastPhaseTransitionTime'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // Same phase, time left out: kept.
    const same = structuredClone(pv) as J;
    delete same['status'].lastPhaseTransitionTime;
    const kept = (await pvs.update(sys('', { subresource: 'status' }), 'pv1', same as KObject, {})).object;
    assert.equal((kept['status'] as J)['lastPhaseTransitionTime'], st['lastPhaseTransitionTime']);
    // Phase changed with the old time: stamped anew (here: not earlier than the old one).
    const moved = structuredClone(kept) as J;
    moved['status'].phase = 'Available';
    const after1 = (await pvs.update(sys('', { subresource: 'status' }), 'pv1', moved as KObject, {})).object;
    assert.ok(Date.parse((after1['status'] as J)['lastPhaseTransitionTime']) >= Date.parse(st['lastPhaseTransitionTime']));
    // Phase changed with a time of the writer's: kept as written.
    const own = structuredClone(after1) as J;
    own['status'] = { phase: 'Released', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' };
    const after2 = (await pvs.update(sys('', { subresource: 'status' }), 'pv1', own as KObject, {})).object;
    assert.equal((after2['status'] as J)['lastPhaseTransitionTime'], '2020-01-01T00:00:00Z');
  });
});
