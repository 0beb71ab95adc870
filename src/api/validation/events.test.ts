// ValidateEventCreate / legacyValidateEvent / ValidateEventUpdate (pkg/apis/core/validation/events.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCoreEvent, validateEventsV1, validateEventsV1Update } from './events.ts';
import type { J } from './util.ts';

function ev(extra: J = {}): J {
  return {
    metadata: { name: 'e', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z', reportingController: 'example.com/ctl',
    reportingInstance: 'ctl-1', action: 'Sync', reason: 'Synced', type: 'Normal', regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, ...extra,
  };
}

test('events.k8s.io/v1: valid', () => assert.deepEqual(validateEventsV1(ev()).map(String), []));

test('events.k8s.io/v1: required fields when eventTime is set', () => {
  const e = ev({ reportingController: '', reportingInstance: '', action: '', reason: '' });
  assert.deepEqual(validateEventsV1(e).map(String), [
    'reportingController: Required value',
    `reportingController: Invalid value: "": name part must be non-empty`,
    `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'reportingInstance: Required value',
    'action: Required value',
    'reason: Required value',
  ]);
});

test('events.k8s.io/v1: eventTime, type and retired fields', () => {
  const e = ev({ eventTime: undefined, type: 'Info', deprecatedCount: 3, deprecatedSource: { component: 'x' }, deprecatedFirstTimestamp: '2024-01-01T00:00:00Z' });
  assert.deepEqual(validateEventsV1(e).map(String), [
    'eventTime: Required value',
    'type: Invalid value: "": has invalid value: Info',
    'firstTimestamp: Invalid value: "": needs to be unset',
    'count: Invalid value: "": needs to be unset',
    'source: Invalid value: "": needs to be unset',
  ]);
});

test('events.k8s.io/v1: namespace must match regarding', () => {
  const e = ev({ regarding: { kind: 'Pod', name: 'p', namespace: 'other' }, eventTime: undefined });
  assert.deepEqual(validateEventsV1(e).map(String).slice(0, 1), ['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
});

test('events.k8s.io/v1 update: reason and note are immutable', () => {
  assert.deepEqual(validateEventsV1Update(ev({ reason: 'Other', note: 'n' }), ev()).map(String), [
    'reason: Invalid value: "Other": field is immutable',
    'message: Invalid value: "n": field is immutable',
  ]);
});

test('core/v1 events: legacy rules name reportingComponent', () => {
  const e: J = { metadata: { name: 'e', namespace: 'default' }, eventTime: '2024-01-01T00:00:00.000000Z', involvedObject: { namespace: 'default' }, reportingInstance: 'i', action: 'a', reason: 'r' };
  assert.deepEqual(validateCoreEvent(e).map(String).slice(0, 1), ['reportingComponent: Required value']);
  const old: J = { metadata: { name: 'e', namespace: 'default' }, involvedObject: { namespace: 'default' }, reason: 'r' };
  assert.deepEqual(validateCoreEvent(old).map(String), []);
});
