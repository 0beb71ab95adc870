import { defineDocs } from './define.ts';
import { condition, list, OBJECT_METADATA } from './shared/common.ts';

const docs = {
  CronJob: {
    $: 'Creates Jobs on a repeating schedule written in cron syntax.',
    metadata: OBJECT_METADATA,
    spec: 'The schedule and the Job to create at each tick.',
    status: 'What the CronJob controller last observed: running Jobs and the latest run times; read-only.',
  },
  CronJobList: list('CronJob'),
  CronJobSpec: {
    $: 'The desired behaviour of a CronJob.',
    schedule: 'When to start Jobs, as a five-field cron expression (minute hour day-of-month month day-of-week) or a macro such as @hourly. Required.',
    timeZone: 'IANA time zone name (for example Europe/Paris) in which the schedule is read. Unset means whatever zone kube-controller-manager runs in.',
    startingDeadlineSeconds: 'How many seconds late a run may still start, for instance after the controller was down; a run that cannot start within it is skipped. Unset means no deadline.',
    concurrencyPolicy: 'What to do when a run is due while an earlier Job still runs: Allow (run both), Forbid (skip the new run) or Replace (stop the old Job). Defaults to Allow.',
    suspend: 'While true, no new runs start; Jobs already started are left alone. Defaults to false.',
    jobTemplate: 'The Job created for each run.',
    successfulJobsHistoryLimit: 'How many finished successful Jobs to keep. Defaults to 3; 0 keeps none.',
    failedJobsHistoryLimit: 'How many finished failed Jobs to keep. Defaults to 1; 0 keeps none.',
  },
  CronJobStatus: {
    $: 'The observed state of a CronJob.',
    active: 'References to the Jobs of this CronJob that are still running.',
    lastScheduleTime: 'When a Job was last started for this CronJob.',
    lastSuccessfulTime: 'When a Job of this CronJob last finished successfully.',
  },
  Job: {
    $: 'Runs pods until a given number of them finish successfully, retrying failures up to a limit.',
    metadata: OBJECT_METADATA,
    spec: 'The pods to run, how many must succeed and how failures are handled.',
    status: 'Progress of the Job as observed by the Job controller; read-only.',
  },
  JobCondition: {
    ...condition('a Job', 'One of Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet.'),
    lastProbeTime: 'When the controller last checked this condition (RFC 3339).',
  },
  JobList: list('Job'),
  JobSpec: {
    $: 'The desired behaviour of a Job.',
    parallelism: 'Most pods the Job runs at the same time; never more than the completions still missing. Defaults to 1; 0 pauses the Job.',
    completions: 'Number of pods that must succeed for the Job to be complete. Unset means any one success completes it once all pods end; defaults to 1 when parallelism is also unset.',
    activeDeadlineSeconds: 'Seconds since the Job started after which its pods are stopped and the Job fails with reason DeadlineExceeded; counted from startTime and reset by resuming a suspended Job. Must be positive.',
    podFailurePolicy: 'Rules that decide, from exit codes and pod conditions, whether a failed pod fails the Job, fails its index, is ignored or counts against backoffLimit. restartPolicy must be Never to use it.',
    successPolicy: 'Rules under which an Indexed Job is declared successful before all indexes succeed; when unset, every index must succeed. Immutable.',
    backoffLimit: 'Number of pod failures (retries) tolerated before the Job is marked Failed. Defaults to 6, or to the maximum int32 when backoffLimitPerIndex is set.',
    backoffLimitPerIndex: 'Indexed Jobs only: failures tolerated for each index before that index is marked failed, while other indexes go on. Immutable; requires restartPolicy Never.',
    maxFailedIndexes: 'With backoffLimitPerIndex: number of failed indexes after which the whole Job fails. At most 100000 and at most completions.',
    selector: 'Label query for the pods of this Job. Normally generated from the Job UID; set it yourself only with manualSelector.',
    manualSelector: 'True when the selector was written by hand instead of generated; then you must keep it unique. Defaults to false.',
    template: 'Pod template for the Job\'s pods; restartPolicy must be Never or OnFailure.',
    ttlSecondsAfterFinished: 'Seconds after the Job finishes (Complete or Failed) at which it and its pods are deleted automatically. Unset keeps it forever; 0 deletes it at once.',
    completionMode: 'NonIndexed (any completions successes finish the Job) or Indexed (each index 0 to completions-1 needs one success; pods get their index in an annotation and JOB_COMPLETION_INDEX). Defaults to NonIndexed.',
    suspend: 'While true, the controller creates no pods and deletes the running ones; setting it back to false resumes the Job and resets its deadline. Defaults to false.',
    podReplacementPolicy: 'When a replacement for a failed pod is made: TerminatingOrFailed (as soon as the old one starts terminating) or Failed (only once it has fully stopped). Defaults to Failed with a podFailurePolicy, else TerminatingOrFailed.',
    managedBy: 'Controller in charge of syncing this Job; the built-in Job controller acts only when it is unset or kubernetes.io/job-controller. At most 63 characters; immutable.',
  },
  JobStatus: {
    $: 'The observed progress of a Job.',
    conditions: 'Conditions of the Job, one per type; a finished Job has a Complete or Failed condition with status True.',
    startTime: 'When the Job controller started working on the Job, reset when a suspended Job resumes.',
    completionTime: 'When the Job finished successfully; unset for a Job that failed or still runs.',
    active: 'Number of pods that are pending or running and not being deleted.',
    succeeded: 'Count of the Job\'s pods that ended in phase Succeeded; it only grows.',
    failed: 'Count of the Job\'s pods that ended in phase Failed; it only grows.',
    terminating: 'Number of pods that have a deletionTimestamp but are still Pending or Running; tracked with the JobPodReplacementPolicy feature.',
    completedIndexes: 'Indexed Jobs: the indexes that succeeded, as a sorted, comma-separated list of numbers and ranges such as 1,3-5,7.',
    failedIndexes: 'With backoffLimitPerIndex: the indexes that exhausted their retries, in the same text form as completedIndexes.',
    uncountedTerminatedPods: 'UIDs of finished pods whose tracking finalizer the controller is removing, before it adds them to the succeeded and failed counts.',
    ready: 'Number of active pods whose Ready condition is True.',
  },
  JobTemplateSpec: {
    $: 'The Job that a CronJob creates at each run.',
    metadata: 'Labels, annotations and other metadata copied onto each created Job.',
    spec: 'The spec of each created Job.',
  },
  PodFailurePolicy: {
    $: 'How failed pods of a Job are judged, before backoffLimit is applied.',
    rules: 'Rules checked in order; the first one matching a failed pod decides, and a pod matching none counts against backoffLimit. At most 20.',
  },
  PodFailurePolicyOnExitCodesRequirement: {
    $: 'Matches a failed pod by the exit codes of its containers.',
    containerName: 'Only this container\'s exit code is checked; unset checks every container, init containers included.',
    operator: 'In (matches when an exit code is in values) or NotIn (matches when a container failed with a code outside values). Required.',
    values: 'The exit codes compared, at most 255 distinct values; 0 is not allowed with In.',
  },
  PodFailurePolicyOnPodConditionsPattern: {
    $: 'Matches a failed pod by one of its conditions.',
    type: 'Pod condition type to look for, such as DisruptionTarget. Required.',
    status: 'Status the condition must have. Defaults to True.',
  },
  PodFailurePolicyRule: {
    $: 'One rule of a pod failure policy: a match on exit codes or pod conditions, and what to do on a match.',
    action: 'FailJob (fail the whole Job), FailIndex (fail the pod\'s index, with backoffLimitPerIndex), Ignore (do not count the failure) or Count (count it against backoffLimit as usual). Required.',
    onExitCodes: 'Matches by container exit codes; exactly one of this and onPodConditions is set.',
    onPodConditions: 'Matches when the pod has any of these conditions; at most 20 patterns.',
  },
  SuccessPolicy: {
    $: 'When an Indexed Job counts as successful before all its indexes finish; met, the Job gets SuccessCriteriaMet and its remaining pods are stopped.',
    rules: 'Rules, any one of which is enough; between 1 and 20.',
  },
  SuccessPolicyRule: {
    $: 'One success criterion: a set of indexes, a count, or both.',
    succeededIndexes: 'Indexes that must all succeed, as numbers and ranges such as 0,2-4; each must be below completions.',
    succeededCount: 'How many indexes (within succeededIndexes when that is set) must succeed; positive and at most completions.',
  },
  UncountedTerminatedPods: {
    $: 'Pods that finished but are not yet reflected in the Job\'s counters.',
    succeeded: 'Pods that ended in Succeeded, by UID, not yet added to status.succeeded.',
    failed: 'Pods that ended in Failed, by UID, not yet added to status.failed.',
  },
};

defineDocs('batch.v1', docs);
export default docs;
