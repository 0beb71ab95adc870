import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import { EquivalentResources, type NamespaceLabels } from '../matching/index.ts';
import { denial, MutatingDispatcher, ValidatingDispatcher, type DispatchDeps } from './dispatch.ts';
import { encodeReview, verifyReply } from './review.ts';
import { EndpointServiceResolver } from './service-resolver.ts';
import { webhooksOf, type Webhook } from './source.ts';
import type { WebhookTransport } from './transport.ts';

type J = Record<string, any>;

/** A registry holding a few objects per resource, as storage would return them. */
function registry(objects: Record<string, KObject[]>): RestRegistry {
  return {
    lookup(_g: string, _v: string, resource: string) {
      const items = objects[resource];
      if (!items) return undefined;
      return {
        async get(_ctx: unknown, name: string) {
          const o = items.find((i) => i.metadata.name === name);
          if (!o) throw Object.assign(new Error('not found'), { code: 404 });
          return { object: o };
        },
        async list(_ctx: unknown, p: { labelSelector?: string }) {
          const [k, v] = (p.labelSelector ?? '=').split('=');
          return { items: items.filter((i) => !k || i.metadata.labels?.[k] === v).map((object) => ({ object })) };
        },
      };
    },
  } as unknown as RestRegistry;
}

const service = (spec: J): KObject => ({ metadata: { name: 'hooks', namespace: 'ns' }, spec } as KObject);

void test('service resolution: Endpoints by port name, EndpointSlices when there are none, ExternalName, kube\'s errors', async () => {
  const svc = service({ ports: [{ name: 'https', port: 443, targetPort: 8443 }] });
  const eps = { metadata: { name: 'hooks' }, subsets: [{ addresses: [{ ip: '10.0.0.5' }], ports: [{ name: 'https', port: 8443 }] }] } as unknown as KObject;
  assert.deepEqual(await new EndpointServiceResolver(registry({ services: [svc], endpoints: [eps] })).resolve('ns', 'hooks', 443), { host: '10.0.0.5', port: 8443 });
  const slice = {
    metadata: { name: 'hooks-abc', labels: { 'kubernetes.io/service-name': 'hooks' } }, addressType: 'IPv4',
    ports: [{ name: 'https', port: 9443 }], endpoints: [{ addresses: ['10.0.0.7'], conditions: { ready: true } }, { addresses: ['10.0.0.8'], conditions: { ready: false } }],
  } as unknown as KObject;
  assert.deepEqual(await new EndpointServiceResolver(registry({ services: [svc], endpoints: [], endpointslices: [slice] })).resolve('ns', 'hooks', 443), { host: '10.0.0.7', port: 9443 });
  const ext = new EndpointServiceResolver(registry({ services: [service({ type: 'ExternalName', externalName: 'hooks.example.com' })] }));
  assert.deepEqual(await ext.resolve('ns', 'hooks', 8443), { host: 'hooks.example.com', port: 8443 });
  const none = new EndpointServiceResolver(registry({ services: [], endpoints: [] }));
  await assert.rejects(none.resolve('ns', 'hooks', 443), { message: 'service "hooks" not found' });
  const noPort = new EndpointServiceResolver(registry({ services: [svc], endpoints: [eps] }));
  await assert.rejects(noPort.resolve('ns', 'hooks', 444), { message: 'no service port 444 found for service "hooks"' });
  const empty = { metadata: { name: 'hooks' }, subsets: [] } as unknown as KObject;
  await assert.rejects(new EndpointServiceResolver(registry({ services: [svc], endpoints: [empty] })).resolve('ns', 'hooks', 443), { message: 'no endpoints available for service "hooks"' });
});

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const gvk = { group: '', version: 'v1', kind: 'ConfigMap' };
  const gvr = { group: '', version: 'v1', resource: 'configmaps' };
  return {
    operation: 'CREATE', kind: gvk, resource: gvr, subresource: '', requestKind: gvk, requestResource: gvr, requestSubResource: '',
    name: 'x', namespace: 'default', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: { a: 'b' } },
    oldObject: undefined, options: undefined, dryRun: false, user: { username: 'alice', groups: [] }, warnings: [], auditAnnotations: {},
    reinvocation: { requested: false, running: false }, ...over,
  };
}

const hooksOf = (webhooks: J[]): readonly Webhook[] =>
  webhooksOf({ metadata: { name: 'cfg', resourceVersion: '1' }, webhooks } as unknown as KObject);

const hook = (name: string, o: J = {}): J => ({
  name, clientConfig: { url: `https://127.0.0.1:1/${name}` }, sideEffects: 'None', admissionReviewVersions: ['v1'],
  rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }], ...o,
});

/** A transport answering each webhook (by URL path) with `reply(review)`'s response fields. */
function deps(reply: (name: string, review: J) => J): DispatchDeps & { calls: string[] } {
  const calls: string[] = [];
  const transport = {
    async post(cc: { url: string }, body: Buffer) {
      const review = JSON.parse(body.toString()) as J;
      const name = new URL(cc.url).pathname.slice(1);
      calls.push(name);
      const response = { uid: review.request.uid, ...reply(name, review) };
      return { status: 200, contentType: 'application/json', headers: {}, body: Buffer.from(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response })) };
    },
  } as unknown as WebhookTransport;
  return {
    calls, transport, namespaces: { labels: async () => ({}) } as unknown as NamespaceLabels, equivalents: new EquivalentResources(undefined),
    authorizer: () => undefined, log: () => {},
  };
}

const patch = (ops: unknown[]) => ({ patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' });

void test('dry run: a webhook with side effects refuses with kube\'s 400 and is never called', async () => {
  const d = deps(() => ({ allowed: true }));
  const v = new ValidatingDispatcher(d);
  const some = hooksOf([hook('some.example.com', { sideEffects: 'Some' })]);
  await assert.rejects(v.dispatch(attrs({ dryRun: true }), some), { code: 400, reason: 'BadRequest', message: 'admission webhook "some.example.com" does not support dry run' });
  await v.dispatch(attrs({ dryRun: true }), hooksOf([hook('none.example.com', { sideEffects: 'NoneOnDryRun' })]));
  await v.dispatch(attrs({ dryRun: false }), some);
  assert.deepEqual(d.calls, ['none.example.com', 'some.example.com']);
});

void test('validating: warnings and audit annotations kept; failurePolicy Ignore fails open with kube\'s annotation', async () => {
  const d = deps((name) => (name === 'broken.example.com' ? { allowed: true, patch: 'AAAA', patchType: 'JSONPatch' } : { allowed: true, warnings: ['w1'], auditAnnotations: { k: 'v' } }));
  const a = attrs();
  await new ValidatingDispatcher(d).dispatch(a, hooksOf([hook('ok.example.com'), hook('broken.example.com', { failurePolicy: 'Ignore' })]));
  assert.deepEqual(a.warnings, ['w1']);
  assert.deepEqual(a.auditAnnotations, { 'ok.example.com/k': 'v', 'failed-open.validating.webhook.admission.k8s.io/round_0_index_1': 'broken.example.com' });
  await assert.rejects(new ValidatingDispatcher(d).dispatch(attrs(), hooksOf([hook('broken.example.com')])), {
    code: 500, message: 'Internal error occurred: failed calling webhook "broken.example.com": received invalid webhook response: validating webhook may not return response.patch',
  });
});

void test('mutating: patches apply in order, unknown fields dropped, reinvocation IfNeeded runs a webhook again after a later change', async () => {
  let round = 0;
  const d = deps((name, review) => {
    const o = review.request.object;
    if (name === 'first.example.com') return { allowed: true, ...patch([{ op: 'add', path: '/metadata/labels', value: { ...(o.metadata.labels ?? {}), seen: String(++round) } }]) };
    return o.data.second ? { allowed: true } : { allowed: true, ...patch([{ op: 'add', path: '/data/second', value: 'yes' }, { op: 'add', path: '/bogus', value: 1 }]) };
  });
  const m = new MutatingDispatcher(d);
  const hooks = hooksOf([hook('first.example.com', { reinvocationPolicy: 'IfNeeded' }), hook('second.example.com')]);
  const a = attrs();
  await m.dispatch(a, hooks);
  assert.equal(a.reinvocation.requested, true);
  a.reinvocation.running = true;
  await m.dispatch(a, hooks);
  assert.deepEqual(d.calls, ['first.example.com', 'second.example.com', 'first.example.com']);
  assert.deepEqual(a.object?.metadata.labels, { seen: '2' });
  assert.deepEqual(a.object?.['data'], { a: 'b', second: 'yes' });
  assert.equal(a.object?.['bogus'], undefined, 'fields the kind does not have are dropped');
  assert.equal(a.auditAnnotations['mutation.webhook.admission.k8s.io/round_0_index_1'], '{"configuration":"cfg","webhook":"second.example.com","mutated":true}');
  assert.equal(a.auditAnnotations['mutation.webhook.admission.k8s.io/round_1_index_0'], '{"configuration":"cfg","webhook":"first.example.com","mutated":true}');
});

void test('denials carry the webhook\'s status in kube\'s words', () => {
  const e = denial('w.example.com', { code: 422, reason: 'Invalid', message: 'bad', details: { name: 'x' } });
  assert.equal(e.code, 422);
  assert.equal(e.message, 'admission webhook "w.example.com" denied the request: bad');
  assert.equal(denial('w.example.com', { code: 200 }).code, 400);
  assert.equal(denial('w.example.com', undefined).message, 'admission webhook "w.example.com" denied the request without explanation');
  assert.equal(denial('w.example.com', { reason: 'NotAllowed' }).message, 'admission webhook "w.example.com" denied the request: NotAllowed');
});

void test('AdmissionReview v1: kube\'s field order and nulls; v1 replies checked for uid and kind', () => {
  const a = attrs({ options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' } });
  const body = encodeReview({ uid: 'u1', version: 'v1', attrs: a, invocation: { resource: a.resource, subresource: '', kind: a.kind }, object: a.object, oldObject: undefined }).toString();
  assert.ok(body.endsWith('}\n'));
  const review = JSON.parse(body) as J;
  assert.deepEqual(Object.keys(review.request), ['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options']);
  assert.equal(review.request.oldObject, null);
  assert.throws(() => verifyReply('u1', false, 'v1', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'other', allowed: true } }), { message: 'expected response.uid="u1", got "other"' });
  assert.throws(() => verifyReply('u1', false, 'v1', { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u1', allowed: true } }),
    { message: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview' });
  assert.equal(verifyReply('zz', true, 'v1beta1', { response: { allowed: true } }).allowed, true, 'v1beta1 replies are not checked for uid');
});
