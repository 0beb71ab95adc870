/**
 * Events, core/v1 and events.k8s.io/v1 (pkg/apis/core/validation/events.go: ValidateEventCreate,
 * legacyValidateEvent, validateV1EventSeries, ValidateEventUpdate). Kube validates the internal Event, so
 * events.k8s.io/v1 fields are reported under their internal names: regarding → involvedObject,
 * note → message, deprecatedCount → count, deprecatedSource → source, deprecatedFirstTimestamp →
 * firstTimestamp, deprecatedLastTimestamp → lastTimestamp.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/names.ts';
import { type J, immutable, isSet, obj, semanticEqual, str } from './util.ts';
import { goImmutable, goQuote, goTime } from './go-render.ts';

const LIMIT_128 = 128;
const NOTE_LIMIT = 1024;

/** The internal Event view of either version. */
interface InternalEvent {
  namespace: string;
  involvedObject: J;
  reason: string;
  message: string;
  source: J;
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  count: unknown;
  type: string;
  eventTime: unknown;
  series: unknown;
  action: string;
  related: unknown;
  reportingController: string;
  reportingInstance: string;
}

function internal(e: J, eventsV1: boolean): InternalEvent {
  const meta = obj(e['metadata']);
  return {
    namespace: str(meta['namespace']),
    involvedObject: obj(eventsV1 ? e['regarding'] : e['involvedObject']),
    reason: str(e['reason']),
    message: str(eventsV1 ? e['note'] : e['message']),
    source: obj(eventsV1 ? e['deprecatedSource'] : e['source']),
    firstTimestamp: eventsV1 ? e['deprecatedFirstTimestamp'] : e['firstTimestamp'],
    lastTimestamp: eventsV1 ? e['deprecatedLastTimestamp'] : e['lastTimestamp'],
    count: eventsV1 ? e['deprecatedCount'] : e['count'],
    type: str(e['type']),
    eventTime: e['eventTime'],
    series: e['series'],
    action: str(e['action']),
    related: e['related'],
    reportingController: str(eventsV1 ? e['reportingController'] : e['reportingComponent']),
    reportingInstance: str(e['reportingInstance']),
  };
}

const isZeroTime = (v: unknown) => !isSet(v) || v === '' || v === '0001-01-01T00:00:00Z';

/** legacyValidateEvent; `coreV1` names the reporting controller field `reportingComponent`. */
function legacyValidate(ev: InternalEvent, coreV1: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const rcField = coreV1 ? 'reportingComponent' : 'reportingController';
  const ioNs = str(ev.involvedObject['namespace']);
  const mismatch = () => errs.push(field.invalid('involvedObject.namespace', ioNs, 'does not match event.namespace'));
  if (isZeroTime(ev.eventTime)) {
    if (!ioNs) {
      if (ev.namespace !== '' && ev.namespace !== 'default') mismatch();
    } else if (ev.namespace !== ioNs) mismatch();
  } else {
    if (!ioNs && ev.namespace !== 'default' && ev.namespace !== 'kube-system') mismatch();
    if (!ev.reportingController) errs.push(field.required(rcField));
    for (const m of isQualifiedName(ev.reportingController)) errs.push(field.invalid(rcField, ev.reportingController, m));
    if (!ev.reportingInstance) errs.push(field.required('reportingInstance'));
    if (ev.reportingInstance.length > LIMIT_128) errs.push(field.invalid('reportingInstance', '', `can have at most ${LIMIT_128} characters`));
    if (!ev.action) errs.push(field.required('action'));
    if (ev.action.length > LIMIT_128) errs.push(field.invalid('action', '', `can have at most ${LIMIT_128} characters`));
    if (!ev.reason) errs.push(field.required('reason'));
    if (ev.reason.length > LIMIT_128) errs.push(field.invalid('reason', '', `can have at most ${LIMIT_128} characters`));
    if (ev.message.length > NOTE_LIMIT) errs.push(field.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const m of isDNS1123Subdomain(ev.namespace)) errs.push(field.invalid('namespace', ev.namespace, m));
  return errs;
}

/** core/v1 Events: legacy validation only. */
export function validateCoreEvent(e: J): FieldError[] {
  return legacyValidate(internal(e, false), true);
}

/** events.k8s.io/v1 on create: legacy validation plus the strict rules (retired fields refused). */
export function validateEventsV1(e: J): FieldError[] {
  const ev = internal(e, true);
  const errs = legacyValidate(ev, false);
  if (isSet(ev.series)) {
    const s = obj(ev.series);
    if (typeof s['count'] !== 'number' || s['count'] < 2) errs.push(field.invalid('series.count', '', 'should be at least 2'));
    if (isZeroTime(s['lastObservedTime'])) errs.push(field.required('series.lastObservedTime'));
  }
  if (isZeroTime(ev.eventTime)) errs.push(field.required('eventTime'));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(field.invalid('type', '', `has invalid value: ${ev.type}`));
  if (!isZeroTime(ev.firstTimestamp)) errs.push(field.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!isZeroTime(ev.lastTimestamp)) errs.push(field.invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof ev.count === 'number' && ev.count !== 0) errs.push(field.invalid('count', '', 'needs to be unset'));
  if (str(ev.source['component']) || str(ev.source['host'])) errs.push(field.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** core.ObjectReference as kube's %#v prints it. */
function goObjectReference(r: J): string {
  const f = (k: string) => goQuote(str(r[k]));
  return `core.ObjectReference{Kind:${f('kind')}, Namespace:${f('namespace')}, Name:${f('name')}, UID:${f('uid')}, APIVersion:${f('apiVersion')}, ResourceVersion:${f('resourceVersion')}, FieldPath:${f('fieldPath')}}`;
}

/** ValidateEventUpdate for events.k8s.io/v1: legacy checks, then most fields are fixed. */
export function validateEventsV1Update(e: J, old: J): FieldError[] {
  const ev = internal(e, true);
  const o = internal(old, true);
  const errs = legacyValidate(ev, false);
  errs.push(...goImmutable(!semanticEqual(ev.involvedObject, o.involvedObject), 'involvedObject', goObjectReference(ev.involvedObject)));
  errs.push(...immutable(ev.reason, o.reason, 'reason'));
  errs.push(...immutable(ev.message, o.message, 'message'));
  errs.push(...goImmutable(!semanticEqual(ev.source, o.source), 'source',
    `core.EventSource{Component:${goQuote(str(ev.source['component']))}, Host:${goQuote(str(ev.source['host']))}}`));
  errs.push(...goImmutable(!semanticEqual(ev.firstTimestamp, o.firstTimestamp), 'firstTimestamp', goTime(ev.firstTimestamp)));
  errs.push(...goImmutable(!semanticEqual(ev.lastTimestamp, o.lastTimestamp), 'lastTimestamp', goTime(ev.lastTimestamp)));
  errs.push(...immutable(ev.count, o.count, 'count'));
  errs.push(...immutable(ev.type, o.type, 'type'));
  errs.push(...goImmutable(!semanticEqual(ev.eventTime, o.eventTime), 'eventTime', goTime(ev.eventTime)));
  errs.push(...immutable(ev.action, o.action, 'action'));
  errs.push(...immutable(ev.related, o.related, 'related'));
  errs.push(...immutable(ev.reportingController, o.reportingController, 'reportingController'));
  errs.push(...immutable(ev.reportingInstance, o.reportingInstance, 'reportingInstance'));
  return errs;
}
