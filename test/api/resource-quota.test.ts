// ResourceQuota and LimitRanger on a real server, as test/e2e/apimachinery/resource_quota.go and the LimitRange
// e2e tests drive them: the controller fills a quota's status, objects raise and lower `used`, admission refuses
// what exceeds a quota with kube's 403, scopes and scope selectors pick the pods a quota counts, dry-run is never
// charged, concurrent creates never overshoot, and limitedResources come from --admission-control-config-file.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/server.ts';
import { crdManifest } from './crd-support.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(async () => {
  await srv?.stop();
});

type Obj = Record<string, any>;

async function ok(method: string, path: string, body?: unknown, s = srv): Promise<Obj> {
  const r = await s.request(method, path, body === undefined ? {} : { body });
  assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
  return r.json();
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await fn().catch((e: unknown) => { last = e; return undefined; });
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function namespace(name: string, s = srv): Promise<void> {
  await ok('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, s);
}

/** Creates a quota and waits until the controller has filled its status (hard and every used). */
async function quota(ns: string, name: string, hard: Record<string, string>, spec: Obj = {}, s = srv): Promise<Obj> {
  await ok('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...spec } }, s);
  return until(`status of quota ${ns}/${name}`, async () => {
    const q = await ok('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`, undefined, s);
    return q['status']?.used && Object.keys(hard).every((k) => k in q['status'].used) ? q : undefined;
  });
}

async function used(ns: string, name: string): Promise<Record<string, string>> {
  return (await ok('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`))['status'].used;
}

async function usedBecomes(ns: string, name: string, expect: Record<string, string>): Promise<void> {
  let last: Record<string, string> = {};
  await until(`used of ${ns}/${name} to be ${JSON.stringify(expect)}`, async () => {
    last = await used(ns, name);
    return Object.entries(expect).every(([k, v]) => last[k] === v);
  }).catch((e: Error) => { throw new Error(`${e.message}; last ${JSON.stringify(last)}`); });
}

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
const pod = (name: string, resources?: Obj, spec: Obj = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10', ...(resources ? { resources } : {}) }], ...spec },
});

void test('a quota gets status.hard and status.used at once; each kind raises used, deleting lowers it', async () => {
  await namespace('rq-life');
  const hard = {
    secrets: '10', configmaps: '10', services: '10', 'services.nodeports': '10', 'services.loadbalancers': '10',
    replicationcontrollers: '10', 'count/replicasets.apps': '10', persistentvolumeclaims: '10', 'requests.storage': '10Gi',
    'gold.storageclass.storage.k8s.io/requests.storage': '5Gi', pods: '10', 'requests.cpu': '2', 'requests.memory': '1Gi',
    'limits.cpu': '4', 'limits.memory': '2Gi',
  };
  const q = await quota('rq-life', 'test-quota', hard);
  assert.deepEqual(q['status'].hard, hard);
  // kube-root-ca.crt is every namespace's first ConfigMap.
  assert.deepEqual(q['status'].used, { ...Object.fromEntries(Object.keys(hard).map((k) => [k, '0'])), configmaps: '1' });

  const base = '/api/v1/namespaces/rq-life';
  await ok('POST', `${base}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: {} });
  await ok('POST', `${base}/configmaps`, cm('c'));
  await ok('POST', `${base}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] } });
  await ok('POST', `${base}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } });
  await ok('POST', `${base}/replicationcontrollers`, { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { replicas: 0, selector: { a: 'b' }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } });
  await ok('POST', '/apis/apps/v1/namespaces/rq-life/replicasets', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' }, spec: { replicas: 0, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } });
  await ok('POST', `${base}/persistentvolumeclaims`, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'pvc' }, spec: { storageClassName: 'gold', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
  await ok('POST', `${base}/pods`, pod('p', { requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } }));
  // Admission charged every create before answering.
  assert.deepEqual(await used('rq-life', 'test-quota'), {
    secrets: '1', configmaps: '2', services: '2', 'services.nodeports': '3', 'services.loadbalancers': '1', replicationcontrollers: '1',
    'count/replicasets.apps': '1', persistentvolumeclaims: '1', 'requests.storage': '1Gi', 'gold.storageclass.storage.k8s.io/requests.storage': '1Gi',
    pods: '1', 'requests.cpu': '500m', 'requests.memory': '256Mi', 'limits.cpu': '1', 'limits.memory': '512Mi',
  });

  // A pod that reaches a terminal phase no longer counts for pods or compute.
  const live = await ok('GET', `${base}/pods/p`);
  await ok('PUT', `${base}/pods/p/status`, { ...live, status: { ...live['status'], phase: 'Succeeded' } });
  await usedBecomes('rq-life', 'test-quota', { pods: '0', 'requests.cpu': '0', 'limits.memory': '0' });

  for (const path of [`${base}/secrets/s`, `${base}/configmaps/c`, `${base}/services/np`, `${base}/services/lb`, `${base}/replicationcontrollers/rc`,
    '/apis/apps/v1/namespaces/rq-life/replicasets/rs', `${base}/persistentvolumeclaims/pvc`, `${base}/pods/p?gracePeriodSeconds=0`]) {
    await ok('DELETE', path);
  }
  await usedBecomes('rq-life', 'test-quota', {
    secrets: '0', configmaps: '1', services: '0', 'services.nodeports': '0', 'services.loadbalancers': '0', replicationcontrollers: '0',
    'count/replicasets.apps': '0', persistentvolumeclaims: '0', 'requests.storage': '0', 'gold.storageclass.storage.k8s.io/requests.storage': '0',
  });
});

void test('exceeding a quota is refused with kube\'s 403; a pod must state what the quota constrains', async () => {
  await namespace('rq-exceed');
  await quota('rq-exceed', 'small', { configmaps: '2', 'requests.cpu': '1', 'limits.memory': '1Gi' });
  await ok('POST', '/api/v1/namespaces/rq-exceed/configmaps', cm('one'));
  const r = await srv.request('POST', '/api/v1/namespaces/rq-exceed/configmaps', { body: cm('two') });
  assert.deepEqual(r.json(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'configmaps "two" is forbidden: exceeded quota: small, requested: configmaps=1, used: configmaps=2, limited: configmaps=2',
    reason: 'Forbidden', details: { name: 'two', kind: 'configmaps' }, code: 403,
  });
  const bare = await srv.request('POST', '/api/v1/namespaces/rq-exceed/pods', { body: pod('bare') });
  assert.equal(bare.status, 403);
  assert.equal(bare.json().message, 'pods "bare" is forbidden: failed quota: small: must specify limits.memory for: app; requests.cpu for: app');
  const big = await srv.request('POST', '/api/v1/namespaces/rq-exceed/pods', { body: pod('big', { requests: { cpu: '1500m' }, limits: { memory: '2Gi' } }) });
  assert.equal(big.json().message, 'pods "big" is forbidden: exceeded quota: small, requested: limits.memory=2Gi,requests.cpu=1500m, used: limits.memory=0,requests.cpu=0, limited: limits.memory=1Gi,requests.cpu=1');
  // Lowering spec.hard is seen at once: the controller copies it to status.hard.
  const q = await ok('GET', '/api/v1/namespaces/rq-exceed/resourcequotas/small');
  await ok('PUT', '/api/v1/namespaces/rq-exceed/resourcequotas/small', { ...q, spec: { hard: { ...q['spec'].hard, configmaps: '5' } } });
  await until('status.hard to follow spec.hard', async () => (await ok('GET', '/api/v1/namespaces/rq-exceed/resourcequotas/small'))['status'].hard.configmaps === '5');
  await ok('POST', '/api/v1/namespaces/rq-exceed/configmaps', cm('two'));
});

void test('every quota in the namespace must admit; dry-run is checked but never charged', async () => {
  await namespace('rq-multi');
  await quota('rq-multi', 'loose', { configmaps: '10' });
  await quota('rq-multi', 'tight', { 'count/configmaps': '2' });
  await ok('POST', '/api/v1/namespaces/rq-multi/configmaps?dryRun=All', cm('dry'));
  assert.deepEqual([(await used('rq-multi', 'loose'))['configmaps'], (await used('rq-multi', 'tight'))['count/configmaps']], ['1', '1']);
  await ok('POST', '/api/v1/namespaces/rq-multi/configmaps', cm('real'));
  assert.deepEqual([(await used('rq-multi', 'loose'))['configmaps'], (await used('rq-multi', 'tight'))['count/configmaps']], ['2', '2']);
  const dry = await srv.request('POST', '/api/v1/namespaces/rq-multi/configmaps?dryRun=All', { body: cm('dry') });
  assert.equal(dry.status, 403, 'dry-run is refused like the real request');
  const r = await srv.request('POST', '/api/v1/namespaces/rq-multi/configmaps', { body: cm('third') });
  assert.equal(r.json().message, 'configmaps "third" is forbidden: exceeded quota: tight, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2');
  assert.equal((await used('rq-multi', 'loose'))['configmaps'], '2', 'a refused request charges no quota');
});

void test('concurrent creates never overshoot: 20 at once against room for 5 configmaps', async () => {
  await namespace('rq-race');
  // kube-root-ca.crt (recreated by its controller if deleted) takes one of six.
  await until('kube-root-ca.crt', async () => (await srv.request('GET', '/api/v1/namespaces/rq-race/configmaps/kube-root-ca.crt')).status === 200);
  await quota('rq-race', 'five', { 'count/configmaps': '6' });
  assert.equal((await used('rq-race', 'five'))['count/configmaps'], '1');
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => srv.request('POST', '/api/v1/namespaces/rq-race/configmaps', { body: cm(`c${i}`) })));
  const codes = results.map((r) => r.status);
  assert.equal(codes.filter((c) => c === 201).length, 5, `codes: ${codes.join(',')}`);
  assert.equal(codes.filter((c) => c === 403).length, 15, `codes: ${codes.join(',')}`);
  assert.equal((await used('rq-race', 'five'))['count/configmaps'], '6');
  const list = await ok('GET', '/api/v1/namespaces/rq-race/configmaps');
  assert.equal(list['items'].filter((c: Obj) => c['metadata'].name !== 'kube-root-ca.crt').length, 5);
});

void test('scopes: BestEffort/NotBestEffort and Terminating/NotTerminating pick the pods a quota counts', async () => {
  await namespace('rq-scopes');
  await quota('rq-scopes', 'besteffort', { pods: '1' }, { scopes: ['BestEffort'] });
  await quota('rq-scopes', 'notbesteffort', { pods: '2', 'requests.cpu': '1' }, { scopes: ['NotBestEffort'] });
  await quota('rq-scopes', 'terminating', { pods: '1' }, { scopes: ['Terminating'] });
  await ok('POST', '/api/v1/namespaces/rq-scopes/pods', pod('be'));
  assert.deepEqual([(await used('rq-scopes', 'besteffort'))['pods'], (await used('rq-scopes', 'notbesteffort'))['pods']], ['1', '0']);
  const r = await srv.request('POST', '/api/v1/namespaces/rq-scopes/pods', { body: pod('be2') });
  assert.equal(r.json().message, 'pods "be2" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1');
  await ok('POST', '/api/v1/namespaces/rq-scopes/pods', pod('burst', { requests: { cpu: '500m' } }));
  assert.deepEqual(await used('rq-scopes', 'notbesteffort'), { pods: '1', 'requests.cpu': '500m' });
  await ok('POST', '/api/v1/namespaces/rq-scopes/pods', pod('deadline', { requests: { cpu: '100m' } }, { activeDeadlineSeconds: 60 }).valueOf());
  assert.equal((await used('rq-scopes', 'terminating'))['pods'], '1');
  await ok('DELETE', '/api/v1/namespaces/rq-scopes/pods/be?gracePeriodSeconds=0');
  await usedBecomes('rq-scopes', 'besteffort', { pods: '0' });
});

void test('scope selectors: PriorityClass with In, NotIn, Exists and DoesNotExist', async () => {
  await namespace('rq-selector');
  const sel = (operator: string, values?: string[]) => ({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator, ...(values ? { values } : {}) }] } });
  await quota('rq-selector', 'in-high', { pods: '1' }, sel('In', ['high']));
  await quota('rq-selector', 'notin-high', { pods: '5' }, sel('NotIn', ['high']));
  await quota('rq-selector', 'exists', { pods: '5' }, sel('Exists'));
  await quota('rq-selector', 'none', { pods: '5' }, sel('DoesNotExist'));
  // The Priority admission plugin resolves the classes pods name, so they must exist.
  for (const [name, value] of [['high', 1000], ['low', 10]] as const) {
    await ok('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value });
  }
  await ok('POST', '/api/v1/namespaces/rq-selector/pods', pod('high', undefined, { priorityClassName: 'high' }));
  await ok('POST', '/api/v1/namespaces/rq-selector/pods', pod('low', undefined, { priorityClassName: 'low' }));
  await ok('POST', '/api/v1/namespaces/rq-selector/pods', pod('plain'));
  const counts = await Promise.all(['in-high', 'notin-high', 'exists', 'none'].map(async (n) => (await used('rq-selector', n))['pods']));
  assert.deepEqual(counts, ['1', '2', '2', '1']);
  const r = await srv.request('POST', '/api/v1/namespaces/rq-selector/pods', { body: pod('high2', undefined, { priorityClassName: 'high' }) });
  assert.equal(r.json().message, 'pods "high2" is forbidden: exceeded quota: in-high, requested: pods=1, used: pods=1, limited: pods=1');
});

void test('updates pay for growth only: claim expansion is charged the delta, other pod updates nothing', async () => {
  await namespace('rq-update');
  await quota('rq-update', 'storage', { 'requests.storage': '5Gi', 'requests.cpu': '1' });
  const base = '/api/v1/namespaces/rq-update';
  // PersistentVolumeClaimResize lets a bound claim grow only if its class allows expansion.
  await ok('POST', '/apis/storage.k8s.io/v1/storageclasses', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'expandable' }, provisioner: 'example.com/disk', allowVolumeExpansion: true });
  await ok('POST', `${base}/persistentvolumeclaims`, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { storageClassName: 'expandable', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } });
  let claim = await ok('GET', `${base}/persistentvolumeclaims/data`);
  claim = await ok('PUT', `${base}/persistentvolumeclaims/data/status`, { ...claim, status: { phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'] } });
  claim = await ok('PUT', `${base}/persistentvolumeclaims/data`, { ...claim, spec: { ...claim['spec'], resources: { requests: { storage: '4Gi' } } } });
  assert.equal((await used('rq-update', 'storage'))['requests.storage'], '4Gi');
  const r = await srv.request('PUT', `${base}/persistentvolumeclaims/data`, { body: { ...claim, spec: { ...claim['spec'], resources: { requests: { storage: '6Gi' } } } } });
  assert.equal(r.json().message, 'persistentvolumeclaims "data" is forbidden: exceeded quota: storage, requested: requests.storage=2Gi, used: requests.storage=4Gi, limited: requests.storage=5Gi');

  await ok('POST', `${base}/pods`, pod('p', { requests: { cpu: '600m' }, limits: { cpu: '600m' } }));
  const p = await ok('GET', `${base}/pods/p`);
  await ok('PUT', `${base}/pods/p`, { ...p, metadata: { ...p['metadata'], labels: { touched: 'yes' } } });
  assert.equal((await used('rq-update', 'storage'))['requests.cpu'], '600m', 'a plain pod update is not charged');
});

void test('count/<resource>.<group> counts custom resources', async () => {
  await ok('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crdManifest({ group: 'quota.example.com', plural: 'gadgets', kind: 'Gadget', shortNames: ['gdg'] }));
  await until('gadgets to be served', async () => (await srv.request('GET', '/apis/quota.example.com/v1/gadgets')).status === 200);
  await namespace('rq-crd');
  const q = await quota('rq-crd', 'gadgets', { 'count/gadgets.quota.example.com': '1' });
  assert.equal(q['status'].used['count/gadgets.quota.example.com'], '0');
  const gadget = (name: string) => ({ apiVersion: 'quota.example.com/v1', kind: 'Gadget', metadata: { name }, spec: { color: 'red' } });
  await ok('POST', '/apis/quota.example.com/v1/namespaces/rq-crd/gadgets', gadget('a'));
  assert.equal((await used('rq-crd', 'gadgets'))['count/gadgets.quota.example.com'], '1');
  const r = await srv.request('POST', '/apis/quota.example.com/v1/namespaces/rq-crd/gadgets', { body: gadget('b') });
  assert.equal(r.status, 403);
  assert.equal(r.json().message, 'gadgets.quota.example.com "b" is forbidden: exceeded quota: gadgets, requested: count/gadgets.quota.example.com=1, used: count/gadgets.quota.example.com=1, limited: count/gadgets.quota.example.com=1');
  await ok('DELETE', '/apis/quota.example.com/v1/namespaces/rq-crd/gadgets/a');
  await usedBecomes('rq-crd', 'gadgets', { 'count/gadgets.quota.example.com': '0' });
  await ok('POST', '/apis/quota.example.com/v1/namespaces/rq-crd/gadgets', gadget('b'));
});

void test('LimitRanger: container defaults with the annotation, Container and PVC bounds refused with kube\'s words', async () => {
  await namespace('lr');
  await ok('POST', '/api/v1/namespaces/lr/limitranges', {
    apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits' },
    spec: { limits: [
      { type: 'Container', max: { cpu: '2' }, min: { cpu: '50m' }, default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } },
      { type: 'PersistentVolumeClaim', max: { storage: '2Gi' } },
    ] },
  });
  const p = await ok('POST', '/api/v1/namespaces/lr/pods', pod('defaulted'));
  assert.deepEqual(p['spec'].containers[0].resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
  assert.equal(p['metadata'].annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app');
  // The pod's own defaults run first (a cpu limit alone makes the cpu request), then the LimitRange's.
  const partial = await ok('POST', '/api/v1/namespaces/lr/pods', pod('partial', { limits: { cpu: '1' } }));
  assert.deepEqual(partial['spec'].containers[0].resources, { limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '1', memory: '128Mi' } });
  assert.equal(partial['metadata'].annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: memory request for container app; memory limit for container app');
  const big = await srv.request('POST', '/api/v1/namespaces/lr/pods', { body: pod('big', { limits: { cpu: '4' } }) });
  assert.equal(big.status, 403);
  assert.equal(big.json().message, 'pods "big" is forbidden: maximum cpu usage per Container is 2, but limit is 4');
  const claim = await srv.request('POST', '/api/v1/namespaces/lr/persistentvolumeclaims', { body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } } } });
  assert.equal(claim.json().message, 'persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi');
});

void test('limitedResources from --admission-control-config-file: consuming them needs a covering quota', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-quota-config-'));
  writeFileSync(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: ResourceQuota',
    '  configuration:',
    '    apiVersion: apiserver.config.k8s.io/v1',
    '    kind: ResourceQuotaConfiguration',
    '    limitedResources:',
    '    - resource: pods',
    '      matchContains: [requests.cpu]',
    '    - resource: persistentvolumeclaims',
    '      matchContains: [.storageclass.storage.k8s.io/requests.storage]',
  ].join('\n'));
  const s = await startTestServer({ admission: { configFile: join(dir, 'admission.yaml') } });
  try {
    await namespace('limited', s);
    const cpuPod = pod('cpu', { requests: { cpu: '100m' } });
    const r = await s.request('POST', '/api/v1/namespaces/limited/pods', { body: cpuPod });
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'pods "cpu" is forbidden: insufficient quota to consume: requests.cpu');
    await ok('POST', '/api/v1/namespaces/limited/pods', pod('plain'), s);
    await quota('limited', 'cpu', { 'requests.cpu': '1' }, {}, s);
    await ok('POST', '/api/v1/namespaces/limited/pods', cpuPod, s);
    const claim = await s.request('POST', '/api/v1/namespaces/limited/persistentvolumeclaims', { body: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'gold' }, spec: { storageClassName: 'gold', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
    assert.equal(claim.json().message, 'persistentvolumeclaims "gold" is forbidden: insufficient quota to consume: gold.storageclass.storage.k8s.io/requests.storage');
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
