// kube-apiserver's built-in admission plugins on a real server, as a user sees them: what the default-on plugins
// add to pods, claims and nodes, what they refuse, and opt-in plugins switched on and configured through the
// flags (--enable-admission-plugins, --admission-control-config-file).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine } from '../../src/cli/flags.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let srv: TestServer;
const NS = 'adm';

before(async () => {
  srv = await startTestServer();
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
});
after(async () => {
  await srv?.stop();
});

function namespace(name: string, annotations?: Record<string, string>) {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(annotations ? { annotations } : {}) } };
}

function pod(name: string, spec: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } };
}

async function createPod(s: TestServer, ns: string, body: unknown) {
  return s.request('POST', `/api/v1/namespaces/${ns}/pods`, { body });
}

function assertForbidden(r: { status: number; json(): any }, message: string) {
  assert.equal(r.status, 403, JSON.stringify(r.json()));
  assert.equal(r.json().reason, 'Forbidden');
  assert.equal(r.json().message, message);
}

void test('a pod gets the default service account, the kube-api-access volume, the 300 s tolerations and priority 0', async () => {
  // The namespace is new: the service account controller creates `default` moments later and the plugin waits for it.
  const r = await createPod(srv, NS, pod('plain', { initContainers: [{ name: 'init', image: 'busybox' }] }));
  assert.equal(r.status, 201, r.text);
  const spec = r.json().spec;
  assert.equal(spec.serviceAccountName, 'default');
  assert.equal(spec.volumes.length, 1);
  const volume = spec.volumes[0];
  assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume.projected, {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  });
  const mount = { name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
  assert.deepEqual(spec.containers[0].volumeMounts, [mount]);
  assert.deepEqual(spec.initContainers[0].volumeMounts, [mount]);
  assert.deepEqual(spec.tolerations, [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  assert.equal(spec.priority, 0);
  assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
  assert.equal(spec.priorityClassName, undefined);
  // What the create answered is what was stored.
  assert.deepEqual((await srv.request('GET', `/api/v1/namespaces/${NS}/pods/plain`)).json().spec, spec);
});

void test('ServiceAccount: opting out of the token, a missing account refused, the account\'s pull secrets copied', async () => {
  const quiet = await createPod(srv, NS, pod('quiet', { automountServiceAccountToken: false }));
  assert.equal(quiet.status, 201, quiet.text);
  assert.equal(quiet.json().spec.volumes, undefined);
  assert.equal(quiet.json().spec.containers[0].volumeMounts, undefined);
  assertForbidden(await createPod(srv, NS, pod('lost', { serviceAccountName: 'ghost' })),
    `pods "lost" is forbidden: error looking up service account ${NS}/ghost: serviceaccount "ghost" not found`);
  const sa = await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'puller' }, imagePullSecrets: [{ name: 'registry' }] },
  });
  assert.equal(sa.status, 201, sa.text);
  const r = await createPod(srv, NS, pod('pulls', { serviceAccountName: 'puller' }));
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().spec.imagePullSecrets, [{ name: 'registry' }]);
  // A dry run is admitted the same way and stores nothing.
  const dry = await srv.request('POST', `/api/v1/namespaces/${NS}/pods?dryRun=All`, { body: pod('dry') });
  assert.equal(dry.status, 201, dry.text);
  assert.match(dry.json().spec.volumes[0].name, /^kube-api-access-/);
  assert.equal((await srv.request('GET', `/api/v1/namespaces/${NS}/pods/dry`)).status, 404);
});

void test('Priority: a class name resolves, the global default applies to pods naming none, kube\'s refusals', async () => {
  const critical = await createPod(srv, NS, pod('critical', { priorityClassName: 'system-node-critical' }));
  assert.equal(critical.status, 201, critical.text);
  assert.equal(critical.json().spec.priority, 2000001000);
  assert.equal(critical.json().spec.preemptionPolicy, 'PreemptLowerPriority');
  assertForbidden(await createPod(srv, NS, pod('nameless', { priorityClassName: 'nope' })), 'pods "nameless" is forbidden: no PriorityClass with name nope was found');
  assertForbidden(await createPod(srv, NS, pod('forged', { priority: 7 })),
    'pods "forged" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');

  const pcs = '/apis/scheduling.k8s.io/v1/priorityclasses';
  const pc = (name: string, value: number) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, globalDefault: true, preemptionPolicy: 'Never' });
  assert.equal((await srv.request('POST', pcs, { body: pc('everyday', 1000) })).status, 201);
  try {
    assertForbidden(await srv.request('POST', pcs, { body: pc('second', 5) }),
      'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass everyday is already marked as default. Only one default can exist');
    const r = await createPod(srv, NS, pod('defaulted'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json().spec.priorityClassName, 'everyday');
    assert.equal(r.json().spec.priority, 1000);
    assert.equal(r.json().spec.preemptionPolicy, 'Never');
  } finally {
    assert.equal((await srv.request('DELETE', `${pcs}/everyday`)).status, 200);
  }
});

void test('NamespaceLifecycle: default, kube-system and kube-public may not be deleted', async () => {
  for (const ns of ['default', 'kube-system', 'kube-public']) {
    assertForbidden(await srv.request('DELETE', `/api/v1/namespaces/${ns}`), `namespaces "${ns}" is forbidden: this namespace may not be deleted`);
    assert.equal((await srv.request('GET', `/api/v1/namespaces/${ns}`)).json().metadata.deletionTimestamp, undefined);
  }
});

void test('storage: claims get pvc-protection and the default class, volumes pv-protection; growing a claim needs an expandable class', async () => {
  const sc = await srv.request('POST', '/apis/storage.k8s.io/v1/storageclasses', {
    body: { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'example.com/disk' },
  });
  assert.equal(sc.status, 201, sc.text);
  const claim = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
  });
  const r = await srv.request('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, { body: claim('data') });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().metadata.finalizers, ['kubernetes.io/pvc-protection']);
  assert.equal(r.json().spec.storageClassName, 'standard');
  const own = await srv.request('POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, { body: claim('mine', { storageClassName: '' }) });
  assert.equal(own.json().spec.storageClassName, '', 'a class the user chose, even empty, is kept');

  const pv = await srv.request('POST', '/api/v1/persistentvolumes', {
    body: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'disk' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/disk' } } },
  });
  assert.equal(pv.status, 201, pv.text);
  assert.deepEqual(pv.json().metadata.finalizers, ['kubernetes.io/pv-protection']);

  // PersistentVolumeClaimResize: once bound (validation lets a bound claim's request change), the claim may
  // only grow if its class allows expansion, which `standard` does not.
  const bound = r.json();
  bound.status = { phase: 'Bound' };
  const st = await srv.request('PUT', `/api/v1/namespaces/${NS}/persistentvolumeclaims/data/status`, { body: bound });
  assert.equal(st.status, 200, st.text);
  const grown = st.json();
  grown.spec.resources.requests.storage = '2Gi';
  assertForbidden(await srv.request('PUT', `/api/v1/namespaces/${NS}/persistentvolumeclaims/data`, { body: grown }),
    'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
});

void test('TaintNodesByCondition: a node is created not-ready for scheduling', async () => {
  const r = await srv.request('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } } });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json().spec.taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
});

void test('opt-in plugins from the flags, configured by --admission-control-config-file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-admission-builtin-'));
  // EventRateLimit's configuration in its own file (`path`), PodNodeSelector's embedded (`configuration`).
  writeFileSync(join(dir, 'eventratelimit.yaml'), [
    'apiVersion: eventratelimit.admission.k8s.io/v1alpha1',
    'kind: Configuration',
    'limits:',
    '- type: Namespace',
    '  qps: 1',
    '  burst: 2',
  ].join('\n'));
  writeFileSync(join(dir, 'admission.yaml'), [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: EventRateLimit',
    '  path: eventratelimit.yaml',
    '- name: PodNodeSelector',
    '  configuration:',
    '    podNodeSelectorPluginConfig:',
    '      clusterDefaultNodeSelector: tier=general',
    '      listed: disk=ssd',
  ].join('\n'));
  const cli = parseCommandLine([
    '--enable-admission-plugins=AlwaysPullImages,DenyServiceExternalIPs,EventRateLimit,PodNodeSelector,NamespaceAutoProvision,ExtendedResourceToleration,LimitPodHardAntiAffinityTopology',
    `--admission-control-config-file=${join(dir, 'admission.yaml')}`,
    '--default-unreachable-toleration-seconds=60',
  ]);
  const s = await startTestServer({ admission: cli.options.admission! });
  try {
    for (const ns of [namespace('plain'), namespace('prod', { 'scheduler.alpha.kubernetes.io/node-selector': 'env=prod' }), namespace('listed', { 'scheduler.alpha.kubernetes.io/node-selector': '' })]) {
      assert.equal((await s.request('POST', '/api/v1/namespaces', { body: ns })).status, 201);
    }

    // PodNodeSelector: the namespace's selector, else the cluster default, is merged in; contradictions are refused.
    const prod = await createPod(s, 'prod', pod('web', { nodeSelector: { zone: 'a' } }));
    assert.equal(prod.status, 201, prod.text);
    assert.deepEqual(prod.json().spec.nodeSelector, { env: 'prod', zone: 'a' });
    assertForbidden(await createPod(s, 'prod', pod('dev', { nodeSelector: { env: 'dev' } })),
      'pods "dev" is forbidden: pod node label selector conflicts with its namespace node label selector');
    const plain = await createPod(s, 'plain', pod('web'));
    assert.equal(plain.status, 201, plain.text);
    assert.deepEqual(plain.json().spec.nodeSelector, { tier: 'general' });
    // The configuration's per-namespace whitelist bounds what a pod may ask for.
    assert.equal((await createPod(s, 'listed', pod('ok', { nodeSelector: { disk: 'ssd' } }))).status, 201);
    assertForbidden(await createPod(s, 'listed', pod('gpu', { nodeSelector: { gpu: 'yes' } })),
      'pods "gpu" is forbidden: pod node label selector labels conflict with its namespace whitelist');

    // DefaultTolerationSeconds takes its figures from the flags.
    assert.deepEqual(plain.json().spec.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    ]);

    // AlwaysPullImages.
    assert.equal(plain.json().spec.containers[0].imagePullPolicy, 'Always');
    const pinned = await createPod(s, 'plain', pod('pinned', { containers: [{ name: 'c', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' }] }));
    assert.equal(pinned.json().spec.containers[0].imagePullPolicy, 'Always');

    // DenyServiceExternalIPs.
    assertForbidden(await s.request('POST', '/api/v1/namespaces/plain/services', {
      body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { ports: [{ port: 80 }], externalIPs: ['192.0.2.10'] } },
    }), 'services "ext" is forbidden: Use of external IPs is denied by admission control');

    // NamespaceAutoProvision: the namespace of a new object is created with it.
    const cm = await s.request('POST', '/api/v1/namespaces/fresh/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } });
    assert.equal(cm.status, 201, cm.text);
    assert.equal((await s.request('GET', '/api/v1/namespaces/fresh')).json().status.phase, 'Active');

    // ExtendedResourceToleration and LimitPodHardAntiAffinityTopology.
    const gpu = await createPod(s, 'plain', pod('gpu', { containers: [{ name: 'c', image: 'busybox', resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }] }));
    assert.equal(gpu.status, 201, gpu.text);
    assert.deepEqual(gpu.json().spec.tolerations.find((t: any) => t.key === 'example.com/gpu'), { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' });
    const spread = (topologyKey: string) => pod('spread', { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'x' } }, topologyKey }] } } });
    assertForbidden(await createPod(s, 'plain', spread('topology.kubernetes.io/zone')),
      'pods "spread" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed');
    assert.equal((await createPod(s, 'plain', spread('kubernetes.io/hostname'))).status, 201);

    // EventRateLimit: two events at once per namespace (burst 2), then 429; dry runs are not counted; other
    // namespaces have their own bucket. (qps is an integer, at least 1: the test allows for a refill.)
    const event = (name: string) => ({
      apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'Pod', name: 'web', namespace: 'prod' },
      reason: 'Test', message: 'm', source: { component: 'test' }, type: 'Normal',
    });
    const post = (ns: string, name: string, query = '') => s.request('POST', `/api/v1/namespaces/${ns}/events${query}`, { body: { ...event(name), involvedObject: { kind: 'Pod', name: 'web', namespace: ns } } });
    for (let i = 0; i < 3; i++) assert.equal((await post('prod', `dry${i}`, '?dryRun=All')).status, 201);
    // Six at once: the bucket holds two (plus one a second, should the machine be slow), the rest are refused.
    const names = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'];
    const answers = await Promise.all(names.map((n) => post('prod', n)));
    const accepted = answers.filter((r) => r.status === 201).length;
    const limited = answers.filter((r) => r.status === 429);
    assert.equal(accepted + limited.length, names.length, answers.map((r) => r.text).join('\n'));
    assert.ok(accepted >= 2 && limited.length >= 1, `${accepted} accepted, ${limited.length} limited`);
    assert.equal(limited[0]!.json().reason, 'TooManyRequests');
    assert.equal(limited[0]!.json().message, 'Too many requests: limit reached on type Namespace for key prod');
    const refused = names[answers.indexOf(limited[0]!)]!;
    assert.equal((await s.request('GET', `/api/v1/namespaces/prod/events/${refused}`)).status, 404, 'nothing stored');
    assert.equal((await post('plain', 'e1')).status, 201);
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('a plugin configuration kube would refuse stops the server from starting, with kube\'s words', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-admission-builtin-'));
  try {
    writeFileSync(join(dir, 'admission.yaml'), [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: EventRateLimit',
      '  configuration:',
      '    apiVersion: eventratelimit.admission.k8s.io/v1alpha1',
      '    kind: Configuration',
      '    limits:',
      '    - type: Namespace',
      '      qps: 0',
      '      burst: 5',
    ].join('\n'));
    const cli = parseCommandLine(['--enable-admission-plugins=EventRateLimit', `--admission-control-config-file=${join(dir, 'admission.yaml')}`]);
    await assert.rejects(startTestServer({ admission: cli.options.admission! }),
      { message: 'couldn\'t init admission plugin "EventRateLimit": limits[0].qps: Invalid value: 0: must be positive' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('protected claims and volumes: deletion waits while a running pod holds the claim, then completes', async () => {
  const base = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
  const claim = (name: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
  const gone = async (path: string) => {
    for (let i = 0; i < 100; i++) {
      if ((await srv.request('GET', path)).status === 404) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  };
  assert.equal((await srv.request('POST', base, { body: claim('free') })).status, 201);
  assert.equal((await srv.request('DELETE', `${base}/free`)).status, 200);
  assert.ok(await gone(`${base}/free`), 'an unused claim is released and deleted');

  assert.equal((await srv.request('POST', base, { body: claim('held') })).status, 201);
  const holder = await createPod(srv, NS, pod('holder', { nodeName: 'worker-1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'held' } }] }));
  assert.equal(holder.status, 201, holder.text);
  assert.equal((await srv.request('DELETE', `${base}/held`)).status, 200);
  await new Promise((r) => setTimeout(r, 300));
  const terminating = await srv.request('GET', `${base}/held`);
  assert.equal(terminating.status, 200);
  assert.ok(terminating.json().metadata.deletionTimestamp);
  assert.deepEqual(terminating.json().metadata.finalizers, ['kubernetes.io/pvc-protection']);
  assert.equal((await srv.request('DELETE', `/api/v1/namespaces/${NS}/pods/holder?gracePeriodSeconds=0`)).status, 200);
  assert.ok(await gone(`${base}/held`), 'the claim goes once its pod is gone');

  const pv = await srv.request('POST', '/api/v1/persistentvolumes', {
    body: { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'spare' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/spare' } } },
  });
  assert.equal(pv.status, 201, pv.text);
  assert.equal((await srv.request('DELETE', '/api/v1/persistentvolumes/spare')).status, 200);
  assert.ok(await gone('/api/v1/persistentvolumes/spare'), 'an unbound volume is released and deleted');
});
