/**
 * DeleteOptions bodies as kube's delete handlers decode them (the meta internal scheme): any group version
 * with Kind=DeleteOptions, defaults for a missing apiVersion/kind, and kube's 400s for other kinds — in
 * protobuf (what client-go's typed clients send) and JSON alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestContext } from '../../request/context.ts';
import { StatusError } from '../../machinery/errors.ts';
import { encodeProtobuf } from '../../api/protobuf/codec.ts';
import { decodeOptionsBody, deleteOptionsKindError } from './decode.ts';

const PB = 'application/vnd.kubernetes.protobuf';
const ctxOf = (contentType: string) => ({ req: { headers: { 'content-type': contentType } } }) as unknown as RequestContext;

/** An enveloped body with this typeMeta around a DeleteOptions message. */
function pb(apiVersion: string, kind: string, fields: Record<string, unknown> = {}): Buffer {
  // The codec writes whatever kind it is given when the message is DeleteOptions-shaped: encode as
  // DeleteOptions, then rewrite the envelope's typeMeta.
  const body = encodeProtobuf({ apiVersion: 'v1', kind: 'DeleteOptions', ...fields });
  const typeMeta = Buffer.concat([Buffer.from([0x0a, apiVersion.length]), Buffer.from(apiVersion), Buffer.from([0x12, kind.length]), Buffer.from(kind)]);
  const oldTypeMetaLen = body[5]!;
  return Buffer.concat([body.subarray(0, 4), Buffer.from([0x0a, typeMeta.length]), typeMeta, body.subarray(6 + oldTypeMetaLen)]);
}

function statusOf(f: () => unknown): ReturnType<StatusError['toStatus']> {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e.toStatus();
  }
  assert.fail('expected an error');
}

void test('protobuf DeleteOptions decode in any group version, custom resource groups included', () => {
  for (const gv of ['v1', 'apps/v1', 'apiextensions.k8s.io/v1', 'admissionregistration.k8s.io/v1', 'flowcontrol.apiserver.k8s.io/v1', 'meta.k8s.io/v1', 'stable.example.com/v1']) {
    const opts = decodeOptionsBody(ctxOf(PB), pb(gv, 'DeleteOptions', { propagationPolicy: 'Foreground', gracePeriodSeconds: 5, dryRun: ['All'], preconditions: { uid: 'u' } }));
    assert.deepEqual(opts, { kind: 'DeleteOptions', apiVersion: gv, gracePeriodSeconds: 5, preconditions: { uid: 'u' }, propagationPolicy: 'Foreground', dryRun: ['All'] }, gv);
  }
});

void test('a missing apiVersion and kind default to meta.k8s.io/v1 DeleteOptions', () => {
  assert.deepEqual(decodeOptionsBody(ctxOf(PB), pb('', '', { orphanDependents: false })), { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', orphanDependents: false });
  assert.deepEqual(decodeOptionsBody(ctxOf(PB), pb('apps/v1', '')), { kind: 'DeleteOptions', apiVersion: 'apps/v1' });
});

void test('bodies of another kind: kube\'s 400s, in protobuf and JSON', () => {
  const scheme = '"k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"';
  const cases: Array<[string, string, string]> = [
    ['v1', 'Pod', `no kind "Pod" is registered for version "v1" in scheme ${scheme}`],
    ['', 'Pod', `no kind "Pod" is registered for version "meta.k8s.io/v1" in scheme ${scheme}`],
    ['apps/v1', 'ListOptions', `no kind "ListOptions" is registered for version "apps/v1" in scheme ${scheme}`],
    ['meta.k8s.io/v1', 'ListOptions', 'converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion'],
    ['apps/v1', 'CreateOptions', 'converting (v1.CreateOptions) to (v1.DeleteOptions): unknown conversion'],
    ['batch/v1', 'Status', 'converting (v1.Status) to (v1.DeleteOptions): unknown conversion'],
  ];
  for (const [apiVersion, kind, message] of cases) {
    assert.equal(deleteOptionsKindError(apiVersion, kind)?.toStatus().message, message);
    const want = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 };
    assert.deepEqual(statusOf(() => decodeOptionsBody(ctxOf(PB), pb(apiVersion, kind))), want, `protobuf ${apiVersion} ${kind}`);
    const json = Buffer.from(JSON.stringify({ ...(apiVersion ? { apiVersion } : {}), kind }));
    assert.deepEqual(statusOf(() => decodeOptionsBody(ctxOf('application/json'), json)), want, `json ${apiVersion} ${kind}`);
  }
});

void test('bytes that are not a protobuf envelope are a 400', () => {
  const s = statusOf(() => decodeOptionsBody(ctxOf(PB), Buffer.from('{"kind":"DeleteOptions"}')));
  assert.equal(s.code, 400);
  assert.equal(s.message, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
});

void test('an empty body means no options; JSON DeleteOptions of any group version still decode', () => {
  assert.equal(decodeOptionsBody(ctxOf(PB), Buffer.alloc(0)), undefined);
  assert.deepEqual(decodeOptionsBody(ctxOf('application/json'), Buffer.from('{"kind":"DeleteOptions","apiVersion":"apps/v1","dryRun":["All"]}')),
    { kind: 'DeleteOptions', apiVersion: 'apps/v1', dryRun: ['All'] });
});
