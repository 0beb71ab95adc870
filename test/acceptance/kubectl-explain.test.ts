/**
 * Acceptance: `kubectl explain` (kubectl 1.33) prints our descriptions, from /openapi/v3 (its default) and from
 * /openapi/v2 (`--output=plaintext-openapiv2`): built-in fields (not `<empty>`), and custom resources as the
 * conformance suite checks them ("[sig-api-machinery] CustomResourcePublishOpenAPI", whose `kubectl explain`
 * patterns are copied below): the kind's and fields' descriptions from the CRD schema, `APIVersion defines` on
 * apiVersion, `Standard object's metadata` on metadata and `CreationTimestamp is a timestamp` in ObjectMeta.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectlFor, kubectlMissingReason } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { fieldDoc } from '../../src/api/openapi/docs/index.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl explain acceptance: ${skip}\n`);

let srv: TestServer | undefined;
const { k, ok } = kubectlFor(() => srv!.kubeconfigPath);

// The conformance test's schemas (test/e2e/apimachinery/crd_publish_openapi.go), as its CRDs carry them.
const schemaFoo = {
  description: 'Foo CRD for Testing', type: 'object',
  properties: {
    spec: {
      type: 'object', description: 'Specification of Foo',
      properties: {
        bars: {
          description: 'List of Bars and their specs.', type: 'array',
          items: {
            type: 'object', required: ['name'],
            properties: {
              name: { description: 'Name of Bar.', type: 'string' },
              age: { description: 'Age of Bar.', type: 'string' },
              feeling: { description: 'Whether Bar is feeling great.', type: 'string', enum: ['Great', 'Down'] },
              bazs: { description: 'List of Bazs.', items: { type: 'string' }, type: 'array' },
            },
          },
        },
      },
    },
    status: {
      description: 'Status of Foo', type: 'object',
      properties: {
        bars: {
          description: 'List of Bars and their statuses.', type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { description: 'Name of Bar.', type: 'string' },
              available: { description: 'Whether the Bar is installed.', type: 'boolean' },
              quxType: { description: 'Indicates to external qux type.', pattern: 'in-tree|out-of-tree', type: 'string' },
            },
          },
        },
      },
    },
  },
};
const waldoParts = {
  spec: { description: 'Specification of Waldo', type: 'object', properties: { dummy: { description: 'Dummy property.', type: 'object' } } },
  status: { description: 'Status of Waldo', type: 'object', properties: { bars: { description: 'List of Bars and their statuses.', type: 'array', items: { type: 'object' } } } },
};
const schemaPreserveRoot = { description: 'preserve-unknown-properties at root for Testing', 'x-kubernetes-preserve-unknown-fields': true, type: 'object', properties: waldoParts };
const schemaPreserveNested = {
  description: 'preserve-unknown-properties in nested field for Testing', type: 'object',
  properties: { ...waldoParts, spec: { ...waldoParts.spec, 'x-kubernetes-preserve-unknown-fields': true } },
};
// A CRD without a schema: the conformance test gives it `x-kubernetes-preserve-unknown-fields: true, type: object`.
const schemaNone = { 'x-kubernetes-preserve-unknown-fields': true, type: 'object' };

function crd(suffix: string, kind: string, plural: string, schema: object) {
  const group = `crd-publish-openapi-test-${suffix}.example.com`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

const CRDS = [
  crd('foo', 'E2eTestCrdPublishOpenapi1Crd', 'e2e-test-crd-publish-openapi-1-crds', schemaFoo),
  crd('empty', 'E2eTestCrdPublishOpenapi2Crd', 'e2e-test-crd-publish-openapi-2-crds', schemaNone),
  crd('unknown-at-root', 'E2eTestCrdPublishOpenapi3Crd', 'e2e-test-crd-publish-openapi-3-crds', schemaPreserveRoot),
  crd('unknown-in-nested', 'E2eTestCrdPublishOpenapi4Crd', 'e2e-test-crd-publish-openapi-4-crds', schemaPreserveNested),
];

before(async () => {
  if (skip) return;
  srv = await startTestServer({ authorizationMode: ['AlwaysAllow'] });
  await ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: CRDS }));
  await ok(['wait', '--for=condition=Established', '--timeout=30s', ...CRDS.map((c) => `crd/${c.metadata.name}`)]);
});
after(async () => { await srv?.stop(); });

/** Text with kubectl's line wrapping and indentation undone. */
const flat = (s: string) => s.replace(/\s+/g, ' ');

const BUILT_IN: ReadonlyArray<{ path: string; message: string; field: string }> = [
  { path: 'deployment.spec.replicas', message: 'apps.v1.DeploymentSpec', field: 'replicas' },
  { path: 'pod.spec.containers.resources', message: 'core.v1.Container', field: 'resources' },
  { path: 'configmap.data', message: 'core.v1.ConfigMap', field: 'data' },
  { path: 'service.spec.type', message: 'core.v1.ServiceSpec', field: 'type' },
];

for (const { path, message, field } of BUILT_IN) {
  void test(`kubectl explain ${path} prints our description (v3 and v2)`, { skip }, async () => {
    const doc = fieldDoc(message, field);
    assert.ok(doc, `${message}.${field} is described`);
    for (const extra of [[], ['--output=plaintext-openapiv2']]) {
      const out = await ok(['explain', path, ...extra]);
      assert.match(out, /DESCRIPTION:/);
      assert.doesNotMatch(out, /<empty>/, `${path} ${extra.join(' ')}`);
      assert.ok(flat(out).includes(flat(doc)), `${path} ${extra.join(' ')} prints the description:\n${out}`);
    }
  });
}

void test('kubectl explain of a kind prints the descriptions of its fields, apiVersion and kind included (v3 and v2)', { skip }, async () => {
  for (const extra of [[], ['--output=plaintext-openapiv2']]) {
    const out = flat(await ok(['explain', 'configmap', ...extra]));
    for (const f of ['immutable', 'data', 'binaryData']) assert.ok(out.includes(flat(fieldDoc('core.v1.ConfigMap', f)!)), `${f} ${extra.join(' ')}`);
    assert.ok(out.includes(flat(fieldDoc('meta.TypeMeta', 'apiVersion')!)), `apiVersion ${extra.join(' ')}`);
    assert.ok(out.includes(flat(fieldDoc('meta.TypeMeta', 'kind')!)), `kind ${extra.join(' ')}`);
    assert.doesNotMatch(out, /<no description>/);
  }
});

/** `kubectl explain <name>` must match a conformance pattern (RE2 `(?s)` written as JavaScript's `s` flag). */
async function explainMatches(name: string, pattern: RegExp, extra: string[] = []): Promise<void> {
  const out = await ok(['explain', name, ...extra]);
  assert.match(out, pattern, `kubectl explain ${name} ${extra.join(' ')}`);
}

void test('conformance: CustomResourcePublishOpenAPI works for CRD with validation schema (kubectl explain)', { skip }, async () => {
  const plural = CRDS[0]!.spec.names.plural;
  await explainMatches(plural, /DESCRIPTION:.*Foo CRD for Testing.*FIELDS:.*apiVersion.*<string>.*APIVersion defines.*spec.*<Object>.*Specification of Foo/s);
  await explainMatches(`${plural}.metadata`, /DESCRIPTION:.*Standard object's metadata.*FIELDS:.*creationTimestamp.*<string>.*CreationTimestamp is a timestamp/s);
  await explainMatches(`${plural}.spec`, /DESCRIPTION:.*Specification of Foo.*FIELDS:.*bars.*<\[\]Object>.*List of Bars and their specs/s);
  await explainMatches(`${plural}.spec.bars`, /(FIELD|RESOURCE):.*bars.*<\[\]Object>.*DESCRIPTION:.*List of Bars and their specs.*FIELDS:.*bazs.*<\[\]string>.*List of Bazs.*name.*<string>.*Name of Bar/s);
  const bad = await k(['explain', `${plural}.spec.bars2`]);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /field "bars2" does not exist/);
  // The same descriptions through Swagger 2.0.
  await explainMatches(plural, /DESCRIPTION:.*Foo CRD for Testing.*FIELDS:.*apiVersion.*<string>.*APIVersion defines.*metadata.*Standard object's metadata.*spec.*<Object>.*Specification of Foo/s, ['--output=plaintext-openapiv2']);
  await explainMatches(`${plural}.metadata.creationTimestamp`, /DESCRIPTION:.*CreationTimestamp is a timestamp/s, ['--output=plaintext-openapiv2']);
});

void test('conformance: CustomResourcePublishOpenAPI works for CRD without validation schema, preserving unknown fields at the root or nested (kubectl explain)', { skip }, async () => {
  await explainMatches(CRDS[1]!.spec.names.plural, /DESCRIPTION:.*<empty>/s);
  await explainMatches(CRDS[2]!.spec.names.plural, new RegExp(`KIND:.*${CRDS[2]!.spec.names.kind}`, 's'));
  await explainMatches(CRDS[3]!.spec.names.plural, /DESCRIPTION:.*preserve-unknown-properties in nested field for Testing/s);
});
