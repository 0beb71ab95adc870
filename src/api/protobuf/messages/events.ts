// Protobuf message descriptions of events (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('events.v1', {
  Event: { metadata: '1 !ObjectMeta', eventTime: '2 !MicroTime', series: '3 *EventSeries', reportingController: '4 string', reportingInstance: '5 string', action: '6 string', reason: '7 string', regarding: '8 core.v1.ObjectReference', related: '9 *core.v1.ObjectReference', note: '10 string', type: '11 string', deprecatedSource: '12 core.v1.EventSource', deprecatedFirstTimestamp: '13 Time', deprecatedLastTimestamp: '14 Time', deprecatedCount: '15 int32' },
  EventList: { metadata: '1 ListMeta', items: '2 ![]Event' },
  EventSeries: { count: '1 !int32', lastObservedTime: '2 !MicroTime' },
});

