/** Table columns and field selectors for batch/v1 kinds (kube's printers.go). */
import type { KObject } from '../../../machinery/objects.ts';
import type { TableColumn } from '../../../api/types.ts';
import { DOCS } from '../docs.ts';
import { ageColumn, arr, col, get, humanDuration, nameColumn, num, rec, str, templateColumns, translateTimestampSince } from '../columns.ts';

function jobStatus(o: KObject): string {
  const conds = arr(get(o, 'status.conditions')).map(rec);
  const has = (t: string) => conds.some((c) => c['type'] === t && c['status'] === 'True');
  if (has('Failed')) return 'Failed';
  if (has('Complete')) return 'Complete';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (o.metadata.deletionTimestamp) return 'Terminating';
  return 'Running';
}

function jobCompletions(o: KObject): string {
  const succeeded = num(get(o, 'status.succeeded'));
  const completions = get(o, 'spec.completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = get(o, 'spec.parallelism');
  if (typeof parallelism === 'number' && parallelism > 1) return `${succeeded}/1 of ${parallelism}`;
  return `${succeeded}/1`;
}

function jobDuration(o: KObject): string {
  const start = str(get(o, 'status.startTime'));
  const end = str(get(o, 'status.completionTime'));
  if (!start) return '';
  if (!end) return humanDuration(Date.now() - Date.parse(start));
  return humanDuration(Date.parse(end) - Date.parse(start));
}

export const jobColumns: TableColumn[] = [
  nameColumn(),
  col('Status', 'string', DOCS.jobStatus, jobStatus),
  col('Completions', 'string', DOCS.jobSucceeded, jobCompletions),
  col('Duration', 'string', DOCS.jobDuration, jobDuration),
  ageColumn(),
  ...templateColumns(DOCS.jobSelector, 'spec.template.spec', 'spec.selector'),
];

export const cronJobColumns: TableColumn[] = [
  nameColumn(),
  col('Schedule', 'string', DOCS.cronSchedule, (o) => str(get(o, 'spec.schedule'))),
  col('Timezone', 'string', DOCS.cronTimeZone, (o) => str(get(o, 'spec.timeZone')) || '<none>'),
  col('Suspend', 'boolean', DOCS.cronSuspend, (o) => get(o, 'spec.suspend') === true),
  col('Active', 'integer', DOCS.cronActive, (o) => arr(get(o, 'status.active')).length),
  col('Last Schedule', 'string', DOCS.cronLastSchedule, (o) => (get(o, 'status.lastScheduleTime') ? translateTimestampSince(get(o, 'status.lastScheduleTime')) : '<none>')),
  ageColumn(),
  ...templateColumns(DOCS.jobSelector, 'spec.jobTemplate.spec.template.spec', 'spec.jobTemplate.spec.selector'),
];

export const jobSelectableFields = { 'status.successful': (o: KObject) => String(num(get(o, 'status.succeeded'))) };
