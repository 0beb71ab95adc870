// ValidateJob, ValidateJobSpecUpdate, ValidateCronJobCreate/Update (pkg/apis/batch/validation/validation.go)
// and robfig/cron/v3 ParseStandard messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCronJob, validateCronJobUpdate, validateJob, validateJobUpdate } from './batch.ts';
import { cronScheduleError } from './cron.ts';
import type { J } from './util.ts';

const UID = '1234';
function podTemplate(restartPolicy = 'Never', labels: Record<string, string> = {}): J {
  return { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy, dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 } };
}
function job(mut: (s: J) => void = () => {}): J {
  const labels = { 'batch.kubernetes.io/controller-uid': UID, 'batch.kubernetes.io/job-name': 'j', 'controller-uid': UID, 'job-name': 'j' };
  const spec: J = { parallelism: 1, completions: 1, backoffLimit: 6, completionMode: 'NonIndexed', suspend: false, manualSelector: false,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': UID } }, template: podTemplate('Never', labels) };
  mut(spec);
  return { metadata: { name: 'j', namespace: 'default', uid: UID }, spec };
}

test('job: valid, restartPolicy, negative counts', () => {
  assert.deepEqual(validateJob(job()).map(String), []);
  const bad = job((s) => {
    s['parallelism'] = -1;
    s['backoffLimit'] = -2;
    ((s['template'] as J)['spec'] as J)['restartPolicy'] = 'Always';
  });
  assert.deepEqual(validateJob(bad).map(String), [
    'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
    'spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0',
    'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
  ]);
});

test('job: a generated selector must be the generated one', () => {
  const j = job((s) => { s['selector'] = { matchLabels: { a: 'b' } }; });
  assert.deepEqual(validateJob(j).map(String), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
    'spec.template.metadata.labels: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"1234", "batch.kubernetes.io/job-name":"j", "controller-uid":"1234", "job-name":"j"}: `selector` does not match template `labels`',
  ]);
});

test('job: manual selector must match; indexed needs completions', () => {
  const manual = job((s) => { s['manualSelector'] = true; s['selector'] = { matchLabels: { a: 'b' } }; s['template'] = podTemplate('Never', { a: 'c' }); });
  assert.deepEqual(validateJob(manual).map(String), ['spec.template.metadata.labels: Invalid value: map[string]string{"a":"c"}: `selector` does not match template `labels`']);
  const indexed = job((s) => { s['completionMode'] = 'Indexed'; delete s['completions']; });
  assert.deepEqual(validateJob(indexed).map(String), ['spec.completions: Required value: when completion mode is Indexed']);
});

test('job update: template and selector are immutable', () => {
  const next = job((s) => { ((s['template'] as J)['spec'] as J)['containers'] = [{ name: 'c', image: 'alpine' }]; });
  const errs = validateJobUpdate(next, job()).map(String);
  assert.equal(errs.length, 1);
  assert.match(errs[0]!, /^spec\.template: Invalid value: \{.*\}: field is immutable$/);
  const sel = job((s) => { s['completions'] = 2; });
  assert.deepEqual(validateJobUpdate(sel, job()).map(String), ['spec.completions: Invalid value: 2: field is immutable']);
});

const cronCases: [string, string | undefined][] = [
  ['*/5 * * * *', undefined], ['@hourly', undefined], ['@every 1h30m', undefined], ['0 0 * jan mon-fri', undefined],
  ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
  ['60 * * * *', 'end of range (60) above maximum (59): 60'],
  ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
  ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
  ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
  ['*/0 * * * *', 'step of range should be a positive number: */0'],
  ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
  ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
  ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
  ['', 'empty spec string'],
];
for (const [spec, want] of cronCases) test(`cron: ${JSON.stringify(spec)}`, () => assert.equal(cronScheduleError(spec), want));

function cron(mut: (s: J) => void = () => {}, name = 'c'): J {
  const spec: J = { schedule: '*/1 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1,
    jobTemplate: { metadata: {}, spec: { template: podTemplate('OnFailure') } } };
  mut(spec);
  return { metadata: { name, namespace: 'default' }, spec };
}

test('cronjob: schedule, TZ, concurrencyPolicy, time zone, name length', () => {
  assert.deepEqual(validateCronJob(cron()).map(String), []);
  assert.deepEqual(validateCronJob(cron((s) => { s['schedule'] = '61 * * * *'; })).map(String), [
    'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
  ]);
  assert.deepEqual(validateCronJob(cron((s) => { s['schedule'] = 'TZ=UTC 0 * * * *'; })).map(String), [
    'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
  ]);
  assert.deepEqual(validateCronJob(cron((s) => { s['concurrencyPolicy'] = 'Sometimes'; })).map(String), [
    'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
  ]);
  assert.deepEqual(validateCronJob(cron((s) => { s['timeZone'] = 'Mars/Olympus'; })).map(String), [
    'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
  ]);
  assert.deepEqual(validateCronJob(cron((s) => { s['timeZone'] = 'Europe/Berlin'; })).map(String), []);
  assert.deepEqual(validateCronJob(cron(() => {}, 'c'.repeat(53))).map(String), [`metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`]);
  assert.deepEqual(validateCronJob(cron((s) => { ((s['jobTemplate'] as J)['spec'] as J)['template'] = podTemplate('Always'); })).map(String), [
    'spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
  ]);
});

test('cronjob update: TZ kept only if it was there', () => {
  const old = cron((s) => { s['schedule'] = 'TZ=UTC 0 * * * *'; });
  assert.deepEqual(validateCronJobUpdate(old, old).map(String), []);
});
