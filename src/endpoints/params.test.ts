import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  managerFromUserAgent, parseBoolParam, parseDeleteOptions, parseIncludeObject, parseIntParam, parseListQuery, parseWriteQuery, wantsPretty,
} from './params.ts';
import { StatusError } from '../machinery/errors.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

const q = (s: string) => new URLSearchParams(s);
function statusOf(fn: () => unknown): { code: number; message: string; reason: string; details?: unknown } {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    const st = e.toStatus();
    return { code: st.code, message: st.message ?? '', reason: st.reason ?? '', details: st.details };
  }
  assert.fail('expected a StatusError');
}

void test('booleans follow the parameter codec: false only for 0/false', () => {
  for (const v of ['', 'true', '1', 'yes', 'TRUE']) assert.equal(parseBoolParam(v), true, v);
  for (const v of ['0', 'false', 'False', 'FALSE']) assert.equal(parseBoolParam(v), false, v);
  assert.equal(parseListQuery(q('watch')).watch, true);
  assert.equal(parseListQuery(q('watch=0')).watch, false);
  assert.equal(parseListQuery(q('watch=1')).watch, true);
});

void test('integers: Go ParseInt wording on 400', () => {
  assert.equal(parseIntParam('42'), 42);
  assert.equal(parseIntParam('-1'), -1);
  const s = statusOf(() => parseListQuery(q('limit=abc')));
  assert.equal(s.code, 400);
  assert.equal(s.reason, 'BadRequest');
  assert.equal(s.message, 'strconv.ParseInt: parsing "abc": invalid syntax');
  assert.equal(statusOf(() => parseListQuery(q('limit=1.5'))).code, 400);
  assert.match(statusOf(() => parseListQuery(q('timeoutSeconds=99999999999999999999'))).message, /value out of range/);
});

void test('list options validation: 422 ListOptions.meta.k8s.io', () => {
  const s = statusOf(() => parseListQuery(q('resourceVersionMatch=Exact')));
  assert.equal(s.code, 422);
  assert.equal(s.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  assert.deepEqual(s.details, {
    group: 'meta.k8s.io', kind: 'ListOptions',
    causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' }],
  });
  assert.match(statusOf(() => parseListQuery(q('resourceVersion=1&resourceVersionMatch=Bogus'))).message,
    /resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""/);
  assert.match(statusOf(() => parseListQuery(q('sendInitialEvents=true'))).message, /sendInitialEvents is forbidden for list/);
  assert.match(statusOf(() => parseListQuery(q('watch=1&sendInitialEvents=true'))).message,
    /sendInitialEvents requires setting resourceVersionMatch to NotOlderThan/);
  const ok = parseListQuery(q('watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=5&labelSelector=a%3Db&limit=0'));
  assert.equal(ok.sendInitialEvents, true);
  assert.equal(ok.allowWatchBookmarks, true);
  assert.equal(ok.timeoutSeconds, 5);
  assert.equal(ok.labelSelector, 'a=b');
  assert.equal(ok.limit, undefined);
});

void test('write options: dryRun, fieldManager, fieldValidation as kube validates them', () => {
  const d = statusOf(() => parseWriteQuery(q('dryRun=Foo'), 'CreateOptions'));
  assert.equal(d.code, 422);
  assert.equal(d.message, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Foo"}: supported values: "All"');
  assert.equal(parseWriteQuery(q('dryRun=All'), 'CreateOptions').dryRun, true);
  assert.equal(parseWriteQuery(q(''), 'UpdateOptions').dryRun, false);
  const fm = statusOf(() => parseWriteQuery(q(`fieldManager=${'x'.repeat(129)}`), 'UpdateOptions'));
  assert.equal(fm.message, 'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
  assert.equal(parseWriteQuery(q(`fieldManager=${'x'.repeat(128)}`), 'UpdateOptions').fieldManager.length, 128);
  const fv = statusOf(() => parseWriteQuery(q('fieldValidation=Loud'), 'PatchOptions'));
  assert.equal(fv.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"');
  assert.equal(parseWriteQuery(q(''), 'CreateOptions').fieldValidation, 'Warn');
  assert.match(statusOf(() => parseWriteQuery(q('force=true'), 'PatchOptions')).message, /force: Forbidden: may not be specified for non-apply patch/);
  // Same body as kube's (reference errors/422-apply-without-fieldmanager.json).
  const ref = readKubeJson('responses/errors/422-apply-without-fieldmanager.json') as unknown;
  try {
    parseWriteQuery(q(''), 'PatchOptions', { apply: true });
    assert.fail('expected 422');
  } catch (e) {
    assert.ok(e instanceof StatusError);
    assert.deepEqual(e.toStatus(), ref);
  }
});

void test('field manager inferred from the User-Agent prefix', () => {
  assert.equal(managerFromUserAgent('kubectl/v1.33.0 (linux/amd64) kubernetes/abc'), 'kubectl');
  assert.equal(managerFromUserAgent('Go-http-client/2.0'), 'Go-http-client');
  assert.equal(managerFromUserAgent(undefined), '');
  assert.equal(managerFromUserAgent(`${'a'.repeat(200)}/x`).length, 128);
  assert.equal(managerFromUserAgent('ab\u0007c/1'), 'abc');
});

void test('delete options from query or body, validated', () => {
  assert.deepEqual(parseDeleteOptions(q('gracePeriodSeconds=0&propagationPolicy=Foreground'), undefined),
    { dryRun: false, gracePeriodSeconds: 0, propagationPolicy: 'Foreground' });
  assert.deepEqual(parseDeleteOptions(q('gracePeriodSeconds=5'), { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', dryRun: ['All'], preconditions: { uid: 'u' } }),
    { dryRun: true, propagationPolicy: 'Background', preconditions: { uid: 'u' } });
  const s = statusOf(() => parseDeleteOptions(q('propagationPolicy=Sideways'), undefined));
  assert.equal(s.message, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
  assert.match(statusOf(() => parseDeleteOptions(q('orphanDependents=true&propagationPolicy=Orphan'), undefined)).message,
    /orphanDependents and deletionPropagation cannot be both set/);
  assert.equal(statusOf(() => parseDeleteOptions(q(''), { gracePeriodSeconds: 'x' })).code, 400);
});

void test('includeObject and pretty', () => {
  assert.equal(parseIncludeObject(q('')), 'Metadata');
  assert.equal(parseIncludeObject(q('includeObject=None')), 'None');
  assert.equal(statusOf(() => parseIncludeObject(q('includeObject=All'))).message,
    'Unable to convert to Table as requested: includeObject: Invalid value: "All": must be \'Metadata\', \'Object\', \'None\', or empty');
  assert.equal(wantsPretty(q('pretty=true'), 'kubectl/1'), true);
  assert.equal(wantsPretty(q('pretty=false'), 'curl/8'), false);
  assert.equal(wantsPretty(q(''), 'curl/8.0'), true);
  assert.equal(wantsPretty(q(''), 'kubectl/1.33'), false);
});
