import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import {
  HPA_BEHAVIOR_ANNOTATION, HPA_CONDITIONS_ANNOTATION, HPA_CURRENT_METRICS_ANNOTATION, HPA_METRICS_ANNOTATION, hpaV1ToV2, hpaV2ToV1,
} from './hpa-conversion.ts';

type J = Record<string, any>;
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

/** A defaulted autoscaling/v2 HPA as kube stores it. */
function stored(): KObject {
  return {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'ns', annotations: { team: 'a' } },
    spec: {
      scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        { type: 'Pods', pods: { metric: { name: 'qps', selector: { matchLabels: { b: '1', a: '2' } } }, target: { type: 'AverageValue', averageValue: '1000m' } } },
        { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '2k' } } },
        { type: 'Object', object: { describedObject: { apiVersion: 'v1', kind: 'Service', name: 's' }, metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '5' } } },
      ],
      behavior: {
        scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
      },
    },
    status: {
      currentReplicas: 2, desiredReplicas: 2,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '100m', averageUtilization: 10 } } }],
      conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'ReadyForNewScale', message: 'a<b & c' }],
    },
  };
}

void test('v2 → v1: the CPU target in the spec, everything else in kube\'s annotations, byte for byte', () => {
  const v1 = hpaV2ToV1(stored());
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.deepEqual(v1['spec'], { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 });
  assert.deepEqual(v1['status'], { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 10 });
  const a = v1.metadata.annotations!;
  assert.equal(a['team'], 'a');
  // v1 MetricSpecs: v1 field names, canonical quantities, sorted selector labels, a zero targetValue written out.
  assert.equal(a[HPA_METRICS_ANNOTATION], '['
    + '{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"1","selector":{"matchLabels":{"a":"2","b":"1"}}}},'
    + '{"type":"External","external":{"metricName":"queue","targetValue":"2k"}},'
    + '{"type":"Object","object":{"target":{"kind":"Service","name":"s","apiVersion":"v1"},"metricName":"rps","targetValue":"0","averageValue":"5"}}]');
  // The internal Go type has no json tags: Go field names, nil pointers as null.
  assert.equal(a[HPA_BEHAVIOR_ANNOTATION], '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},'
    + '{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max",'
    + '"Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":60}],"Tolerance":null}}');
  assert.equal(a[HPA_CURRENT_METRICS_ANNOTATION], '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":10,"currentAverageValue":"100m"}}]');
  // Go's encoder escapes <, > and & in strings.
  assert.equal(a[HPA_CONDITIONS_ANNOTATION], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z","reason":"ReadyForNewScale","message":"a\\u003cb \\u0026 c"}]');
});

void test('v2 → v1: round-trip annotations already on the object are replaced, never shown twice', () => {
  const o = stored();
  o.metadata.annotations = { [HPA_METRICS_ANNOTATION]: 'stale', [HPA_BEHAVIOR_ANNOTATION]: 'stale' };
  (o['spec'] as J)['metrics'] = [(o['spec'] as J)['metrics'][0]];
  delete (o['spec'] as J)['behavior'];
  o['status'] = { currentReplicas: 0, desiredReplicas: 0 };
  assert.equal(hpaV2ToV1(o).metadata.annotations, undefined);
});

void test('v1 → v2: annotations restore the v2 fields; keys match case-insensitively; the annotations are dropped', () => {
  const v1: KObject = {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: {
      name: 'h', annotations: {
        keep: 'x',
        [HPA_METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"metricname":"qps","targetAverageValue":"10"}}]',
        [HPA_BEHAVIOR_ANNOTATION]: '{"scaleDown":{"stabilizationWindowSeconds":30,"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}]}}',
        [HPA_CURRENT_METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"3"}}]',
        [HPA_CONDITIONS_ANNOTATION]: '[{"type":"ScalingActive","status":"False","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"X"}]',
      },
    },
    spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    status: { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 20 },
  };
  const v2 = hpaV1ToV2(v1);
  assert.deepEqual(v2.metadata.annotations, { keep: 'x' });
  assert.deepEqual(v2['spec'], {
    scaleTargetRef: ref, maxReplicas: 3,
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 30, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } },
  });
  assert.deepEqual(v2['status'], {
    currentReplicas: 1, desiredReplicas: 1,
    currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '3' } } }],
    conditions: [{ type: 'ScalingActive', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'X' }],
  });
});

void test('v1 → v2: no metric at all is kube\'s implicit 80% CPU; undecodable annotations are ignored', () => {
  const v2 = hpaV1ToV2({
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', annotations: { [HPA_METRICS_ANNOTATION]: '{not json', [HPA_BEHAVIOR_ANNOTATION]: '{"ScaleUp":{"Policies":"many"}}' } },
    spec: { scaleTargetRef: ref, maxReplicas: 3 },
  });
  assert.deepEqual(v2['spec'], { scaleTargetRef: ref, maxReplicas: 3, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] });
  assert.equal(v2.metadata.annotations, undefined);
  // An empty behavior (both directions nil) is no behavior.
  const empty = hpaV1ToV2({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', annotations: { [HPA_BEHAVIOR_ANNOTATION]: '{}' } }, spec: { scaleTargetRef: ref, maxReplicas: 1 } });
  assert.equal((empty['spec'] as J)['behavior'], undefined);
});
