/**
 * Micro-benchmark for issue 5's targets (run: `node --import tsx src/apply/ssa/testing/apply.bench.ts`):
 * a no-op server-side apply of a typical Deployment (target ≤ 1 ms) and a strategic merge patch of a pod spec
 * (target ≤ 200 µs). Prints averages after warm-up; not a test (no timed assertions).
 */
import { apply } from '../index.ts';
import { applyStrategicMergePatch } from '../../strategic-merge.ts';
import { rootNodeFor } from '../../schema-view.ts';
const cfg = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], resources: { requests: { cpu: '100m', memory: '64Mi' } }, readinessProbe: { httpGet: { path: '/', port: 80 } } }] } } } };
const first = apply({ live: undefined, applied: cfg, manager: 'kubectl', force: false, apiVersion: 'apps/v1', now: '2026-01-01T00:00:00Z' });
const live: Record<string, any> = structuredClone(first.object);
live.metadata.uid = 'u'; live.metadata.resourceVersion = '5'; live.metadata.generation = 1; live.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
Object.assign(live.spec, { progressDeadlineSeconds: 600, revisionHistoryLimit: 10, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } });
Object.assign(live.spec.template.spec, { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' });
Object.assign(live.spec.template.spec.containers[0], { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
live.status = { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, conditions: [{ type: 'Available', status: 'True', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MinimumReplicasAvailable', message: 'ok' }] };
const N = 3000;
for (let i = 0; i < 300; i++) apply({ live, applied: cfg, manager: 'kubectl', force: false, apiVersion: 'apps/v1', now: '2026-01-01T00:00:00Z' });
let t0 = performance.now();
for (let i = 0; i < N; i++) apply({ live, applied: cfg, manager: 'kubectl', force: false, apiVersion: 'apps/v1', now: '2026-01-01T00:00:00Z' });
console.log('ssa no-op apply ms', ((performance.now() - t0) / N).toFixed(3));
const podRoot = rootNodeFor('v1', 'Pod')!;
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: live.spec.template.spec };
const patch = { spec: { containers: [{ name: 'web', image: 'nginx:1.28', env: [{ name: 'C', value: '3' }] }] } };
for (let i = 0; i < 1000; i++) applyStrategicMergePatch(pod, patch, podRoot);
t0 = performance.now();
for (let i = 0; i < N * 3; i++) applyStrategicMergePatch(pod, patch, podRoot);
console.log('smp pod spec us', ((performance.now() - t0) / (N * 3) * 1000).toFixed(1));
