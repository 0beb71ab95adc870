// validateHorizontalPodAutoscalerSpec / validateMetricSpec / validateMetricTarget / validateBehavior
// (pkg/apis/autoscaling/validation/validation.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateHorizontalPodAutoscaler } from './autoscaling.ts';
import type { J } from './util.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const hpa = (spec: J): J => ({ metadata: { name: 'h', namespace: 'd' }, spec: { scaleTargetRef: ref, ...spec } });

const cases: [string, J, string[]][] = [
  ['valid v2', { minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] }, []],
  ['replicas', { minReplicas: 0, maxReplicas: 0 }, [
    'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    'spec.maxReplicas: Invalid value: 0: must be greater than 0',
  ]],
  ['max below min', { minReplicas: 3, maxReplicas: 2 }, ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']],
  ['scale target', { maxReplicas: 1, scaleTargetRef: { kind: '', name: 'a/b' } }, [
    'spec.scaleTargetRef.kind: Required value',
    `spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`,
  ]],
  ['metric type', { maxReplicas: 1, metrics: [{ type: 'Magic' }] }, [
    'spec.metrics[0].type: Unsupported value: "Magic": supported values: "Object", "Pods", "Resource", "External", "ContainerResource"',
    'spec.metrics[0].type: Unsupported value: "Magic": supported values: "Object", "Pods", "Resource", "External", "ContainerResource"',
  ]],
  ['resource target', { maxReplicas: 1, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } }] }, [
    'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
  ]],
  ['source mismatch', { maxReplicas: 1, metrics: [{ type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] }, [
    'spec.metrics[0].pods: Required value: must populate information for the given metric source',
  ]],
  ['v1 target', { maxReplicas: 2, targetCPUUtilizationPercentage: 0 }, ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']],
  ['behavior', { maxReplicas: 2, behavior: { scaleDown: { policies: [{ type: 'Pods', value: 0, periodSeconds: 2000 }] } } }, [
    'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
    'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800',
  ]],
];
for (const [name, spec, want] of cases) test(`hpa: ${name}`, () => assert.deepEqual(validateHorizontalPodAutoscaler(hpa(spec)).map(String), want));
