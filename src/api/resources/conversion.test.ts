import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';

void test('events.k8s.io/v1 events are stored as core/v1 events and come back unchanged', () => {
  const c = builtinCatalog();
  const def = c.lookup('events.k8s.io', 'v1', 'events')!;
  const conv = c.converter(def)!;
  const ev: KObject = {
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' },
    eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'ctl', reportingInstance: 'i', action: 'A', reason: 'R',
    regarding: { kind: 'Pod', name: 'p' }, note: 'hello', type: 'Normal', deprecatedCount: 2, deprecatedSource: { component: 'x' },
  };
  const stored = conv.toStorage(ev);
  assert.equal(stored.apiVersion, 'v1');
  assert.deepEqual(stored['involvedObject'], { kind: 'Pod', name: 'p' });
  assert.equal(stored['message'], 'hello');
  assert.equal(stored['reportingComponent'], 'ctl');
  assert.equal(stored['count'], 2);
  assert.equal(stored['note'], undefined);
  assert.deepEqual(conv.fromStorage(stored), ev);
  assert.equal(c.converter(c.lookup('', 'v1', 'events')!), undefined);
  // Field selectors of events.k8s.io read the stored (core) fields.
  assert.equal(def.selectableFields!['regarding.name']!(stored), 'p');
  assert.equal(def.selectableFields!['reportingController']!(stored), 'ctl');
});

void test('autoscaling/v1 HPAs round-trip through the v2 storage version', () => {
  const c = builtinCatalog();
  const conv = c.converter(c.lookup('autoscaling', 'v1', 'horizontalpodautoscalers')!)!;
  const v1: KObject = {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'ns' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
    status: { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 },
  };
  const v2 = conv.toStorage(v1);
  assert.equal(v2.apiVersion, 'autoscaling/v2');
  assert.deepEqual((v2['spec'] as Record<string, unknown>)['metrics'], [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  // kube keeps the raw status metric (value and utilization) in an annotation even when it maps to the CPU figure.
  assert.deepEqual(conv.fromStorage(v2), {
    ...v1, metadata: { ...v1.metadata, annotations: { 'autoscaling.alpha.kubernetes.io/current-metrics': '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"0"}}]' } },
  });
  // …and reading it back gives the zero Quantity v1 cannot leave out (currentAverageValue is not a pointer there).
  const again = conv.toStorage(conv.fromStorage(v2)) as unknown as { status: { currentMetrics: unknown } };
  assert.deepEqual(again.status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '0', averageUtilization: 40 } } }]);
  // v2-only content survives a v1 read-modify-write in annotations, as kube does.
  const rich: KObject = { ...v2, spec: { ...(v2['spec'] as object), metrics: [
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
  ] } };
  const asV1 = conv.fromStorage(rich);
  assert.equal(asV1.metadata.annotations?.['autoscaling.alpha.kubernetes.io/metrics'], '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]');
  // Written back through v1, the annotation's metrics come first and the CPU target last, as in kube.
  const metrics = (rich['spec'] as { metrics: unknown[] }).metrics;
  assert.deepEqual(conv.toStorage(asV1)['spec'], { ...(rich['spec'] as object), metrics: [metrics[1], metrics[0]] });
});
