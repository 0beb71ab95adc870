// Defaults kube's defaulters (pkg/apis/<group>/v1/defaults.go at v1.33) fill in, per kind, through the strategies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { StrategyContext } from '../../api/types.ts';
import { builtinCatalog } from './groups/index.ts';

type J = Record<string, any>;
const ctx: StrategyContext = { subresource: '', dryRun: false };

/** What the generic store does on create, as far as the strategy is concerned. */
function create(group: string, version: string, resource: string, obj: J): J {
  const def = builtinCatalog().lookup(group, version, resource)!;
  const o = structuredClone(obj) as KObject;
  o.metadata ??= { name: 'x' };
  o.apiVersion = group ? `${group}/${version}` : version;
  o.kind = def.kind;
  def.strategy!.prepareForCreate?.(o, ctx);
  def.strategy!.defaults!(o);
  return o as J;
}

void test('webhook configurations: kube\'s v1 webhook, rule and service defaults (no sideEffects or review versions)', () => {
  const hook = { name: 'h.example.com', clientConfig: { service: { namespace: 'ns', name: 'svc' } }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] };
  const m = create('admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations', { webhooks: [hook] });
  assert.deepEqual(m['webhooks'][0], {
    ...hook, clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } }, rules: [{ ...hook.rules[0], scope: '*' }],
    failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10, reinvocationPolicy: 'Never',
  });
  const v = create('admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', { webhooks: [{ ...hook, failurePolicy: 'Ignore', timeoutSeconds: 3 }] });
  assert.equal(v['webhooks'][0].reinvocationPolicy, undefined);
  assert.equal(v['webhooks'][0].failurePolicy, 'Ignore');
  assert.equal(v['webhooks'][0].timeoutSeconds, 3);
  assert.equal(v['webhooks'][0].sideEffects, 'None');
});

void test('validating admission policies and bindings: failurePolicy and MatchResources defaults', () => {
  const p = create('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies', {
    spec: {
      matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }], excludeResourceRules: [{ apiGroups: [''], resources: ['pods'], scope: 'Namespaced' }] },
      validations: [{ expression: 'true' }],
    },
  });
  assert.equal(p['spec'].failurePolicy, 'Fail');
  assert.equal(p['spec'].matchConstraints.matchPolicy, 'Equivalent');
  assert.deepEqual(p['spec'].matchConstraints.namespaceSelector, {});
  assert.deepEqual(p['spec'].matchConstraints.objectSelector, {});
  assert.equal(p['spec'].matchConstraints.resourceRules[0].scope, '*');
  assert.equal(p['spec'].matchConstraints.excludeResourceRules[0].scope, 'Namespaced');
  const none = create('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies', { spec: { validations: [{ expression: 'true' }] } });
  assert.equal(none['spec'].matchConstraints, undefined, 'nothing to default when absent');
  const b = create('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings', { spec: { policyName: 'p', validationActions: ['Deny'], matchResources: {} } });
  assert.deepEqual(b['spec'].matchResources, { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
  assert.equal(create('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings', { spec: { policyName: 'p' } })['spec'].matchResources, undefined);
});

void test('CSIDriver: every spec default at v1.33\'s gates', () => {
  assert.deepEqual(create('storage.k8s.io', 'v1', 'csidrivers', { spec: {} })['spec'], {
    attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType',
    volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false,
  });
  assert.deepEqual(create('storage.k8s.io', 'v1', 'csidrivers', { spec: { attachRequired: false, volumeLifecycleModes: ['Ephemeral'] } })['spec'].volumeLifecycleModes, ['Ephemeral']);
});

void test('HPA autoscaling/v2: minReplicas, the CPU metric, and behavior filled per direction', () => {
  const h = create('autoscaling', 'v2', 'horizontalpodautoscalers', {
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'w' }, maxReplicas: 3, behavior: { scaleDown: { stabilizationWindowSeconds: 30 } } },
  });
  assert.equal(h['spec'].minReplicas, 1);
  assert.deepEqual(h['spec'].metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.deepEqual(h['spec'].behavior, {
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { stabilizationWindowSeconds: 30, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
  assert.equal(create('autoscaling', 'v2', 'horizontalpodautoscalers', { spec: { maxReplicas: 1 } })['spec'].behavior, undefined, 'no behavior, no default');
  // HPAConfigurableTolerance is off in v1.33: a new tolerance is dropped.
  const tol = create('autoscaling', 'v2', 'horizontalpodautoscalers', { spec: { maxReplicas: 1, behavior: { scaleUp: { tolerance: '50m' } } } });
  assert.equal(tol['spec'].behavior.scaleUp.tolerance, undefined);
  const v1 = create('autoscaling', 'v1', 'horizontalpodautoscalers', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'w' }, maxReplicas: 3 } });
  assert.equal(v1['spec'].minReplicas, 1);
});

void test('networking: NetworkPolicy policyTypes and port protocol; IngressClass parameters scope', () => {
  const ingressOnly = create('networking.k8s.io', 'v1', 'networkpolicies', { spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }] } });
  assert.deepEqual(ingressOnly['spec'].policyTypes, ['Ingress']);
  assert.deepEqual(ingressOnly['spec'].ingress[0].ports, [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }]);
  const both = create('networking.k8s.io', 'v1', 'networkpolicies', { spec: { podSelector: {}, egress: [{ ports: [{ port: 443 }] }] } });
  assert.deepEqual(both['spec'].policyTypes, ['Ingress', 'Egress']);
  assert.equal(both['spec'].egress[0].ports[0].protocol, 'TCP');
  const given = create('networking.k8s.io', 'v1', 'networkpolicies', { spec: { podSelector: {}, policyTypes: ['Egress'], egress: [{}] } });
  assert.deepEqual(given['spec'].policyTypes, ['Egress']);
  const ic = create('networking.k8s.io', 'v1', 'ingressclasses', { spec: { controller: 'x.io/c', parameters: { kind: 'P', name: 'p' } } });
  assert.equal(ic['spec'].parameters.scope, 'Cluster');
  assert.equal(create('networking.k8s.io', 'v1', 'ingressclasses', { spec: { controller: 'x.io/c' } })['spec'].parameters, undefined);
});

void test('flowcontrol: matchingPrecedence and priority level queuing/shares defaults', () => {
  assert.equal(create('flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas', { spec: { priorityLevelConfiguration: { name: 'p' } } })['spec'].matchingPrecedence, 1000);
  const plc = create('flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations', { spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } });
  assert.deepEqual(plc['spec'].limited, { limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } }, nominalConcurrencyShares: 30, lendablePercent: 0 });
  const zero = create('flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations', { spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } } });
  assert.equal(zero['spec'].limited.nominalConcurrencyShares, 0, 'v1 keeps an explicit zero');
  const exempt = create('flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations', { spec: { type: 'Exempt', exempt: {} } });
  assert.deepEqual(exempt['spec'].exempt, { nominalConcurrencyShares: 0, lendablePercent: 0 });
});

void test('core: Node podCIDRs and allocatable, LimitRange container defaults', () => {
  const n = create('', 'v1', 'nodes', { metadata: { name: 'n' }, spec: { podCIDR: '10.0.0.0/24' }, status: { capacity: { cpu: '4', pods: '110' } } });
  assert.deepEqual(n['spec'], { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'] });
  assert.deepEqual(n['status'].allocatable, { cpu: '4', pods: '110' });
  const lr = create('', 'v1', 'limitranges', {
    spec: { limits: [
      { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', memory: '10Mi' }, default: { memory: '512Mi' } },
      { type: 'Pod', max: { cpu: '4' } },
      { type: 'Container', min: { cpu: '1' } },
      { type: 'Container' },
    ] },
  });
  assert.deepEqual(lr['spec'].limits, [
    { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', memory: '10Mi' }, default: { memory: '512Mi', cpu: '2' }, defaultRequest: { memory: '512Mi', cpu: '2' } },
    { type: 'Pod', max: { cpu: '4' } },
    { type: 'Container', min: { cpu: '1' }, defaultRequest: { cpu: '1' } },
    { type: 'Container' },
  ]);
});

void test('pod specs: HTTP GET path, gRPC service, emptyDir, token expiry; host ports for pods only', () => {
  const spec = {
    hostNetwork: true,
    containers: [{
      name: 'c', image: 'x:1', ports: [{ containerPort: 8080 }],
      livenessProbe: { httpGet: { port: 80 } }, readinessProbe: { grpc: { port: 9000 } },
      lifecycle: { preStop: { httpGet: { port: 80, path: '/stop' } } },
    }],
    volumes: [{ name: 'scratch' }, { name: 'tok', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }],
  };
  const pod = create('', 'v1', 'pods', { spec });
  const c = pod['spec'].containers[0];
  assert.deepEqual(c.livenessProbe.httpGet, { port: 80, path: '/', scheme: 'HTTP' });
  assert.deepEqual(c.readinessProbe.grpc, { port: 9000, service: '' });
  assert.deepEqual(c.lifecycle.preStop.httpGet, { port: 80, path: '/stop', scheme: 'HTTP' });
  assert.deepEqual(pod['spec'].volumes[0], { name: 'scratch', emptyDir: {} });
  assert.equal(pod['spec'].volumes[1].projected.sources[0].serviceAccountToken.expirationSeconds, 3600);
  assert.equal(c.ports[0].hostPort, 8080);
  const d = create('apps', 'v1', 'deployments', { spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec } } });
  assert.equal(d['spec'].template.spec.containers[0].ports[0].hostPort, undefined, 'templates keep hostPort unset (since v1.28)');
  assert.deepEqual(d['spec'].template.spec.volumes[0], { name: 'scratch', emptyDir: {} });
});
