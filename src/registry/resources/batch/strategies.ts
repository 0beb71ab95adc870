/**
 * batch/v1 strategies and defaults (k8s.io/kubernetes/pkg/registry/batch/job/strategy.go, apis/batch/v1
 * defaults): jobs get their controller-uid selector and pod labels on create unless manualSelector is set;
 * a Job without labels takes its pod template's (SetDefaults_Job, so on every write: removing all of a Job's
 * labels puts the template's back).
 */
import type { KObject } from '../../../machinery/objects.ts';
import type { RegistryStrategy } from '../../strategy.ts';
import { statusStrategy } from '../strategy-kit.ts';
import { podTemplateConversion, podTemplateDefaults } from '../core/defaults.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
function setIfMissing(o: J, key: string, value: unknown): void {
  if (o[key] === undefined) o[key] = value;
}

export function jobSpecDefaults(s: unknown): void {
  if (!isObj(s)) return;
  if (s['completions'] === undefined && s['parallelism'] === undefined) {
    s['completions'] = 1;
    s['parallelism'] = 1;
  }
  setIfMissing(s, 'parallelism', 1);
  setIfMissing(s, 'backoffLimit', s['backoffLimitPerIndex'] !== undefined ? 2147483647 : 6);
  setIfMissing(s, 'completionMode', 'NonIndexed');
  setIfMissing(s, 'suspend', false);
  setIfMissing(s, 'podReplacementPolicy', s['podFailurePolicy'] !== undefined ? 'Failed' : 'TerminatingOrFailed');
  podTemplateDefaults(s['template']);
}

/** kube's generateSelector: controller-uid and job-name labels on the template, selector on the uid. */
function generateSelector(job: KObject): void {
  const spec = isObj(job['spec']) ? job['spec'] : undefined;
  if (!spec || spec['manualSelector'] === true) return;
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  const template = isObj(spec['template']) ? spec['template'] : (spec['template'] = {} as J);
  const tmeta = isObj((template as J)['metadata']) ? (template as J)['metadata'] as J : ((template as J)['metadata'] = {} as J) as J;
  const labels = isObj(tmeta['labels']) ? tmeta['labels'] : (tmeta['labels'] = {} as J);
  Object.assign(labels as J, {
    'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name,
  });
  if (spec['selector'] === undefined) spec['selector'] = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  spec['manualSelector'] = spec['manualSelector'] ?? false;
}

/** SetDefaults_Job's label rule: a Job with no labels gets its pod template's labels (when it has any). */
function jobLabelDefaults(job: KObject): void {
  const spec = isObj(job['spec']) ? job['spec'] : undefined;
  const template = spec && isObj(spec['template']) ? spec['template'] : undefined;
  const tlabels = template && isObj(template['metadata']) && isObj(template['metadata']['labels']) ? template['metadata']['labels'] : undefined;
  if (!tlabels || !job.metadata) return;
  if (!job.metadata.labels || Object.keys(job.metadata.labels).length === 0) job.metadata.labels = { ...(tlabels as Record<string, string>) };
}

const jobTemplate = (o: KObject): unknown => (isObj(o['spec']) ? o['spec']['template'] : undefined);

function jobTemplateLabels(o: KObject): Record<string, string> {
  const t = jobTemplate(o);
  const labels = isObj(t) && isObj(t['metadata']) ? t['metadata']['labels'] : undefined;
  return isObj(labels) ? labels as Record<string, string> : {};
}

function sameLabels(a: Record<string, string> | undefined, b: J): boolean {
  if (!a) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

export const jobStrategy: RegistryStrategy = statusStrategy({
  status: true, generation: true,
  onCreate: (obj) => {
    // kube's defaulting gives a label-less Job its template's label map itself (not a copy), so the selector labels
    // generateSelector adds to the template show on the Job too. The copy made by jobLabelDefaults is matched here.
    const template = jobTemplate(obj);
    const tlabels = isObj(template) && isObj(template['metadata']) ? template['metadata']['labels'] : undefined;
    const shared = isObj(tlabels) && sameLabels(obj.metadata.labels, tlabels);
    generateSelector(obj);
    if (shared) obj.metadata.labels = { ...(jobTemplateLabels(obj)) };
    podTemplateConversion(jobTemplate(obj));
  },
  onUpdate: (obj) => podTemplateConversion(jobTemplate(obj)),
}, {
  defaults(obj) {
    jobSpecDefaults(obj['spec']);
    jobLabelDefaults(obj);
  },
});

const cronJobPodTemplate = (o: KObject): unknown => {
  const jt = isObj(o['spec']) && isObj(o['spec']['jobTemplate']) ? o['spec']['jobTemplate'] : undefined;
  return jt && isObj(jt['spec']) ? jt['spec']['template'] : undefined;
};

export const cronJobStrategy: RegistryStrategy = statusStrategy({
  status: true, generation: true,
  onCreate: (obj) => podTemplateConversion(cronJobPodTemplate(obj)),
  onUpdate: (obj) => podTemplateConversion(cronJobPodTemplate(obj)),
}, {
  defaults(obj) {
    const s = isObj(obj['spec']) ? obj['spec'] : undefined;
    if (!s) return;
    setIfMissing(s, 'concurrencyPolicy', 'Allow');
    setIfMissing(s, 'suspend', false);
    setIfMissing(s, 'successfulJobsHistoryLimit', 3);
    setIfMissing(s, 'failedJobsHistoryLimit', 1);
    // Only the embedded pod template is defaulted: a job template's JobSpec is defaulted when the Job is made.
    const jt = isObj(s['jobTemplate']) ? s['jobTemplate'] : undefined;
    if (jt) {
      const meta = isObj(jt['metadata']) ? jt['metadata'] : (jt['metadata'] = {} as J);
      setIfMissing(meta as J, 'creationTimestamp', null);
      if (isObj(jt['spec'])) podTemplateDefaults(jt['spec']['template']);
    }
  },
});

