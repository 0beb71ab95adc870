import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, list } from './shared/common.ts';

const docs = {
  PriorityClass: {
    $: 'Maps a priority class name to an integer priority; pods naming it in priorityClassName get that priority, which orders scheduling and preemption.',
    metadata: CLUSTER_OBJECT_METADATA,
    value: 'The priority; higher is more important. At most 1000000000 for user classes, higher values being reserved for system classes. Required; immutable.',
    globalDefault: 'Whether pods that name no priority class get this one; at most one class may be the default. Without one, such pods get priority 0.',
    description: 'Free text saying when to use this class.',
    preemptionPolicy: 'Whether pods of this class may evict lower-priority pods to be scheduled: PreemptLowerPriority or Never. Defaults to PreemptLowerPriority; immutable.',
  },
  PriorityClassList: list('PriorityClass', 'PriorityClasses'),
};

defineDocs('scheduling.v1', docs);
export default docs;
