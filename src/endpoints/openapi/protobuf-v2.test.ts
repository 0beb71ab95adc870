import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeSwaggerProtobuf } from './protobuf-v2.ts';
import { swaggerV2 } from './documents.ts';
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { createOpenApiEndpoint, OPENAPI_V2_PROTOBUF } from './index.ts';
import { fakeContext } from '../discovery/testing/support.ts';

type Fields = Map<number, Array<Buffer | number>>;

/** Decodes one protobuf message into field number → values (varints as numbers, length-delimited as bytes). */
function decode(b: Buffer): Fields {
  const out: Fields = new Map();
  let i = 0;
  const varint = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      const byte = b[i++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 128;
    }
  };
  while (i < b.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key & 7;
    let val: Buffer | number;
    if (wire === 0) val = varint();
    else if (wire === 2) { const len = varint(); val = b.subarray(i, i + len); i += len; }
    else throw new Error(`unexpected wire type ${wire}`);
    const list = out.get(field) ?? [];
    list.push(val);
    out.set(field, list);
  }
  return out;
}
const str = (f: Fields, n: number) => (f.get(n)?.[0] as Buffer | undefined)?.toString('utf8');
const msgs = (f: Fields, n: number) => (f.get(n) ?? []).map((x) => decode(x as Buffer));

void test('the protobuf Swagger document carries paths, operations, parameters and GVK extensions', () => {
  const doc = swaggerV2(builtinCatalog(), { patchContentTypes: ['application/merge-patch+json'] });
  const pb = decode(encodeSwaggerProtobuf(doc));
  assert.equal(str(pb, 1), '2.0');
  assert.equal(str(msgs(pb, 2)[0]!, 1), 'Kubernetes');
  const paths = msgs(msgs(pb, 8)[0]!, 2);
  assert.equal(paths.length, Object.keys(doc['paths'] as object).length);
  const deploy = paths.find((p) => str(p, 1) === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}')!;
  const item = msgs(deploy, 2)[0]!;
  const patch = msgs(item, 8)[0]!;
  assert.equal(str(patch, 5), 'patchAppsV1NamespacedDeployment');
  // parameters: ParametersItem → Parameter(1) → NonBodyParameter(2) → QueryParameterSubSchema(3) → name(4)
  const names = msgs(patch, 8).map((pi) => {
    const param = msgs(pi, 1)[0]!;
    const nonBody = msgs(param, 2)[0];
    if (!nonBody) return 'body';
    return str(msgs(nonBody, 3)[0]!, 4);
  });
  assert.ok(names.includes('fieldValidation'));
  assert.ok(names.includes('body'));
  const ext = msgs(patch, 13).map((e) => [str(e, 1), str(msgs(e, 2)[0]!, 2)]);
  assert.deepEqual(ext.find((e) => e[0] === 'x-kubernetes-group-version-kind'), ['x-kubernetes-group-version-kind', JSON.stringify({ group: 'apps', kind: 'Deployment', version: 'v1' })]);
  const defs = msgs(msgs(pb, 9)[0]!, 1).map((d) => str(d, 1));
  assert.ok(defs.includes('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'));
  const sec = msgs(msgs(pb, 13)[0]!, 1)[0]!;
  assert.equal(str(sec, 1), 'BearerToken');
});

void test('/openapi/v2 negotiates protobuf with the content type Go clients can parse', async () => {
  const ep = createOpenApiEndpoint({ catalog: builtinCatalog(), warmAfterMs: -1 });
  const { ctx, done } = fakeContext('/openapi/v2', { headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
  await ep(ctx);
  const r = done();
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-type'], OPENAPI_V2_PROTOBUF);
  assert.equal(str(decode(r.body), 1), '2.0');
});
