/**
 * Every body client-go sends as `application/vnd.kubernetes.protobuf`, against a real server:
 * - DeleteOptions, enveloped with the client's own group version (typed clients: `v1`, `apps/v1`, …; also the
 *   `meta.k8s.io/v1` form and a custom resource group), to one resource of every served group version, and
 *   their effect (dryRun, preconditions, gracePeriodSeconds, propagationPolicy; deletecollection too);
 * - the sub-resource kinds (Binding, Eviction, TokenRequest, the reviews, Scale, the CSR approval), decoded
 *   from protobuf and answered in protobuf;
 * - Status answers (errors, deletes) in protobuf, compared with bytes built here from the field numbers;
 * - protobuf watch frames, including the ERROR event of a watch from a compacted resourceVersion.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEnvelope, decodeProtobuf, encodeProtobuf } from '../../src/api/protobuf/codec.ts';
import { builtinCatalog } from '../../src/registry/resources/groups/index.ts';
import type { ServerOptions } from '../../src/controlplane/options.ts';
import { eventually, startTestServer, type TestResponse, type TestServer } from '../support/server.ts';
import { crdManifest, waitFor } from './crd-support.ts';
import { configMap, deployment, namespace } from './helpers.ts';

const PB = 'application/vnd.kubernetes.protobuf';
/** What client-go's typed clients send when configured for protobuf. */
const CLIENT_GO = { Accept: `${PB}, */*`, 'Content-Type': PB, 'User-Agent': 'protobuf-test/v0.0.0 (linux/amd64) kubernetes/$Format' };
const NS = 'pb';

let srv: TestServer;

before(async () => {
  srv = await startTestServer();
  assert.equal((await srv.request('POST', '/api/v1/namespaces', { body: namespace(NS) })).status, 201);
  const crd = await srv.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crdManifest() });
  assert.equal(crd.status, 201, crd.text);
  await waitFor(async () => (await srv.request('GET', `/apis/stable.example.com/v1/namespaces/${NS}/widgets`)).status === 200, 10_000);
});
after(async () => { await srv?.stop(); });

// ---- bytes by hand ---------------------------------------------------------------------------------------

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) { out.push((v & 0x7f) | 0x80); v = Math.floor(v / 128); }
  out.push(v);
  return out;
}
function ld(field: number, body: Buffer | string): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...varint(b.length)]), b]);
}
function num(field: number, n: number): Buffer {
  return Buffer.from([field << 3, ...varint(n)]);
}
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from('k8s\0'), ld(1, Buffer.concat([ld(1, apiVersion), ld(2, kind)])), ld(2, raw), ld(3, ''), ld(4, '')]);
}

interface StatusShape {
  status: string; message?: string; reason?: string; code?: number;
  details?: { name?: string; group?: string; kind?: string; uid?: string };
}
/** meta/v1 Status as kube's generated marshaller writes it, in a `v1`/`Status` envelope. */
function statusBytes(s: StatusShape): Buffer {
  const d = s.details;
  return envelope('v1', 'Status', Buffer.concat([
    ld(1, Buffer.concat([ld(1, ''), ld(2, ''), ld(3, '')])),
    ld(2, s.status), ld(3, s.message ?? ''), ld(4, s.reason ?? ''),
    d ? ld(5, Buffer.concat([ld(1, d.name ?? ''), ld(2, d.group ?? ''), ld(3, d.kind ?? ''), num(5, 0), ld(6, d.uid ?? '')])) : Buffer.alloc(0),
    num(6, s.code ?? 0),
  ]));
}
/** DeleteOptions as client-go encodes it: fields in number order, pointers only when set. */
function deleteOptions(apiVersion: string, o: { gracePeriodSeconds?: number; uid?: string; propagationPolicy?: string; dryRun?: string[] } = {}): Buffer {
  return envelope(apiVersion, 'DeleteOptions', Buffer.concat([
    o.gracePeriodSeconds !== undefined ? num(1, o.gracePeriodSeconds) : Buffer.alloc(0),
    o.uid !== undefined ? ld(2, ld(1, o.uid)) : Buffer.alloc(0),
    o.propagationPolicy !== undefined ? ld(4, o.propagationPolicy) : Buffer.alloc(0),
    ...(o.dryRun ?? []).map((x) => ld(5, x)),
  ]));
}

function isProtobuf(r: TestResponse): boolean {
  return String(r.headers['content-type']) === PB;
}
function pbObject(r: TestResponse): any {
  assert.ok(isProtobuf(r), `expected protobuf, got ${String(r.headers['content-type'])}: ${r.text.slice(0, 300)}`);
  return decodeProtobuf(r.raw);
}
const send = (method: string, path: string, body?: Buffer) => srv.request(method, path, { ...(body ? { body } : {}), headers: CLIENT_GO });

// ---- DeleteOptions in every group version ------------------------------------------------------------------

function basePath(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

void test('a protobuf DeleteOptions in each served group version (and meta.k8s.io/v1) decodes: the delete reaches the store', async () => {
  const seen = new Set<string>();
  const targets: Array<{ group: string; version: string; resource: string; namespaced: boolean }> = [];
  for (const def of builtinCatalog().all()) {
    const gv = `${def.group}/${def.version}`;
    if (seen.has(gv) || def.virtual || !def.verbs.includes('delete')) continue;
    seen.add(gv);
    targets.push(def);
  }
  assert.ok(targets.length >= 15, `only ${targets.length} group versions`);
  targets.push({ group: 'stable.example.com', version: 'v1', resource: 'widgets', namespaced: true });
  for (const t of targets) {
    const apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
    const path = `${basePath(t.group, t.version)}${t.namespaced ? `/namespaces/${NS}` : ''}/${t.resource}/pb-missing`;
    for (const envelopeVersion of [apiVersion, 'meta.k8s.io/v1']) {
      const r = await send('DELETE', path, deleteOptions(envelopeVersion, { propagationPolicy: 'Background', gracePeriodSeconds: 0 }));
      // Decoded, validated, then not found: a 404 (a body kube could not decode would be a 400).
      assert.equal(r.status, 404, `${path} with ${envelopeVersion}: ${r.text.slice(0, 300)}`);
      const qualified = t.group === '' ? t.resource : `${t.resource}.${t.group}`;
      const want = { status: 'Failure', message: `${qualified} "pb-missing" not found`, reason: 'NotFound', code: 404, details: { name: 'pb-missing', group: t.group, kind: t.resource } };
      // Custom resources have no protobuf form, but errors are a Status, which has one (kube's CR handler
      // writes errors with its protobuf serializer too).
      assert.equal(r.raw.toString('hex'), statusBytes(want).toString('hex'), path);
    }
  }
});

void test('DeleteOptions effects: dryRun, preconditions, then a real delete answered by a protobuf Status', async () => {
  const path = `/api/v1/namespaces/${NS}/configmaps/opts`;
  const created = await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap('opts') });
  assert.equal(created.status, 201);
  const uid = created.json().metadata.uid as string;

  const dry = await send('DELETE', path, deleteOptions('v1', { dryRun: ['All'] }));
  assert.equal(dry.status, 200);
  assert.deepEqual(pbObject(dry).details, { name: 'opts', kind: 'configmaps', uid });
  assert.equal((await srv.request('GET', path)).status, 200, 'dry run kept it');

  const conflict = await send('DELETE', path, deleteOptions('v1', { uid: 'not-the-uid' }));
  assert.equal(conflict.status, 409);
  // kube's BeforeDelete checks the UID precondition first, naming the kind.
  const message = `Operation cannot be fulfilled on ConfigMap "opts": the UID in the precondition (not-the-uid) does not match the UID in record (${uid}). The object might have been deleted and then recreated`;
  assert.equal(conflict.raw.toString('hex'), statusBytes({ status: 'Failure', message, reason: 'Conflict', code: 409, details: { name: 'opts', kind: 'ConfigMap' } }).toString('hex'));

  const gone = await send('DELETE', path, deleteOptions('v1', { uid, propagationPolicy: 'Background' }));
  assert.equal(gone.status, 200);
  assert.equal(gone.raw.toString('hex'), statusBytes({ status: 'Success', details: { name: 'opts', kind: 'configmaps', uid } }).toString('hex'));
  assert.equal((await srv.request('GET', path)).status, 404);
});

void test('DeleteOptions effects: gracePeriodSeconds on a bound pod, Foreground propagation on a deployment', async () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'graceful' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } };
  assert.equal((await srv.request('POST', `/api/v1/namespaces/${NS}/pods`, { body: pod })).status, 201);
  const podPath = `/api/v1/namespaces/${NS}/pods/graceful`;
  const first = pbObject(await send('DELETE', podPath, deleteOptions('v1', { gracePeriodSeconds: 30 })));
  assert.equal(first.kind, 'Pod');
  assert.equal(first.metadata.deletionGracePeriodSeconds, 30);
  assert.ok(first.metadata.deletionTimestamp);
  const now = pbObject(await send('DELETE', podPath, deleteOptions('v1', { gracePeriodSeconds: 0 })));
  assert.equal(now.metadata.deletionGracePeriodSeconds, 0);
  assert.equal((await srv.request('GET', podPath)).status, 404);

  assert.equal((await srv.request('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, { body: deployment('fg') })).status, 201);
  const depPath = `/apis/apps/v1/namespaces/${NS}/deployments/fg`;
  const dep = pbObject(await send('DELETE', depPath, deleteOptions('apps/v1', { propagationPolicy: 'Foreground' })));
  assert.equal(dep.kind, 'Deployment');
  assert.deepEqual(dep.metadata.finalizers, ['foregroundDeletion']);
  await eventually('deployment gone', async () => (await srv.request('GET', depPath)).status === 404);
});

void test('deletecollection takes a protobuf DeleteOptions too (dryRun honoured)', async () => {
  for (const n of ['c1', 'c2']) {
    assert.equal((await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap(n, { a: 'b' }, { labels: { set: 'pb' } }) })).status, 201);
  }
  const coll = `/api/v1/namespaces/${NS}/configmaps?labelSelector=set%3Dpb`;
  const dry = pbObject(await send('DELETE', coll, deleteOptions('v1', { dryRun: ['All'] })));
  assert.equal(dry.kind, 'ConfigMapList');
  assert.deepEqual(dry.items.map((i: any) => i.metadata.name).sort(), ['c1', 'c2']);
  assert.equal((await srv.request('GET', coll)).json().items.length, 2);
  const real = pbObject(await send('DELETE', coll, deleteOptions('v1')));
  assert.equal(real.items.length, 2);
  assert.equal((await srv.request('GET', coll)).json().items.length, 0);
});

void test('a protobuf body of another kind than DeleteOptions is kube\'s 400, in protobuf', async () => {
  assert.equal((await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap('kept') })).status, 201);
  const r = await send('DELETE', `/api/v1/namespaces/${NS}/configmaps/kept`, encodeProtobuf(configMap('kept')));
  assert.equal(r.status, 400);
  const message = 'no kind "ConfigMap" is registered for version "v1" in scheme "k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27"';
  assert.equal(r.raw.toString('hex'), statusBytes({ status: 'Failure', message, reason: 'BadRequest', code: 400 }).toString('hex'));
  assert.equal((await srv.request('GET', `/api/v1/namespaces/${NS}/configmaps/kept`)).status, 200);
});

// ---- sub-resource kinds ------------------------------------------------------------------------------------

async function makePod(name: string): Promise<void> {
  const r = await srv.request('POST', `/api/v1/namespaces/${NS}/pods`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
  assert.equal(r.status, 201, r.text);
}
const SUCCESS_201 = statusBytes({ status: 'Success', code: 201 });

void test('Binding (pods/binding and bindings) and Eviction in protobuf', async () => {
  await makePod('bind-a');
  await makePod('bind-b');
  const binding = (name: string) => encodeProtobuf({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } });
  // The request bytes are what client-go writes: envelope v1/Binding, ObjectMeta{name}, ObjectReference{kind, name, apiVersion}.
  const wantReq = envelope('v1', 'Binding', Buffer.concat([
    ld(1, Buffer.concat([ld(1, 'bind-a'), ld(2, ''), ld(3, ''), ld(4, ''), ld(5, ''), ld(6, ''), num(7, 0), ld(8, Buffer.alloc(0))])),
    ld(2, Buffer.concat([ld(1, 'Node'), ld(2, ''), ld(3, 'node-1'), ld(4, ''), ld(5, 'v1'), ld(6, ''), ld(7, '')])),
  ]));
  assert.equal(binding('bind-a').toString('hex'), wantReq.toString('hex'));
  const a = await send('POST', `/api/v1/namespaces/${NS}/pods/bind-a/binding`, binding('bind-a'));
  assert.equal(a.status, 201, a.text);
  assert.equal(a.raw.toString('hex'), SUCCESS_201.toString('hex'));
  const b = await send('POST', `/api/v1/namespaces/${NS}/bindings`, binding('bind-b'));
  assert.equal(b.status, 201, b.text);
  assert.equal(b.raw.toString('hex'), SUCCESS_201.toString('hex'));
  for (const n of ['bind-a', 'bind-b']) assert.equal((await srv.request('GET', `/api/v1/namespaces/${NS}/pods/${n}`)).json().spec.nodeName, 'node-1');

  await makePod('evicted');
  const eviction = encodeProtobuf({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evicted', namespace: NS }, deleteOptions: { gracePeriodSeconds: 0 } });
  const e = await send('POST', `/api/v1/namespaces/${NS}/pods/evicted/eviction`, eviction);
  assert.equal(e.status, 201, e.text);
  assert.equal(e.raw.toString('hex'), SUCCESS_201.toString('hex'));
  await eventually('evicted pod gone', async () => (await srv.request('GET', `/api/v1/namespaces/${NS}/pods/evicted`)).status === 404);
});

void test('TokenRequest and the reviews in protobuf: request decoded, answer encoded', async () => {
  assert.equal((await srv.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } } })).status, 201);
  // No audiences: the token is for the API server's own, so the TokenReview below accepts it.
  const tr = await send('POST', `/api/v1/namespaces/${NS}/serviceaccounts/robot/token`,
    encodeProtobuf({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { expirationSeconds: 3600 } }));
  assert.equal(tr.status, 201, tr.text);
  assert.deepEqual(decodeEnvelope(tr.raw).kind, 'TokenRequest');
  const token = pbObject(tr);
  assert.equal(token.apiVersion, 'authentication.k8s.io/v1');
  assert.equal(token.spec.expirationSeconds, 3600);
  assert.ok(typeof token.status.token === 'string' && token.status.token.split('.').length === 3);
  assert.ok(token.status.expirationTimestamp);

  const review = pbObject(await send('POST', '/apis/authentication.k8s.io/v1/tokenreviews',
    encodeProtobuf({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token: token.status.token } })));
  assert.equal(review.kind, 'TokenReview');
  assert.equal(review.status.authenticated, true);
  assert.equal(review.status.user.username, `system:serviceaccount:${NS}:robot`);

  const attrs = { verb: 'get', resource: 'pods', namespace: NS };
  const cases: Array<[string, Record<string, unknown>, (o: any) => void]> = [
    ['/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } }, (o) => assert.equal(o.status.allowed, true)],
    ['/apis/authorization.k8s.io/v1/subjectaccessreviews', { kind: 'SubjectAccessReview', spec: { user: 'nobody', resourceAttributes: attrs } }, (o) => assert.equal(o.status.allowed, undefined)],
    [`/apis/authorization.k8s.io/v1/namespaces/${NS}/localsubjectaccessreviews`, { kind: 'LocalSubjectAccessReview', metadata: { namespace: NS }, spec: { user: 'nobody', groups: ['system:masters'], resourceAttributes: attrs } }, (o) => assert.equal(o.status.allowed, true)],
    ['/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { kind: 'SelfSubjectRulesReview', spec: { namespace: NS } }, (o) => assert.ok(o.status.resourceRules.length > 0)],
    ['/apis/authentication.k8s.io/v1/selfsubjectreviews', { kind: 'SelfSubjectReview' }, (o) => assert.ok(o.status.userInfo.username)],
  ];
  for (const [path, body, check] of cases) {
    const apiVersion = path.includes('authentication') ? 'authentication.k8s.io/v1' : 'authorization.k8s.io/v1';
    const r = await send('POST', path, encodeProtobuf({ apiVersion, metadata: {}, ...body } as unknown as { apiVersion: string; kind: string }));
    assert.equal(r.status, 201, `${path}: ${r.text.slice(0, 300)}`);
    const o = pbObject(r);
    assert.equal(o.kind, body['kind']);
    check(o);
  }
});

void test('Scale in protobuf for deployments, replicasets, statefulsets and replicationcontrollers', async () => {
  const template = { metadata: { labels: { app: 'sc' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  const objs: Array<[string, Record<string, unknown>]> = [
    [`/apis/apps/v1/namespaces/${NS}/deployments`, deployment('sc')],
    [`/apis/apps/v1/namespaces/${NS}/replicasets`, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'sc' }, spec: { replicas: 1, selector: { matchLabels: { app: 'sc' } }, template } }],
    [`/apis/apps/v1/namespaces/${NS}/statefulsets`, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'sc' }, spec: { replicas: 1, serviceName: 'sc', selector: { matchLabels: { app: 'sc' } }, template } }],
    [`/api/v1/namespaces/${NS}/replicationcontrollers`, { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'sc' }, spec: { replicas: 1, selector: { app: 'sc' }, template } }],
  ];
  for (const [coll, obj] of objs) {
    const c = await srv.request('POST', coll, { body: obj });
    assert.equal(c.status, 201, c.text);
    const scalePath = `${coll}/sc/scale`;
    const got = pbObject(await send('GET', scalePath));
    assert.equal(got.kind, 'Scale');
    assert.equal(got.apiVersion, 'autoscaling/v1');
    assert.equal(got.spec.replicas, 1);
    const put = await send('PUT', scalePath, encodeProtobuf({ ...got, spec: { replicas: 3 } }));
    assert.equal(put.status, 200, `${scalePath}: ${put.text.slice(0, 300)}`);
    const scaled = pbObject(put);
    assert.equal(scaled.kind, 'Scale');
    assert.equal(scaled.spec.replicas, 3);
    assert.equal((await srv.request('GET', `${coll}/sc`)).json().spec.replicas, 3, coll);
  }
});

void test('CertificateSigningRequest approval PUT in protobuf', async () => {
  const { webcrypto } = await import('node:crypto');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as never);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const pem = (await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=bob', keys, signingAlgorithm: alg })).toString('pem');
  const create = await send('POST', '/apis/certificates.k8s.io/v1/certificatesigningrequests', encodeProtobuf({
    apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bob' },
    spec: { request: Buffer.from(pem).toString('base64'), signerName: 'example.com/signer', usages: ['client auth'] },
  }));
  assert.equal(create.status, 201, create.text);
  const csr = pbObject(create);
  csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'PBTest', message: 'approved over protobuf' }] };
  const put = await send('PUT', '/apis/certificates.k8s.io/v1/certificatesigningrequests/bob/approval', encodeProtobuf(csr));
  assert.equal(put.status, 200, put.text);
  const approved = pbObject(put);
  assert.equal(approved.status.conditions[0].type, 'Approved');
  assert.equal(approved.status.conditions[0].reason, 'PBTest');
  const got = pbObject(await send('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests/bob/approval'));
  assert.equal(got.status.conditions[0].type, 'Approved');
});

// ---- errors and watches ------------------------------------------------------------------------------------

void test('errors are a protobuf Status for protobuf clients (v1/Status envelope)', async () => {
  const r = await send('GET', `/apis/apps/v1/namespaces/${NS}/deployments/nope`);
  assert.equal(r.status, 404);
  assert.equal(r.raw.toString('hex'), statusBytes({
    status: 'Failure', message: 'deployments.apps "nope" not found', reason: 'NotFound', code: 404, details: { name: 'nope', group: 'apps', kind: 'deployments' },
  }).toString('hex'));
});

/** Splits a protobuf watch body into events: 4-byte big-endian length, WatchEvent{1: type, 2: RawExtension{1: raw}}. */
function watchEvents(body: Buffer): Array<{ type: string; raw: Buffer }> {
  const out: Array<{ type: string; raw: Buffer }> = [];
  let off = 0;
  while (off < body.length) {
    const len = body.readUInt32BE(off);
    const ev = body.subarray(off + 4, off + 4 + len);
    off += 4 + len;
    // type: 0a <len> <type>; object: 12 <varint len> (0a <varint len> <raw>)
    assert.equal(ev[0], 0x0a);
    const typeLen = ev[1]!;
    const type = ev.subarray(2, 2 + typeLen).toString();
    let p = 2 + typeLen;
    assert.equal(ev[p], 0x12);
    p += 1;
    const readVarint = () => { let v = 0; let s = 1; for (;;) { const b = ev[p++]!; v += (b & 0x7f) * s; if (b < 0x80) return v; s *= 128; } };
    const extLen = readVarint();
    const extEnd = p + extLen;
    assert.equal(ev[p], 0x0a);
    p += 1;
    const rawLen = readVarint();
    out.push({ type, raw: Buffer.from(ev.subarray(p, p + rawLen)) });
    assert.equal(p + rawLen, extEnd);
    assert.equal(extEnd, ev.length);
  }
  return out;
}

void test('a protobuf watch sends length-prefixed WatchEvents around the enveloped object', async () => {
  const c = await srv.request('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap('watched') });
  assert.equal(c.status, 201);
  const rv = c.json().metadata.resourceVersion as string;
  const w = await srv.request('GET', `/api/v1/namespaces/${NS}/configmaps?watch=1&fieldSelector=metadata.name%3Dwatched&timeoutSeconds=1`, { headers: CLIENT_GO });
  assert.equal(w.status, 200);
  assert.equal(w.headers['content-type'], `${PB};stream=watch`);
  const events = watchEvents(w.raw);
  assert.equal(events.length, 1);
  assert.equal(events[0]!.type, 'ADDED');
  const get = await send('GET', `/api/v1/namespaces/${NS}/configmaps/watched?resourceVersion=${rv}`);
  assert.equal(events[0]!.raw.toString('hex'), get.raw.toString('hex'), 'the object as GET encodes it');
});

void test('a protobuf watch from a compacted resourceVersion ends with an ERROR event holding a v1 Status (410 Expired)', async () => {
  const short = await startTestServer({ historyRetentionMs: 300 } as ServerOptions);
  try {
    const coll = '/api/v1/namespaces/default/configmaps';
    assert.equal((await short.request('POST', coll, { body: configMap('first') })).status, 201);
    const old = (await short.request('GET', coll)).json().metadata.resourceVersion as string;
    const err = await eventually('rv compacted', async () => {
      await short.request('POST', coll, { body: configMap(`w-${Date.now()}`) });
      await new Promise((res) => setTimeout(res, 300));
      const w = await short.request('GET', `${coll}?watch=1&resourceVersion=${old}&timeoutSeconds=1`, { headers: CLIENT_GO });
      const events = watchEvents(w.raw);
      return events.length === 1 && events[0]!.type === 'ERROR' ? events[0] : undefined;
    }, 20_000);
    const status = decodeProtobuf(err.raw) as any;
    assert.match(status.message, /^too old resource version: \d+ \(\d+\)$/);
    assert.equal(err.raw.toString('hex'), statusBytes({ status: 'Failure', message: status.message, reason: 'Expired', code: 410 }).toString('hex'));
  } finally {
    await short.stop();
  }
});
