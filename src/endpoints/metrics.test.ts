import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestInfo } from '../request/context.ts';
import { Metrics, compressUsername, dryRunLabel, reportedVerb, scopeLabel } from './metrics.ts';

function info(over: Partial<RequestInfo>): RequestInfo {
  return { isResourceRequest: true, path: '/api/v1/namespaces/ns/pods', verb: 'list', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'pods', subresource: '', name: '', parts: [], ...over };
}

void test('scope and reported verb as kube derives them', () => {
  assert.equal(scopeLabel(info({ name: 'p' })), 'resource');
  assert.equal(scopeLabel(info({ verb: 'create' })), 'resource');
  assert.equal(scopeLabel(info({})), 'namespace');
  assert.equal(scopeLabel(info({ namespace: '' })), 'cluster');
  assert.equal(scopeLabel(info({ isResourceRequest: false, namespace: '', resource: '' })), '');
  assert.equal(reportedVerb('GET', info({}), undefined), 'LIST');
  assert.equal(reportedVerb('GET', info({ name: 'p', verb: 'get' }), undefined), 'GET');
  assert.equal(reportedVerb('GET', info({ verb: 'watch' }), undefined), 'WATCH');
  assert.equal(reportedVerb('GET', info({}), undefined, new URLSearchParams('watch=true')), 'WATCH');
  assert.equal(reportedVerb('GET', info({}), undefined, new URLSearchParams('watch=false')), 'LIST');
  assert.equal(reportedVerb('PATCH', info({ name: 'p', verb: 'patch' }), 'application/apply-patch+yaml'), 'APPLY');
  assert.equal(reportedVerb('POST', info({ name: 'p', verb: 'create', subresource: 'exec' }), undefined), 'CONNECT');
  assert.equal(reportedVerb('DELETE', info({ verb: 'deletecollection' }), undefined), 'DELETE');
  assert.equal(reportedVerb('BREW', info({ name: 'p' }), undefined), 'other');
  assert.equal(reportedVerb('GET', info({ isResourceRequest: false, namespace: '', resource: '', path: '/healthz' }), undefined), 'GET');
});

void test('dry_run and username labels are bounded as kube bounds them', () => {
  assert.equal(dryRunLabel(new URLSearchParams('')), '');
  assert.equal(dryRunLabel(new URLSearchParams('dryRun=All&dryRun=All')), 'All');
  assert.equal(dryRunLabel(new URLSearchParams('dryRun=Some')), 'invalid');
  assert.equal(compressUsername('kubelet'), 'kubelet');
  assert.equal(compressUsername('jane@example.com'), 'email_id');
  assert.equal(compressUsername('system:serviceaccount:ns:x'), 'other');
});

void test('long-running gauge goes up and down; the in-flight gauge reports the last second\'s maximum', async () => {
  let clock = 5_000;
  const m = new Metrics({ processMetrics: false, now: () => clock });
  const done = m.trackLongRunning({ verb: 'WATCH', group: '', version: 'v1', resource: 'pods', subresource: '', scope: 'cluster' });
  assert.match(await m.render(), /apiserver_longrunning_requests\{component="apiserver",group="",resource="pods",scope="cluster",subresource="",verb="WATCH",version="v1"\} 1/);
  done();
  done();
  assert.match(await m.render(), /apiserver_longrunning_requests\{[^}]*verb="WATCH"[^}]*\} 0/);
  m.inflight.readOnly = 4;
  m.noteInflight();
  m.inflight.readOnly = 0;
  assert.match(await m.render(), /apiserver_current_inflight_requests\{request_kind="readOnly"\} 4/);
  clock += 1000;
  assert.match(await m.render(), /apiserver_current_inflight_requests\{request_kind="readOnly"\} 0/);
});

void test('--show-hidden-metrics-for-version brings back apiserver_request_slo_duration_seconds (deprecated 1.27)', async () => {
  const labels = { verb: 'GET', dryRun: '', group: '', version: 'v1', resource: 'pods', subresource: '', scope: 'resource', code: 200 };
  const plain = new Metrics({ processMetrics: false });
  plain.recordRequest(labels, 0.01);
  assert.doesNotMatch(await plain.render(), /apiserver_request_slo_duration_seconds/);
  const shown = new Metrics({ processMetrics: false, showHiddenForVersion: '1.32' });
  shown.recordRequest(labels, 0.01);
  assert.match(await shown.render(), /^# HELP apiserver_request_slo_duration_seconds \[ALPHA\] \(Deprecated since 1\.27\.0\) Response latency/m);
});
