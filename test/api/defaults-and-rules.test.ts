/**
 * kube's defaulters, per-kind update rules, the autoscaling/v1 round-trip annotations and three validation
 * rules (StatefulSet claim templates, MicroTime decoding, --allow-privileged), against a real server.
 * Defaults apply on create, dry-run create, update and patch alike.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.ts';
import { assertStatus } from './helpers.ts';

let srv: TestServer;
before(async () => { srv = await startTestServer(); });
after(async () => { await srv?.stop(); });

const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const NS = '/api/v1/namespaces/default';
type J = Record<string, any>;

async function created(path: string, body: unknown, query = ''): Promise<J> {
  const r = await srv.request('POST', `${path}${query}`, { body });
  assert.equal(r.status, 201, r.text);
  return r.json();
}

/** The object as created for real and as a dry run: both must show the defaults. */
async function createdBothWays(path: string, body: J): Promise<J[]> {
  const dry = await created(path, { ...body, metadata: { ...body['metadata'], name: `${body['metadata'].name}-dry` } }, '?dryRun=All');
  const real = await created(path, body);
  const got = await srv.request('GET', `${path}/${body['metadata'].name}`);
  assert.equal(got.status, 200, got.text);
  return [dry, real, got.json()];
}

const hook = (name: string) => ({
  name, clientConfig: { service: { namespace: 'default', name: 'hooks' } }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
});

describe('kube\'s defaults on create and dry-run create', () => {
  void test('mutating and validating webhook configurations', async () => {
    for (const o of await createdBothWays('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'mwc' }, webhooks: [hook('m.example.com')],
    })) {
      const w = o['webhooks'][0];
      assert.deepEqual([w.failurePolicy, w.matchPolicy, w.namespaceSelector, w.objectSelector, w.timeoutSeconds, w.reinvocationPolicy], ['Fail', 'Equivalent', {}, {}, 10, 'Never']);
      assert.equal(w.rules[0].scope, '*');
      assert.equal(w.clientConfig.service.port, 443);
      assert.equal(o['metadata'].generation, 1);
    }
    for (const o of await createdBothWays('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'vwc' }, webhooks: [hook('v.example.com')],
    })) {
      const w = o['webhooks'][0];
      assert.deepEqual([w.failurePolicy, w.matchPolicy, w.timeoutSeconds, w.reinvocationPolicy], ['Fail', 'Equivalent', 10, undefined]);
    }
  });

  void test('validating admission policies and bindings', async () => {
    for (const o of await createdBothWays('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'vap' },
      spec: { matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }] }, validations: [{ expression: 'true' }] },
    })) {
      assert.equal(o['spec'].failurePolicy, 'Fail');
      assert.deepEqual(o['spec'].matchConstraints, {
        resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'], scope: '*' }],
        matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {},
      });
    }
    for (const o of await createdBothWays('/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'vapb' },
      spec: { policyName: 'vap', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { a: 'b' } } } },
    })) {
      assert.deepEqual(o['spec'].matchResources, { namespaceSelector: { matchLabels: { a: 'b' } }, matchPolicy: 'Equivalent', objectSelector: {} });
    }
  });

  void test('CSIDriver, IngressClass, NetworkPolicy', async () => {
    for (const o of await createdBothWays('/apis/storage.k8s.io/v1/csidrivers', { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} })) {
      assert.deepEqual(o['spec'], {
        attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType',
        volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false,
      });
    }
    for (const o of await createdBothWays('/apis/networking.k8s.io/v1/ingressclasses', {
      apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'ic' }, spec: { controller: 'example.com/ingress', parameters: { apiGroup: 'example.com', kind: 'Params', name: 'p' } },
    })) assert.equal(o['spec'].parameters.scope, 'Cluster');
    for (const o of await createdBothWays('/apis/networking.k8s.io/v1/namespaces/default/networkpolicies', {
      apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'np' },
      spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }], egress: [{ ports: [{ port: 53, protocol: 'UDP' }] }] },
    })) {
      assert.deepEqual(o['spec'].policyTypes, ['Ingress', 'Egress']);
      assert.equal(o['spec'].ingress[0].ports[0].protocol, 'TCP');
      assert.equal(o['spec'].egress[0].ports[0].protocol, 'UDP');
    }
  });

  void test('PriorityLevelConfiguration and FlowSchema', async () => {
    for (const o of await createdBothWays('/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'plc' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } },
    })) {
      assert.equal(o['spec'].limited.nominalConcurrencyShares, 30);
      assert.equal(o['spec'].limited.lendablePercent, 0);
      assert.deepEqual(o['spec'].limited.limitResponse.queuing, { handSize: 8, queues: 64, queueLengthLimit: 50 });
    }
    const fs = await created('/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'fs' }, spec: { priorityLevelConfiguration: { name: 'plc' } },
    });
    assert.equal(fs['spec'].matchingPrecedence, 1000);
  });

  void test('HPA autoscaling/v2 behavior, and v1 minReplicas with the implicit CPU target', async () => {
    for (const o of await createdBothWays('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h2' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } },
    })) {
      assert.equal(o['spec'].minReplicas, 1);
      assert.deepEqual(o['spec'].behavior, {
        scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      });
      assert.equal(o['metadata'].generation, undefined, 'kube sets no generation on HPAs');
    }
    for (const o of await createdBothWays('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', {
      apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h1' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
    })) {
      assert.equal(o['spec'].minReplicas, 1);
      assert.equal(o['spec'].targetCPUUtilizationPercentage, 80);
      assert.equal(o['metadata'].generation, undefined);
    }
  });

  void test('Node podCIDRs and allocatable; LimitRange defaults; PV lastPhaseTransitionTime', async () => {
    for (const o of await createdBothWays('/api/v1/nodes', {
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: { podCIDR: '10.244.0.0/24' }, status: { capacity: { cpu: '2', memory: '1Gi' } },
    })) {
      assert.deepEqual(o['spec'].podCIDRs, ['10.244.0.0/24']);
      assert.deepEqual(o['status'].allocatable, { cpu: '2', memory: '1Gi' });
    }
    for (const o of await createdBothWays(`${NS}/limitranges`, {
      apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr' }, spec: { limits: [{ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' } }] },
    })) {
      assert.deepEqual(o['spec'].limits[0].default, { cpu: '1' });
      assert.deepEqual(o['spec'].limits[0].defaultRequest, { cpu: '1', memory: '64Mi' });
    }
    const pv = await created('/api/v1/persistentvolumes', {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    });
    assert.equal(pv['status'].phase, 'Pending');
    assert.match(pv['status'].lastPhaseTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  void test('DaemonSet template generation annotation and pod template serviceAccount alias', async () => {
    const ds = {
      apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'ds' },
      spec: { selector: { matchLabels: { app: 'ds' } }, template: { metadata: { labels: { app: 'ds' } }, spec: { serviceAccountName: 'agent', containers: [{ name: 'a', image: 'agent:1', livenessProbe: { httpGet: { port: 8080 } } }] } } },
    };
    for (const o of await createdBothWays('/apis/apps/v1/namespaces/default/daemonsets', ds)) {
      assert.equal(o['metadata'].annotations['deprecated.daemonset.template.generation'], '1');
      assert.equal(o['spec'].template.spec.serviceAccount, 'agent');
      assert.deepEqual(o['spec'].template.spec.containers[0].livenessProbe.httpGet, { port: 8080, path: '/', scheme: 'HTTP' });
    }
    const r = await srv.request('PATCH', '/apis/apps/v1/namespaces/default/daemonsets/ds', { body: { spec: { template: { spec: { containers: [{ name: 'a', image: 'agent:2' }] } } } }, headers: MERGE });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json().metadata.annotations['deprecated.daemonset.template.generation'], '2');
    assert.equal(r.json().metadata.generation, 2);
  });
});

describe('generation and update rules', () => {
  void test('a Deployment annotation change bumps generation; a label change does not', async () => {
    const base = '/apis/apps/v1/namespaces/default/deployments';
    const d = await created(base, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'gen' },
      spec: { selector: { matchLabels: { app: 'gen' } }, template: { metadata: { labels: { app: 'gen' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
    });
    assert.equal(d['metadata'].generation, 1);
    const l = await srv.request('PATCH', `${base}/gen`, { body: { metadata: { labels: { tier: 'web' } } }, headers: MERGE });
    assert.equal(l.json().metadata.generation, 1, l.text);
    const a = await srv.request('PATCH', `${base}/gen`, { body: { metadata: { annotations: { 'kubernetes.io/change-cause': 'rollout' } } }, headers: MERGE });
    assert.equal(a.json().metadata.generation, 2, a.text);
  });

  void test('HPAs have no generation, pods have one (kube v1.33 tracks pod generation)', async () => {
    const h = await srv.request('GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h2');
    assert.equal(h.json().metadata.generation, undefined);
    const p = await created(`${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gen-pod' }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } });
    assert.equal(p['metadata'].generation, 1);
  });

  void test('a Job whose labels are all removed gets its template\'s labels back', async () => {
    const base = '/apis/batch/v1/namespaces/default/jobs';
    const j = await created(base, {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'relabel' },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } },
    });
    const labels = j['metadata'].labels;
    assert.equal(labels['batch.kubernetes.io/job-name'], 'relabel');
    const r = await srv.request('PATCH', `${base}/relabel`, { body: { metadata: { labels: null } }, headers: MERGE });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json().metadata.labels, labels);
    const put = r.json();
    delete put.metadata.labels;
    const u = await srv.request('PUT', `${base}/relabel`, { body: put });
    assert.equal(u.status, 200, u.text);
    assert.deepEqual(u.json().metadata.labels, labels);
  });
});

describe('autoscaling/v1 round-trip annotations', () => {
  void test('a v2 HPA read through v1 carries kube\'s annotations byte for byte, and a v1 write restores them', async () => {
    await created('/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'rt' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 10,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100' } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 120, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      },
    });
    const r = await srv.request('GET', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/rt');
    assert.equal(r.status, 200, r.text);
    const v1 = r.json();
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 60);
    assert.equal(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},'
      + '"ScaleDown":{"StabilizationWindowSeconds":120,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":60}],"Tolerance":null}}');
    assert.equal(v1.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"100"}}]');
    // A behavior written through v1 is validated before any defaulting: rules without policies are refused.
    v1.spec.maxReplicas = 11;
    v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'] = '{"ScaleUp":{"SelectPolicy":"Disabled"}}';
    const bad = await srv.request('PUT', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/rt', { body: v1 });
    assertStatus(bad, 422, 'Invalid', 'HorizontalPodAutoscaler.autoscaling "rt" is invalid: spec.behavior.scaleUp.policies: Required value: must specify at least one Policy');
    // One that changes the behavior annotation changes the v2 fields (the rest is filled in on the way back).
    v1.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'] = '{"scaleUp":{"selectPolicy":"Disabled","policies":[{"type":"Pods","value":4,"periodSeconds":15},{"type":"Percent","value":100,"periodSeconds":15}]}}';
    const u = await srv.request('PUT', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/rt', { body: v1 });
    assert.equal(u.status, 200, u.text);
    assert.equal(u.json().metadata.annotations['autoscaling.alpha.kubernetes.io/behavior'],
      '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Disabled","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},'
      + '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}');
    const v2 = (await srv.request('GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/rt')).json();
    assert.equal(v2.spec.maxReplicas, 11);
    assert.deepEqual(v2.spec.metrics.map((m: J) => m.type), ['Pods', 'Resource']);
    assert.deepEqual(v2.spec.behavior.scaleUp.selectPolicy, 'Disabled');
    assert.equal(v2.spec.behavior.scaleDown.stabilizationWindowSeconds, undefined);
    assert.equal(v2.metadata.annotations, undefined, 'the round-trip annotations are not stored');
  });
});

describe('validation', () => {
  void test('a StatefulSet mounting a volumeClaimTemplate is accepted', async () => {
    const o = await created('/apis/apps/v1/namespaces/default/statefulsets', {
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' },
      spec: {
        serviceName: 'db', selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql/data' }] }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    });
    assert.equal(o['spec'].volumeClaimTemplates[0].spec.volumeMode, 'Filesystem');
  });

  void test('a Lease time without microseconds is kube\'s 400 decode error', async () => {
    const r = await srv.request('POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', {
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a', renewTime: '2024-01-01T00:00:00Z' } },
    });
    assertStatus(r, 400, 'BadRequest', 'Lease in version "v1" cannot be handled as a Lease: parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
    await created('/apis/coordination.k8s.io/v1/namespaces/default/leases', {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a', renewTime: '2024-01-01T00:00:00.000000Z' },
    });
  });

  const privileged = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] } });

  void test('a privileged pod is refused by default (--allow-privileged=false)', async () => {
    const r = await srv.request('POST', `${NS}/pods`, { body: privileged('priv') });
    const s = assertStatus(r, 422, 'Invalid', 'Pod "priv" is invalid: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    assert.deepEqual(s.details.causes, [{ reason: 'FieldValueForbidden', message: 'Forbidden: disallowed by cluster policy', field: 'spec.containers[0].securityContext.privileged' }]);
    const d = await srv.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'priv' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: privileged('x').spec } } },
    });
    assertStatus(d, 422, 'Invalid', 'Deployment.apps "priv" is invalid: spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
  });

  void test('with --allow-privileged=true the same pod is accepted', async () => {
    const open = await startTestServer({ allowPrivileged: true });
    try {
      const r = await open.request('POST', `${NS}/pods`, { body: privileged('priv') });
      assert.equal(r.status, 201, r.text);
    } finally {
      await open.stop();
    }
    // The policy is per server: this one still refuses.
    assert.equal((await srv.request('POST', `${NS}/pods`, { body: privileged('priv2') })).status, 422);
  });
});
