// Pod Security admission's decisions on plain objects: pods (enforce, audit, warn; which updates are
// evaluated), workload templates (warnings only), namespaces (label validation, relabel warnings against
// existing pods with kube's limits), exemptions and the audit annotations of each path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from '../../../machinery/errors.ts';
import type { KObject } from '../../../machinery/objects.ts';
import { PodSecurityAdmission, appliesTo, isSignificantPodUpdate, type PodSecurityDeps, type PodSecurityRequest } from './admission.ts';
import { loadConfiguration } from './configuration.ts';
import { Evaluator } from './evaluator.ts';

const L = 'pod-security.kubernetes.io/';
const RESTRICTED_WORDS = 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), '
  + 'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), '
  + 'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), '
  + 'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

const ns = (name: string, labels?: Record<string, string>): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } });
const podSpec = (extra: Record<string, unknown> = {}) => ({ containers: [{ name: 'app', image: 'nginx' }], ...extra });
const pod = (name: string, spec: Record<string, unknown> = podSpec(), meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...meta }, spec });
const privilegedSpec = () => podSpec({ hostNetwork: true, containers: [{ name: 'app', image: 'nginx', securityContext: { privileged: true } }] });

interface Harness {
  psa: PodSecurityAdmission;
  namespaces: Map<string, KObject>;
  pods: KObject[];
  listed: number;
}

function harness(opts: { config?: unknown; deps?: Partial<PodSecurityDeps>; namespaces?: KObject[] } = {}): Harness {
  const h: Harness = { psa: undefined as never, namespaces: new Map(), pods: [], listed: 0 };
  for (const n of opts.namespaces ?? []) h.namespaces.set(n.metadata.name!, n);
  h.psa = new PodSecurityAdmission({
    config: loadConfiguration(opts.config),
    evaluator: new Evaluator(),
    getNamespace: async (name) => {
      const n = h.namespaces.get(name);
      if (!n) throw errors.notFound({ kind: 'namespaces', name });
      return n;
    },
    listPods: async () => {
      h.listed++;
      return h.pods;
    },
    ...opts.deps,
  });
  return h;
}

const req = (over: Partial<PodSecurityRequest>): PodSecurityRequest => ({
  operation: 'CREATE', group: '', resource: 'pods', subresource: '', kind: 'Pod', name: 'p', namespace: 'ns',
  object: undefined, oldObject: undefined, username: 'alice', ...over,
});

void test('which requests the plugin looks at', () => {
  for (const [g, r] of [['', 'pods'], ['', 'namespaces'], ['', 'podtemplates'], ['', 'replicationcontrollers'], ['apps', 'deployments'], ['apps', 'replicasets'],
    ['apps', 'statefulsets'], ['apps', 'daemonsets'], ['batch', 'jobs'], ['batch', 'cronjobs']]) assert.ok(appliesTo(g!, r!), `${g}/${r}`);
  for (const [g, r] of [['', 'configmaps'], ['', 'services'], ['apps', 'controllerrevisions'], ['extensions', 'deployments'], ['example.com', 'pods']]) assert.ok(!appliesTo(g!, r!), `${g}/${r}`);
});

void test('pods: enforce refuses with kube\'s 403; the enforce policy and audit violations are annotated; no warnings on a refusal', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}enforce`]: 'restricted', [`${L}audit`]: 'baseline', [`${L}warn`]: 'restricted' })] });
  const r = await h.psa.validate(req({ object: pod('p') }));
  assert.equal(r.allowed, false);
  assert.equal(r.error!.code, 403);
  assert.deepEqual(r.error!.toStatus(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, details: { name: 'p', kind: 'pods' },
    message: `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_WORDS}`,
  });
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.auditAnnotations, { 'enforce-policy': 'restricted:latest' });

  const priv = await h.psa.validate(req({ object: pod('p', privilegedSpec()) }));
  assert.deepEqual(priv.auditAnnotations, {
    'enforce-policy': 'restricted:latest',
    'audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true)',
  });
});

void test('pods: warn and audit without enforce — allowed with a Warning and an audit annotation; pinned versions are evaluated as such', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}warn`]: 'restricted', [`${L}warn-version`]: 'v1.22', [`${L}audit`]: 'restricted', [`${L}audit-version`]: 'v1.24' })] });
  const spec = podSpec({ securityContext: { runAsUser: 0, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'app', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] });
  const r = await h.psa.validate(req({ object: pod('p', spec) }));
  assert.equal(r.allowed, true);
  // runAsUser=0 is a restricted violation from v1.23 only: v1.22 warns nothing, v1.24 audits it.
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.auditAnnotations, { 'enforce-policy': 'privileged:latest', 'audit-violations': 'would violate PodSecurity "restricted:v1.24": runAsUser=0 (pod must not set runAsUser=0)' });
  const bare = await h.psa.validate(req({ object: pod('p') }));
  assert.deepEqual(bare.warnings, [`would violate PodSecurity "restricted:v1.22": ${RESTRICTED_WORDS}`]);
});

void test('pods: a fully privileged namespace short-circuits with enforce-policy privileged:latest', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}enforce`]: 'privileged', [`${L}enforce-version`]: 'v1.20' })] });
  const r = await h.psa.validate(req({ object: pod('p', privilegedSpec()) }));
  assert.deepEqual(r, { allowed: true, warnings: [], auditAnnotations: { 'enforce-policy': 'privileged:latest' } });
});

void test('pods: invalid labels evaluate restricted (enforce) / privileged (audit, warn) and record the parse error', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}enforce`]: 'strict', [`${L}warn`]: 'bogus' })] });
  const r = await h.psa.validate(req({ object: pod('p') }));
  assert.equal(r.allowed, false);
  assert.match(r.error!.message, /violates PodSecurity "restricted:latest"/);
  assert.equal(r.auditAnnotations['error'], 'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, '
    + 'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "bogus": must be one of privileged, baseline, restricted]');
});

void test('pods: which updates are evaluated', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}enforce`]: 'baseline' })] });
  const old = pod('p', privilegedSpec());
  // Metadata-only update of a pod that (no longer) meets the level: allowed, not even annotated.
  const relabeled = pod('p', privilegedSpec(), { labels: { a: 'b' } });
  assert.deepEqual(await h.psa.validate(req({ operation: 'UPDATE', object: relabeled, oldObject: old })), { allowed: true, warnings: [], auditAnnotations: {} });
  // An image change is evaluated.
  const newImage = pod('p', { ...privilegedSpec(), containers: [{ name: 'app', image: 'nginx:2', securityContext: { privileged: true } }] });
  const r = await h.psa.validate(req({ operation: 'UPDATE', object: newImage, oldObject: old }));
  assert.equal(r.allowed, false);
  assert.equal(r.error!.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true)');
  // Ephemeral containers added through pods/ephemeralcontainers are evaluated.
  const debug = pod('p', { ...podSpec(), ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }] });
  const e = await h.psa.validate(req({ operation: 'UPDATE', subresource: 'ephemeralcontainers', object: debug, oldObject: pod('p') }));
  assert.equal(e.error?.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)');
  // Sub-resources that never change the pod spec are not looked at.
  for (const sub of ['status', 'binding', 'eviction', 'exec', 'attach', 'portforward', 'proxy', 'log']) {
    assert.deepEqual(await h.psa.validate(req({ operation: sub === 'status' ? 'UPDATE' : 'CREATE', subresource: sub, object: pod('p', privilegedSpec()), oldObject: old })), { allowed: true, warnings: [], auditAnnotations: {} }, sub);
  }
});

void test('isSignificantPodUpdate: images, container counts, ephemeral containers', () => {
  const base = pod('p', { containers: [{ name: 'a', image: 'x' }], initContainers: [{ name: 'i', image: 'y' }], ephemeralContainers: [{ name: 'e', image: 'z' }] });
  const w = (spec: Record<string, unknown>) => pod('p', { ...(base['spec'] as object), ...spec });
  assert.equal(isSignificantPodUpdate(base, base), false);
  assert.equal(isSignificantPodUpdate(w({ tolerations: [{ key: 'k' }], containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1' } } }] }), base), false);
  assert.equal(isSignificantPodUpdate(w({ containers: [{ name: 'a', image: 'x2' }] }), base), true);
  assert.equal(isSignificantPodUpdate(w({ initContainers: [] }), base), true);
  assert.equal(isSignificantPodUpdate(w({ ephemeralContainers: [{ name: 'e', image: 'z' }, { name: 'f', image: 'z' }] }), base), true);
  assert.equal(isSignificantPodUpdate(w({ ephemeralContainers: [{ name: 'e', image: 'z2' }] }), base), true);
  assert.equal(isSignificantPodUpdate(w({ ephemeralContainers: [] }), base), false);
});

void test('workloads: the template against warn (which follows a stricter enforce) and audit, never refused', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}enforce`]: 'restricted' })] });
  const template = { metadata: { labels: { app: 'x' } }, spec: podSpec() };
  const objects: Array<[string, string, KObject]> = [
    ['apps', 'deployments', { metadata: { name: 'd' }, spec: { template } }],
    ['apps', 'replicasets', { metadata: { name: 'd' }, spec: { template } }],
    ['apps', 'statefulsets', { metadata: { name: 'd' }, spec: { template } }],
    ['apps', 'daemonsets', { metadata: { name: 'd' }, spec: { template } }],
    ['batch', 'jobs', { metadata: { name: 'd' }, spec: { template } }],
    ['batch', 'cronjobs', { metadata: { name: 'd' }, spec: { jobTemplate: { spec: { template } } } }],
    ['', 'replicationcontrollers', { metadata: { name: 'd' }, spec: { template } }],
    ['', 'podtemplates', { metadata: { name: 'd' }, template }],
  ];
  for (const [group, resource, object] of objects) {
    for (const operation of ['CREATE', 'UPDATE'] as const) {
      const r = await h.psa.validate(req({ operation, group, resource, object, oldObject: object }));
      assert.deepEqual(r, { allowed: true, warnings: [`would violate PodSecurity "restricted:latest": ${RESTRICTED_WORDS}`], auditAnnotations: {} }, `${resource} ${operation}`);
    }
  }
  // Scale and status writes, and a ReplicationController without a template, are not evaluated.
  assert.deepEqual((await h.psa.validate(req({ group: 'apps', resource: 'deployments', subresource: 'scale', object: { metadata: { name: 'd' }, spec: { replicas: 2 } } }))).warnings, []);
  assert.deepEqual((await h.psa.validate(req({ resource: 'replicationcontrollers', object: { metadata: { name: 'r' }, spec: {} } }))).warnings, []);
});

void test('workloads: an explicit warn level wins over enforce; audit annotates; enforce alone is not evaluated', async () => {
  const h = harness({ namespaces: [ns('ns', { [`${L}enforce`]: 'restricted', [`${L}warn`]: 'privileged', [`${L}audit`]: 'baseline' })] });
  const d: KObject = { metadata: { name: 'd' }, spec: { template: { spec: privilegedSpec() } } };
  const r = await h.psa.validate(req({ group: 'apps', resource: 'deployments', object: d }));
  assert.deepEqual(r, { allowed: true, warnings: [], auditAnnotations: { 'audit-violations': 'would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "app" must not set securityContext.privileged=true)' } });
});

void test('namespace lookups: a pod in a namespace that cannot be read is a 500; a workload is allowed with the error annotated', async () => {
  const h = harness();
  const r = await h.psa.validate(req({ object: pod('p') }));
  assert.equal(r.allowed, false);
  assert.deepEqual(r.error!.toStatus(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: failed to lookup namespace "ns"',
    reason: 'InternalError', details: { causes: [{ message: 'failed to lookup namespace "ns"' }] }, code: 500,
  });
  assert.deepEqual(r.auditAnnotations, { error: 'Internal error occurred: failed to lookup namespace "ns": namespaces "ns" not found' });
  const w = await h.psa.validate(req({ group: 'apps', resource: 'deployments', object: { metadata: { name: 'd' }, spec: { template: { spec: podSpec() } } } }));
  assert.deepEqual(w, { allowed: true, warnings: [], auditAnnotations: { error: 'failed to lookup namespace "ns": namespaces "ns" not found' } });
});

void test('exemptions: namespaces, users and runtime classes, each annotated', async () => {
  const config = {
    apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'restricted' }, exemptions: { namespaces: ['kube-system'], usernames: ['system:serviceaccount:ci:deployer'], runtimeClasses: ['kata'] },
  };
  const h = harness({ config, namespaces: [ns('ns'), ns('kube-system'), ns('warned', { [`${L}warn`]: 'restricted' })] });
  const bad = pod('p', privilegedSpec());
  assert.deepEqual(await h.psa.validate(req({ namespace: 'kube-system', object: bad })), { allowed: true, warnings: [], auditAnnotations: { exempt: 'namespace' } });
  assert.deepEqual(await h.psa.validate(req({ username: 'system:serviceaccount:ci:deployer', object: bad })), { allowed: true, warnings: [], auditAnnotations: { exempt: 'user' } });
  assert.deepEqual(await h.psa.validate(req({ object: pod('p', { ...privilegedSpec(), runtimeClassName: 'kata' }) })), { allowed: true, warnings: [], auditAnnotations: { exempt: 'runtimeClass' } });
  const d: KObject = { metadata: { name: 'd' }, spec: { template: { spec: { ...privilegedSpec(), runtimeClassName: 'kata' } } } };
  assert.deepEqual(await h.psa.validate(req({ group: 'apps', resource: 'deployments', namespace: 'warned', object: d })), { allowed: true, warnings: [], auditAnnotations: { exempt: 'runtimeClass' } });
  // Templates are not evaluated at all where warn and audit are privileged (the default enforce level does not count).
  assert.deepEqual(await h.psa.validate(req({ group: 'apps', resource: 'deployments', object: { metadata: { name: 'd' }, spec: { template: { spec: privilegedSpec() } } } })), { allowed: true, warnings: [], auditAnnotations: {} });
  // The default policy applies to an unlabeled namespace.
  const r = await h.psa.validate(req({ object: pod('p') }));
  assert.match(r.error!.message, /^pods "p" is forbidden: violates PodSecurity "restricted:latest": /);
});

void test('namespaces: invalid labels are a 422 on create, and on update only when they changed', async () => {
  const h = harness();
  const bad = ns('team', { [`${L}enforce`]: 'strict', [`${L}enforce-version`]: 'v1.25', [`${L}audit-version`]: '1.25' });
  const r = await h.psa.validate(req({ resource: 'namespaces', kind: 'Namespace', name: 'team', namespace: '', object: bad }));
  assert.equal(r.allowed, false);
  assert.deepEqual(r.error!.toStatus(), {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Invalid', code: 422,
    message: 'Namespace "team" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, '
      + 'metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "1.25": must be "latest" or "v1.x"]',
    details: {
      name: 'team', kind: 'Namespace', causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "1.25": must be "latest" or "v1.x"', field: 'metadata.labels[pod-security.kubernetes.io/audit-version]' },
      ],
    },
  });
  const update = (oldLabels: Record<string, string>, newLabels: Record<string, string>) =>
    h.psa.validate(req({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'team', namespace: 'team', object: ns('team', newLabels), oldObject: ns('team', oldLabels) }));
  // Already invalid the same way: other changes go through.
  assert.equal((await update({ [`${L}enforce`]: 'strict' }, { [`${L}enforce`]: 'strict', other: 'x' })).allowed, true);
  assert.equal((await update({ [`${L}enforce`]: 'strict' }, { [`${L}enforce`]: 'stricter' })).allowed, false);
  assert.equal((await update({}, { [`${L}warn-version`]: 'v1' })).error?.message,
    'Namespace "team" is invalid: metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v1": must be "latest" or "v1.x"');
  // Status and finalize writes are not looked at.
  assert.equal((await h.psa.validate(req({ operation: 'UPDATE', resource: 'namespaces', subresource: 'finalize', name: 'team', object: bad, oldObject: ns('team') }))).allowed, true);
});

function relabel(h: Harness, from: Record<string, string>, to: Record<string, string>, name = 'ns') {
  return h.psa.validate(req({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name, namespace: name, object: ns(name, to), oldObject: ns(name, from) }));
}

void test('namespaces: tightening enforce warns about existing pods (one line per distinct reasons, first pod by name, the others counted)', async () => {
  const h = harness();
  const owned = (name: string, uid: string, spec = podSpec()) => pod(name, spec, { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid, controller: true }] });
  h.pods = [
    pod('zeta'), pod('alpha'), pod('priv', privilegedSpec()), owned('web-2', 'rs1'), owned('web-1', 'rs1'),
    pod('fine', { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'c', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }] }),
  ];
  const r = await relabel(h, { [`${L}enforce`]: 'baseline' }, { [`${L}enforce`]: 'restricted' });
  assert.equal(r.allowed, true);
  assert.deepEqual(r.warnings, [
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
    'alpha (and 3 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'priv: host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ]);
  assert.deepEqual(r.auditAnnotations, {});
  h.pods = [pod('a', privilegedSpec()), pod('b', privilegedSpec())];
  assert.deepEqual((await relabel(h, {}, { [`${L}enforce`]: 'baseline', [`${L}enforce-version`]: 'v1.0' })).warnings, [
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:v1.0"',
    'a (and 1 other pod): host namespaces, privileged',
  ]);
  // Pods that all meet the new level: no warning at all.
  h.pods = [pod('ok')];
  assert.deepEqual((await relabel(h, {}, { [`${L}enforce`]: 'baseline' })).warnings, []);
});

void test('namespaces: no pod check unless enforce gets stricter (same, privileged, relaxed at the same version)', async () => {
  const h = harness();
  h.pods = [pod('p', privilegedSpec())];
  const cases: Array<[Record<string, string>, Record<string, string>]> = [
    [{ [`${L}enforce`]: 'restricted' }, { [`${L}enforce`]: 'restricted', [`${L}warn`]: 'baseline' }],
    [{ [`${L}enforce`]: 'restricted' }, { [`${L}enforce`]: 'privileged', [`${L}enforce-version`]: 'v1.20' }],
    [{ [`${L}enforce`]: 'restricted' }, { [`${L}enforce`]: 'baseline' }],
    [{ [`${L}enforce`]: 'restricted', [`${L}enforce-version`]: 'v1.25' }, { [`${L}enforce`]: 'restricted', [`${L}enforce-version`]: 'v1.25' }],
  ];
  for (const [from, to] of cases) assert.deepEqual((await relabel(h, from, to)).warnings, [], JSON.stringify(to));
  assert.equal(h.listed, 0);
  // A version change at the same level is checked (even towards an older version).
  assert.equal((await relabel(h, { [`${L}enforce`]: 'baseline' }, { [`${L}enforce`]: 'baseline', [`${L}enforce-version`]: 'v1.24' })).warnings.length, 2);
  assert.equal(h.listed, 1);
  // Creating a namespace never lists pods.
  assert.deepEqual(await h.psa.validate(req({ resource: 'namespaces', kind: 'Namespace', name: 'ns', namespace: 'ns', object: ns('ns', { [`${L}enforce`]: 'restricted' }) })), { allowed: true, warnings: [], auditAnnotations: {} });
  assert.equal(h.listed, 1);
});

void test('namespaces: at most 3000 pods evaluated, unique controllers first, exempt runtime classes skipped', async () => {
  const h = harness({ config: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', exemptions: { runtimeClasses: ['kata'] } } });
  const owned = (i: number, uid: string) => pod(`rs-${uid}-${String(i).padStart(4, '0')}`, podSpec(), { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid, controller: true }] });
  h.pods = [
    ...Array.from({ length: 3005 }, (_, i) => owned(i, 'a')),
    pod('kata', { ...privilegedSpec(), runtimeClassName: 'kata' }),
    owned(0, 'b'),
    pod('solo', privilegedSpec()),
  ];
  const r = await relabel(h, {}, { [`${L}enforce`]: 'restricted' });
  assert.deepEqual(r.warnings, [
    'new PodSecurity enforce level only checked against the first 3000 of 3007 existing pods',
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
    'rs-a-0000 (and 2998 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    'solo: host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ]);
});

void test('namespaces: the pod check stops after one second (listing or evaluating)', async () => {
  let clock = 0;
  const h = harness({ deps: { now: () => clock } });
  h.pods = ['a', 'b', 'c', 'd'].map((n) => pod(n));
  // Each evaluation "takes" 600 ms: the second one crosses the deadline and is the last.
  const evaluator = new Evaluator();
  const slow = new PodSecurityAdmission({
    config: loadConfiguration(undefined),
    evaluator: { evaluate: (...a: Parameters<Evaluator['evaluate']>) => { clock += 600; return evaluator.evaluate(...a); } } as unknown as Evaluator,
    getNamespace: async () => ns('ns'),
    listPods: async () => h.pods,
    now: () => clock,
  });
  assert.deepEqual((await slow.validate(req({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'ns', namespace: 'ns', object: ns('ns', { [`${L}enforce`]: 'restricted' }), oldObject: ns('ns') }))).warnings, [
    'new PodSecurity enforce level only checked against the first 2 of 4 existing pods',
    'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
    'a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
  ]);
  const stuck = harness({ deps: { listPods: (_ns, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))), podCheckTimeoutMs: 50 } });
  assert.deepEqual((await relabel(stuck, {}, { [`${L}enforce`]: 'restricted' })).warnings, ['failed to list pods while checking new PodSecurity enforce level']);
});

void test('namespaces: labelling an exempt namespace warns that the policy is ignored', async () => {
  const h = harness({ config: { apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration', defaults: { warn: 'baseline' }, exemptions: { namespaces: ['kube-system'] } } });
  h.pods = [pod('p', privilegedSpec())];
  const labels = { [`${L}enforce`]: 'restricted', [`${L}enforce-version`]: 'v1.0', [`${L}audit`]: 'restricted', [`${L}warn`]: 'baseline' };
  const created = await h.psa.validate(req({ resource: 'namespaces', kind: 'Namespace', name: 'kube-system', namespace: 'kube-system', object: ns('kube-system', labels) }));
  const message = 'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=restricted:v1.0, audit=restricted:latest, warn=baseline:latest) will be ignored';
  assert.deepEqual(created.warnings, [message]);
  assert.deepEqual((await relabel(h, {}, labels, 'kube-system')).warnings, [message]);
  assert.equal(h.listed, 0);
  // Labels that ask for nothing beyond the defaults: no warning.
  assert.deepEqual((await relabel(h, {}, { [`${L}warn`]: 'baseline', [`${L}enforce`]: 'privileged' }, 'kube-system')).warnings, []);
});
