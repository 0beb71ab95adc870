import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../machinery/objects.ts';
import type { AdmissionAttributes } from '../../../registry/admission.ts';
import { StatusError } from '../../../machinery/errors.ts';
import { checkRequest } from './check.ts';
import { evaluatorFor, groupResourcesFor, quotaMatches, usageOf } from './evaluators.ts';
import { quotaState } from './plugin.ts';
import { formatResourceList } from './resource-list.ts';

const NOW = new Date('2025-01-01T00:00:00Z');
const pods = evaluatorFor('', 'pods');
const usage = (ev: ReturnType<typeof evaluatorFor>, o: unknown) => formatResourceList(ev.usage(o as KObject, NOW));

const pod = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', resourceVersion: '5' }, spec, ...extra }) as unknown as KObject;
const ctr = (name: string, requests?: Record<string, string>, limits?: Record<string, string>, more: Record<string, unknown> = {}) =>
  ({ name, image: 'x', resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) }, ...more });

void test('pod usage: containers add up, init containers count by their peak, sidecars with both, overhead on top', () => {
  const p = pod({
    containers: [ctr('a', { cpu: '100m', memory: '64Mi' }, { cpu: '200m' }), ctr('b', { cpu: '200m', memory: '64Mi', 'example.com/gpu': '1', 'hugepages-2Mi': '4Mi' })],
    initContainers: [ctr('init', { cpu: '1', memory: '16Mi' }), ctr('side', { cpu: '50m' }, undefined, { restartPolicy: 'Always' })],
    overhead: { cpu: '10m', memory: '1Mi' },
  });
  assert.deepEqual(usage(pods, p), {
    'count/pods': '1', pods: '1',
    cpu: '1010m', 'requests.cpu': '1010m', memory: '129Mi', 'requests.memory': '129Mi', 'limits.cpu': '210m',
    'requests.example.com/gpu': '1', 'hugepages-2Mi': '4Mi', 'requests.hugepages-2Mi': '4Mi',
  });
  // A sidecar before a plain init container runs beside it: the init container's peak includes it.
  const q = pod({ containers: [ctr('a', { cpu: '100m' })], initContainers: [ctr('side', { cpu: '300m' }, undefined, { restartPolicy: 'Always' }), ctr('init', { cpu: '500m' })] });
  assert.equal(usage(pods, q)['requests.cpu'], '800m');
});

void test('pod usage: terminal or past-grace pods count only in count/pods', () => {
  const spec = { containers: [ctr('a', { cpu: '1' })] };
  assert.deepEqual(usage(pods, pod(spec, { status: { phase: 'Succeeded' } })), { 'count/pods': '1' });
  assert.deepEqual(usage(pods, pod(spec, { status: { phase: 'Failed' } })), { 'count/pods': '1' });
  const deleting = pod(spec);
  Object.assign(deleting.metadata, { deletionTimestamp: '2024-12-31T23:59:00Z', deletionGracePeriodSeconds: 30 });
  assert.deepEqual(usage(pods, deleting), { 'count/pods': '1' });
  Object.assign(deleting.metadata, { deletionGracePeriodSeconds: 3600 });
  assert.equal(usage(pods, deleting)['requests.cpu'], '1');
});

void test('pod scopes: terminating, best effort, priority class selectors, cross-namespace affinity', () => {
  const best = pod({ containers: [ctr('a')] });
  const burst = pod({ containers: [ctr('a', { memory: '1Mi' })], activeDeadlineSeconds: 10, priorityClassName: 'high' });
  const m = (scopeName: string, p: KObject, operator = 'Exists', values?: string[]) => pods.matchesScope({ scopeName, operator, ...(values ? { values } : {}) }, p);
  assert.deepEqual([m('BestEffort', best), m('NotBestEffort', best), m('BestEffort', burst), m('NotBestEffort', burst)], [true, false, false, true]);
  assert.deepEqual([m('Terminating', best), m('NotTerminating', best), m('Terminating', burst)], [false, true, true]);
  assert.deepEqual([m('PriorityClass', best), m('PriorityClass', burst)], [false, true]);
  assert.deepEqual([m('PriorityClass', burst, 'In', ['high', 'x']), m('PriorityClass', burst, 'In', ['low']), m('PriorityClass', best, 'In', ['high'])], [true, false, false]);
  assert.deepEqual([m('PriorityClass', burst, 'NotIn', ['low']), m('PriorityClass', burst, 'NotIn', ['high']), m('PriorityClass', best, 'NotIn', ['high'])], [true, false, true]);
  assert.deepEqual([m('PriorityClass', best, 'DoesNotExist'), m('PriorityClass', burst, 'DoesNotExist')], [true, false]);
  const cross = pod({ containers: [ctr('a')], affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'k', namespaceSelector: {} } }] } } });
  assert.deepEqual([m('CrossNamespacePodAffinity', cross), m('CrossNamespacePodAffinity', best)], [true, false]);
  // A quota with scopes matches only pods under all of them; kinds without scopes never match a scoped quota.
  const rq = { metadata: { name: 'q' }, spec: { scopes: ['BestEffort'] }, status: { hard: { pods: '1' } } } as unknown as KObject;
  assert.deepEqual([quotaMatches(pods, rq, best), quotaMatches(pods, rq, burst)], [true, false]);
  const cmq = { metadata: { name: 'q' }, spec: { scopes: ['BestEffort'] }, status: { hard: { configmaps: '1' } } } as unknown as KObject;
  assert.equal(quotaMatches(evaluatorFor('', 'configmaps'), cmq, { metadata: { name: 'c' } }), false);
});

void test('services, claims and object counts', () => {
  const svc = (spec: Record<string, unknown>) => ({ metadata: { name: 's' }, spec }) as unknown as KObject;
  const services = evaluatorFor('', 'services');
  assert.deepEqual(usage(services, svc({ type: 'LoadBalancer', ports: [{ port: 80 }, { port: 443 }] })),
    { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '2' });
  assert.deepEqual(usage(services, svc({ type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80, nodePort: 30001 }, { port: 443 }] }))['services.nodeports'], '1');
  assert.deepEqual(usage(services, svc({ ports: [{ port: 80 }] }))['services.nodeports'], '0');
  const claims = evaluatorFor('', 'persistentvolumeclaims');
  const pvc = { metadata: { name: 'c' }, spec: { storageClassName: 'gold', resources: { requests: { storage: '1500m' } } }, status: { allocatedResources: { storage: '1Gi' } } };
  assert.deepEqual(usage(claims, pvc), {
    persistentvolumeclaims: '1', 'count/persistentvolumeclaims': '1', 'requests.storage': '1Gi',
    'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1', 'gold.storageclass.storage.k8s.io/requests.storage': '1Gi',
  });
  assert.deepEqual(usage(claims, { ...pvc, status: {} })['requests.storage'], '2', 'rounded up to whole bytes');
  assert.deepEqual(usage(evaluatorFor('', 'secrets'), {}), { 'count/secrets': '1', secrets: '1' });
  assert.deepEqual(usage(evaluatorFor('stable.example.com', 'widgets'), {}), { 'count/widgets.stable.example.com': '1' });
  assert.deepEqual(groupResourcesFor('count/widgets.stable.example.com'), [{ group: 'stable.example.com', resource: 'widgets' }]);
  assert.deepEqual(groupResourcesFor('requests.cpu'), [{ group: '', resource: 'pods' }]);
  assert.deepEqual(groupResourcesFor('gold.storageclass.storage.k8s.io/requests.storage'), [{ group: '', resource: 'persistentvolumeclaims' }]);
  assert.deepEqual(groupResourcesFor('count/events'), []);
  // The controller's sum: zeros for what nothing uses yet, scopes applied.
  const rq = { metadata: { name: 'q' }, spec: { hard: { pods: '9', 'requests.memory': '1Gi', 'limits.cpu': '4' }, scopes: ['NotBestEffort'] } } as unknown as KObject;
  const sum = usageOf(pods, rq, [pod({ containers: [ctr('a', { memory: '100Mi' })] }), pod({ containers: [ctr('a')] })], NOW);
  assert.deepEqual(formatResourceList(new Map([...sum].filter(([k]) => ['pods', 'requests.memory', 'limits.cpu'].includes(k)))),
    { pods: '1', 'requests.memory': '100Mi', 'limits.cpu': '0' });
});

function attrs(object: KObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const gvr = { group: '', version: 'v1', resource: 'pods' };
  const gvk = { group: '', version: 'v1', kind: 'Pod' };
  return {
    operation: 'CREATE', kind: gvk, resource: gvr, subresource: '', requestKind: gvk, requestResource: gvr, requestSubResource: '',
    name: object.metadata.name ?? '', namespace: 'ns', object, oldObject: undefined, options: undefined, dryRun: false,
    user: { username: 'u', groups: [] }, warnings: [], auditAnnotations: {}, reinvocation: { requested: false, running: false }, ...over,
  };
}
const quota = (name: string, hard: Record<string, string>, used: Record<string, string> | undefined, spec: Record<string, unknown> = {}) =>
  quotaState({ metadata: { name, namespace: 'ns' }, spec: { hard, ...spec }, status: { hard, ...(used ? { used } : {}) } } as unknown as KObject);
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return `${e.code} ${e.message}`;
  }
  return 'admitted';
};

void test('checkRequest: charges every matching quota, refuses with kube\'s words', () => {
  const p = pod({ containers: [ctr('web', { cpu: '500m', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })] });
  const quotas = [quota('compute', { 'requests.cpu': '1', 'limits.memory': '2Gi' }, { 'requests.cpu': '200m', 'limits.memory': '512Mi' }), quota('count', { pods: '3' }, { pods: '1' })];
  const after = checkRequest(quotas, attrs(p), [], NOW);
  assert.deepEqual(after.map((q) => formatResourceList(q.used)), [{ 'limits.memory': '1536Mi', 'requests.cpu': '700m' }, { pods: '2' }]);
  assert.equal(refusal(() => checkRequest(after, attrs({ ...p, metadata: { name: 'p2' } }), [], NOW)),
    '403 pods "p2" is forbidden: exceeded quota: compute, requested: limits.memory=1Gi,requests.cpu=500m, used: limits.memory=1536Mi,requests.cpu=700m, limited: limits.memory=2Gi,requests.cpu=1');
  const bare = pod({ containers: [ctr('web'), ctr('side', { cpu: '1m' })], initContainers: [ctr('init')] });
  assert.equal(refusal(() => checkRequest(quotas, attrs(bare), [], NOW)),
    '403 pods "p" is forbidden: failed quota: compute: must specify limits.memory for: init,side,web; requests.cpu for: init,web');
  assert.equal(refusal(() => checkRequest([quota('new', { pods: '1' }, undefined)], attrs(p), [], NOW)),
    '403 pods "p" is forbidden: status unknown for quota: new, resources: pods');
});

void test('checkRequest: updates pay for growth only; limited resources need a covering quota', () => {
  const claimAttrs = (size: string, old: string) => {
    const mk = (s: string) => ({ metadata: { name: 'c', namespace: 'ns', resourceVersion: '3' }, spec: { resources: { requests: { storage: s } } } }) as unknown as KObject;
    const gvr = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
    return attrs(mk(size), { operation: 'UPDATE', oldObject: mk(old), resource: gvr, requestResource: gvr, kind: { group: '', version: 'v1', kind: 'PersistentVolumeClaim' } });
  };
  const quotas = [quota('storage', { 'requests.storage': '10Gi', persistentvolumeclaims: '1' }, { 'requests.storage': '4Gi', persistentvolumeclaims: '1' })];
  assert.deepEqual(formatResourceList(checkRequest(quotas, claimAttrs('6Gi', '4Gi'), [], NOW)[0]!.used), { persistentvolumeclaims: '1', 'requests.storage': '6Gi' });
  assert.equal(refusal(() => checkRequest(quotas, claimAttrs('11Gi', '4Gi'), [], NOW)),
    '403 persistentvolumeclaims "c" is forbidden: exceeded quota: storage, requested: requests.storage=7Gi, used: requests.storage=4Gi, limited: requests.storage=10Gi');
  assert.equal(checkRequest(quotas, claimAttrs('4Gi', '4Gi'), [], NOW), quotas, 'nothing grew: no change');

  const limited = [{ apiGroup: '', resource: 'pods', matchContains: ['cpu'], matchScopes: [] }];
  const p = pod({ containers: [ctr('web', { cpu: '100m' })] });
  assert.equal(refusal(() => checkRequest([], attrs(p), limited, NOW)), '403 pods "p" is forbidden: insufficient quota to consume: cpu,requests.cpu');
  assert.equal(refusal(() => checkRequest([quota('q', { 'requests.cpu': '1' }, { 'requests.cpu': '0' })], attrs(p), limited, NOW)),
    '403 pods "p" is forbidden: insufficient quota to consume: cpu');
  assert.equal(refusal(() => checkRequest([], attrs(pod({ containers: [ctr('web')] })), limited, NOW)), 'admitted');
  const byScope = [{ apiGroup: '', resource: 'pods', matchContains: [], matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] }];
  const critical = pod({ containers: [ctr('web')], priorityClassName: 'cluster-services' });
  assert.equal(refusal(() => checkRequest([], attrs(critical), byScope, NOW)),
    '500 Internal error occurred: insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]');
  const covering = quota('critical', { pods: '10' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] } });
  assert.equal(formatResourceList(checkRequest([covering], attrs(critical), byScope, NOW)[0]!.used)['pods'], '1');
});
