import { test } from 'node:test';
import assert from 'node:assert/strict';
import { microTime, RequestAudit, sourceIPs, withoutManagedFields } from './event.ts';
import { encodeEvent, legacyLine } from './format.ts';
import type { Req } from '../request/context.ts';
import type { Attributes } from '../request/authorizer.ts';
import type { Level } from './types.ts';

function req(headers: Record<string, string> = {}, remote = '::ffff:10.0.0.9', url = '/api/v1/namespaces/ns/secrets?x=1'): Req {
  return { headers, url, socket: { remoteAddress: remote } } as unknown as Req;
}

const attrs: Attributes = {
  user: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } }, verb: 'create', isResourceRequest: true,
  path: '/api/v1/namespaces/ns/secrets', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'secrets', subresource: '', name: '',
};

function audit(level: Level, annotations: Record<string, string> = {}, omitManagedFields = false, r = req({ 'user-agent': 'kubectl/v1.33.0' })): RequestAudit {
  return new RequestAudit({ auditId: 'id-1', config: { level, omitStages: [], omitManagedFields }, attrs, req: r, receivedMicros: 1_700_000_000_123_456, annotations: () => annotations });
}

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns', uid: 'uid-9', resourceVersion: '7', managedFields: [{ manager: 'm' }] }, data: { k: 'c2VjcmV0' } };

void test('MicroTime: UTC with six fractional digits', () => {
  assert.equal(microTime(1_700_000_000_123_456), '2023-11-14T22:13:20.123456Z');
  assert.equal(microTime(1_700_000_000_000_000), '2023-11-14T22:13:20.000000Z');
});

void test('source IPs: X-Forwarded-For, X-Real-Ip when new, then the peer unless it repeats the last', () => {
  assert.deepEqual(sourceIPs(req()), ['10.0.0.9']);
  assert.deepEqual(sourceIPs(req({ 'x-forwarded-for': '1.2.3.4, bogus, 5.6.7.8', 'x-real-ip': '1.2.3.4' })), ['1.2.3.4', '5.6.7.8', '10.0.0.9']);
  assert.deepEqual(sourceIPs(req({ 'x-real-ip': '10.0.0.9' })), ['10.0.0.9']);
  assert.deepEqual(sourceIPs(req({}, '::1')), ['::1']);
});

void test('Metadata: objectRef from the URL and the request object, no bodies; a Status sets responseStatus', () => {
  const a = audit('Metadata', { 'authorization.k8s.io/decision': 'allow', 'a.example/x': 'y' });
  assert.equal(a.recordsRequest, false);
  a.logRequestObject(secret);
  a.logResponseObject(secret);
  a.setResponseCode(201);
  const ev = a.snapshot('ResponseComplete', 1_700_000_000_223_456);
  assert.deepEqual(ev, {
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: 'id-1', stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/ns/secrets?x=1',
    verb: 'create', user: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } }, sourceIPs: ['10.0.0.9'],
    userAgent: 'kubectl/v1.33.0', objectRef: { resource: 'secrets', namespace: 'ns', name: 's', uid: 'uid-9', apiVersion: 'v1', resourceVersion: '7' },
    responseStatus: { metadata: {}, code: 201 }, requestReceivedTimestamp: '2023-11-14T22:13:20.123456Z', stageTimestamp: '2023-11-14T22:13:20.223456Z',
    annotations: { 'a.example/x': 'y', 'authorization.k8s.io/decision': 'allow' },
  });
  assert.ok(!encodeEvent(ev).includes('c2VjcmV0'));
  const failed = audit('Metadata');
  failed.logResponseObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'no', reason: 'Forbidden', details: { kind: 'secrets' }, code: 403 });
  failed.setResponseCode(403);
  assert.deepEqual(failed.snapshot('ResponseComplete').responseStatus, { metadata: {}, status: 'Failure', message: 'no', reason: 'Forbidden', details: { kind: 'secrets' }, code: 403 });
  // RequestReceived: the stage timestamp is the received one.
  const rr = failed.snapshot('RequestReceived');
  assert.equal(rr.stageTimestamp, rr.requestReceivedTimestamp);
});

void test('Request keeps the request body (detached); RequestResponse both; omitManagedFields drops managedFields', () => {
  const r = audit('Request');
  const body = structuredClone(secret);
  r.logRequestObject(body);
  body.data.k = 'changed later';
  r.logResponseObject(secret);
  const ev = r.snapshot('ResponseComplete');
  assert.equal((ev.requestObject as typeof secret).data.k, 'c2VjcmV0');
  assert.equal(ev.responseObject, undefined);
  const rr = audit('RequestResponse', {}, true);
  rr.logRequestObject(secret);
  let built = 0;
  rr.logResponseObject(() => {
    built++;
    return { kind: 'SecretList', apiVersion: 'v1', metadata: {}, items: [secret] };
  });
  const ev2 = rr.snapshot('ResponseComplete');
  assert.equal(built, 1);
  assert.equal((ev2.requestObject as typeof secret).metadata.managedFields, undefined);
  assert.equal((ev2.responseObject as { items: (typeof secret)[] }).items[0]!.metadata.managedFields, undefined);
  // Lists are built only when recorded.
  const meta = audit('Metadata');
  meta.logResponseObject(() => {
    built++;
    return {};
  });
  assert.equal(built, 1);
  rr.logRequestPatch(Buffer.from('{"data":{"k":"x"}}'));
  assert.deepEqual(rr.snapshot('ResponseComplete').requestObject, { data: { k: 'x' } });
  assert.deepEqual(withoutManagedFields({ metadata: { name: 'a' } }), { metadata: { name: 'a' } });
});

void test('impersonated user, a long user agent truncated, JSON line with Go escaping', () => {
  const a = audit('Metadata', {}, false, req({ 'user-agent': 'x'.repeat(1100) }));
  a.logImpersonatedUser({ username: 'bob', groups: ['system:authenticated'] });
  const ev = a.snapshot('ResponseComplete');
  assert.deepEqual(ev.impersonatedUser, { username: 'bob', groups: ['system:authenticated'] });
  assert.equal(ev.userAgent, `${'x'.repeat(1024)}...TRUNCATED`);
  const amp = audit('Metadata', { note: 'a<b>&c' });
  const line = encodeEvent(amp.snapshot('ResponseComplete'));
  assert.ok(line.endsWith('}\n'));
  assert.ok(line.includes('"note":"a\\u003cb\\u003e\\u0026c"'));
});

void test('legacy format: kube\'s EventString line', () => {
  const a = audit('Metadata');
  a.setResponseCode(201);
  assert.equal(legacyLine(a.snapshot('ResponseComplete')),
    '2023-11-14T22:13:20.123456Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.9" method="create" user="alice" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.33.0" namespace="ns" uri="/api/v1/namespaces/ns/secrets?x=1" response="201"\n');
  const b = audit('Metadata');
  b.logImpersonatedUser({ username: 'bob', groups: [] });
  assert.match(legacyLine(b.snapshot('RequestReceived')), / as="bob" asgroups="" .* response="<deferred>"\n$/);
});
