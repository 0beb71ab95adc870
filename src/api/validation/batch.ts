/**
 * batch/v1 Jobs and CronJobs (pkg/apis/batch/validation/validation.go: ValidateJob, validateJobSpec,
 * validatePodTemplateSpec (restartPolicy OnFailure|Never), ValidateJobSpecUpdate, ValidateCronJobCreate/Update,
 * validateScheduleFormat, validateTimeZone, validateConcurrencyPolicy, ValidateJobTemplateSpec).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { validatePodTemplateSpec } from './core-pod.ts';
import { cronScheduleError, timeZoneExists } from './cron.ts';
import { isDNS1123Label } from '../../machinery/validation/names.ts';
import { GO_NULL, goImmutable, goInvalid, goLabelSelector, goMap } from './go-render.ts';
import { validateAnnotations } from './object-meta.ts';
import {
  type J, immutable, validateLabels, isSet, nonNegative, obj, selectorMatches, semanticEqual, str, strMap, validateLabelSelector,
} from './util.ts';

const MAX_PARALLELISM_INDEXED = 100000;
const CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';

/** validateJobSpec + the selector rules of ValidateJobSpec; `path` is where the JobSpec sits. */
export function validateJobSpec(spec: unknown, path: string): FieldError[] {
  const s = obj(spec);
  const errs: FieldError[] = [];
  for (const k of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    if (isSet(s[k])) errs.push(...nonNegative(s[k], `${path}.${k}`));
  }
  const mode = s['completionMode'];
  if (isSet(s['backoffLimitPerIndex'])) {
    errs.push(...nonNegative(s['backoffLimitPerIndex'], `${path}.backoffLimitPerIndex`));
    if (mode !== 'Indexed') errs.push(field.forbidden(`${path}.backoffLimitPerIndex`, 'requires indexed completion mode'));
  }
  if (isSet(mode)) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(field.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (!isSet(s['completions'])) errs.push(field.required(`${path}.completions`, 'when completion mode is Indexed'));
      const par = s['parallelism'];
      if (typeof par === 'number' && par > MAX_PARALLELISM_INDEXED) {
        errs.push(field.invalid(`${path}.parallelism`, par, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
      }
    }
  }
  const prp = s['podReplacementPolicy'];
  if (isSet(prp) && prp !== 'TerminatingOrFailed' && prp !== 'Failed') {
    errs.push(field.notSupported(`${path}.podReplacementPolicy`, prp, ['Failed', 'TerminatingOrFailed']));
  }
  const template = obj(s['template']);
  errs.push(...validatePodTemplateSpec(template, `${path}.template`));
  const rp = str(obj(template['spec'])['restartPolicy']) || 'Always';
  if (rp !== 'OnFailure' && rp !== 'Never') {
    errs.push(field.notSupported(`${path}.template.spec.restartPolicy`, rp, ['OnFailure', 'Never']));
  } else if (rp === 'OnFailure' && isSet(s['podFailurePolicy'])) {
    errs.push(field.invalid(`${path}.template.spec.restartPolicy`, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return errs;
}

/** ValidateJob minus ObjectMeta: the generated selector, selector syntax, selector matches the template. */
export function validateJob(job: J): FieldError[] {
  const spec = obj(job['spec']);
  const meta = obj(job['metadata']);
  const errs: FieldError[] = [];
  const labels = strMap(obj(obj(spec['template'])['metadata'])['labels']);
  if (spec['manualSelector'] !== true && isSet(spec['selector'])) {
    const uid = str(meta['uid']);
    if (!uid) errs.push(field.required('metadata.uid'));
    for (const [key, want] of [['controller-uid', uid], ['job-name', str(meta['name'])], [CONTROLLER_UID, uid], ['batch.kubernetes.io/job-name', str(meta['name'])]] as const) {
      if (!(key in labels)) errs.push(field.required(`spec.template.metadata.labels[${key}]`, `must be '${want}'`));
      else if (labels[key] !== want) errs.push(goInvalid(`spec.template.metadata.labels[${key}]`, goMap(labels), `must be '${want}'`));
    }
    const expected = { 'controller-uid': uid, 'job-name': str(meta['name']), [CONTROLLER_UID]: uid, 'batch.kubernetes.io/job-name': str(meta['name']) };
    if (!selectorMatches(spec['selector'], expected)) {
      errs.push(goInvalid('spec.selector', goLabelSelector(spec['selector']), '`selector` not auto-generated'));
    }
  }
  errs.push(...validateJobSpec(spec, 'spec'));
  const completions = spec['completions'];
  if (spec['completionMode'] === 'Indexed' && typeof completions === 'number' && completions > 0) {
    const hostname = `${str(meta['name'])}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(field.invalid('metadata.name', str(meta['name']), `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  if (!isSet(spec['selector'])) errs.push(field.required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(spec['selector'], 'spec.selector'));
    if (!selectorMatches(spec['selector'], labels)) {
      errs.push(goInvalid('spec.template.metadata.labels', goMap(obj(obj(spec['template'])['metadata'])['labels']), '`selector` does not match template `labels`'));
    }
  }
  return errs;
}

/** ValidateJobSpecUpdate: completions (unless elastic Indexed), selector, template, completionMode are fixed. */
export function validateJobUpdate(job: J, old: J): FieldError[] {
  const spec = obj(job['spec']);
  const oldSpec = obj(old['spec']);
  const errs = validateJob(job);
  const elastic = spec['completionMode'] === 'Indexed' && oldSpec['completionMode'] === 'Indexed'
    && spec['completions'] === spec['parallelism'] && oldSpec['completions'] === oldSpec['parallelism'];
  if (!elastic) errs.push(...immutable(spec['completions'], oldSpec['completions'], 'spec.completions'));
  errs.push(...goImmutable(!semanticEqual(spec['selector'], oldSpec['selector']), 'spec.selector', isSet(spec['selector']) ? goLabelSelector(spec['selector']) : GO_NULL));
  // A suspended job that never started may change its scheduling directives (mutable scheduling directives).
  const t = structuredClone(obj(spec['template']));
  const ot = obj(oldSpec['template']);
  if (spec['suspend'] === true && old['status'] !== undefined && !isSet(obj(old['status'])['startTime'])) {
    const ts = obj(t['spec']);
    const ots = obj(ot['spec']);
    for (const k of ['nodeSelector', 'affinity', 'tolerations', 'schedulingGates']) ts[k] = ots[k];
    t['metadata'] = { ...obj(t['metadata']), labels: obj(ot['metadata'])['labels'], annotations: obj(ot['metadata'])['annotations'] };
    t['spec'] = ts;
  }
  if (!semanticEqual(t, ot)) errs.push(...immutable(spec['template'], oldSpec['template'], 'spec.template'));
  errs.push(...immutable(spec['completionMode'], oldSpec['completionMode'], 'spec.completionMode'));
  errs.push(...immutable(spec['podFailurePolicy'], oldSpec['podFailurePolicy'], 'spec.podFailurePolicy'));
  errs.push(...immutable(spec['backoffLimitPerIndex'], oldSpec['backoffLimitPerIndex'], 'spec.backoffLimitPerIndex'));
  return errs;
}

function validateTimeZone(tz: unknown, path: string): FieldError[] {
  if (!isSet(tz)) return [];
  const v = str(tz);
  if (v.length === 0) return [field.invalid(path, v, 'timeZone must be nil or non-empty string')];
  for (const part of v.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part)) {
      return [field.invalid(path, v, `unknown time zone ${v}`)];
    }
  }
  const errs: FieldError[] = [];
  if (v.toLowerCase() === 'local') errs.push(field.invalid(path, v, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!timeZoneExists(v)) errs.push(field.invalid(path, v, `unknown time zone ${v}`));
  return errs;
}

/** validateCronJobSpec; `old` allows TZ in the schedule only when the stored one already had it. */
function validateCronJobSpec(spec: J, oldSpec: J | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = str(spec['schedule']);
  if (!schedule) errs.push(field.required('spec.schedule'));
  else {
    const allowTZ = oldSpec !== undefined && str(oldSpec['schedule']).includes('TZ');
    const e = cronScheduleError(schedule);
    if (e) errs.push(field.invalid('spec.schedule', schedule, e));
    if (allowTZ && schedule.includes('TZ') && isSet(spec['timeZone'])) {
      errs.push(field.invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    } else if (!allowTZ && schedule.includes('TZ')) {
      errs.push(field.invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    }
  }
  if (isSet(spec['startingDeadlineSeconds'])) errs.push(...nonNegative(spec['startingDeadlineSeconds'], 'spec.startingDeadlineSeconds'));
  if (oldSpec === undefined || oldSpec['timeZone'] !== spec['timeZone']) errs.push(...validateTimeZone(spec['timeZone'], 'spec.timeZone'));
  const cp = str(spec['concurrencyPolicy']);
  if (cp && !['Allow', 'Forbid', 'Replace'].includes(cp)) errs.push(field.notSupported('spec.concurrencyPolicy', cp, ['Allow', 'Forbid', 'Replace']));
  // ValidateJobTemplateSpec: the job spec plus template metadata labels/annotations; selector not validated here.
  const jt = obj(spec['jobTemplate']);
  const jtMeta = obj(jt['metadata']);
  errs.push(...validateLabels(jtMeta['labels'], 'spec.jobTemplate.metadata.labels'));
  errs.push(...validateAnnotations(jtMeta['annotations'], 'spec.jobTemplate.metadata.annotations'));
  errs.push(...validateJobSpec(jt['spec'], 'spec.jobTemplate.spec'));
  const jspec = obj(jt['spec']);
  if (isSet(jspec['selector'])) errs.push(goInvalid('spec.jobTemplate.spec.selector', goLabelSelector(jspec['selector']), '`selector` will be auto-generated'));
  if (jspec['manualSelector'] === true) errs.push(field.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  for (const k of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) if (isSet(spec[k])) errs.push(...nonNegative(spec[k], `spec.${k}`));
  return errs;
}

export function validateCronJob(cj: J): FieldError[] {
  const errs = validateCronJobSpec(obj(cj['spec']), undefined);
  const name = str(obj(cj['metadata'])['name']);
  // The controller appends an 11-character suffix to make job names (63 max).
  if (name.length > 52) errs.push(field.invalid('metadata.name', name, 'must be no more than 52 characters'));
  return errs;
}

export function validateCronJobUpdate(cj: J, old: J): FieldError[] {
  return validateCronJobSpec(obj(cj['spec']), obj(old['spec']));
}
