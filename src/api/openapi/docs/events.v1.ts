import { defineDocs } from './define.ts';
import { list } from './shared/common.ts';

const docs = {
  Event: {
    $: 'A report of something that happened to an object, such as a scheduling failure or an image pull; the same events as core v1 Event, with renamed fields. Kept for a limited time (one hour by default).',
    metadata: 'Standard object metadata; the namespace is that of the regarding object, or default for cluster-scoped ones.',
    eventTime: 'When the event first happened, with microsecond precision. Required.',
    series: 'For repeated events: how often it happened and when last; unset for a single occurrence.',
    reportingController: 'Name of the component that emitted the event, such as kubernetes.io/kubelet; required for new events, at most 128 characters.',
    reportingInstance: 'Identity of the emitting component\'s instance, such as the kubelet\'s node name; required for new events, at most 128 characters.',
    action: 'What was done or failed, in CamelCase, such as Binding or Pulling; required for new events, at most 128 characters.',
    reason: 'Why the action was taken, in CamelCase, such as FailedScheduling; required for new events, at most 128 characters.',
    regarding: 'The object the event is about, such as the Pod that could not be scheduled.',
    related: 'A second object involved, such as the Node a pod was bound to.',
    note: 'Human-readable description of what happened, at most 1 kB.',
    type: 'Normal or Warning; required for new events.',
    deprecatedSource: 'Component and host that emitted the event, from core v1 Event; kept for compatibility.',
    deprecatedFirstTimestamp: 'First occurrence, from core v1 Event; kept for compatibility.',
    deprecatedLastTimestamp: 'Latest occurrence, from core v1 Event; kept for compatibility.',
    deprecatedCount: 'Number of occurrences, from core v1 Event; kept for compatibility.',
  },
  EventList: list('Event'),
  EventSeries: {
    $: 'Repeated occurrences of the same event, counted instead of recorded one by one.',
    count: 'Number of occurrences so far. Required.',
    lastObservedTime: 'When the event last happened (microsecond precision). Required.',
  },
};

defineDocs('events.v1', docs);
export default docs;
