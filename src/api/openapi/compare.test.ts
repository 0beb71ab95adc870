/**
 * Compares the OpenAPI definitions we generate from our type descriptions with kube-apiserver v1.32's
 * (test/fixtures/kube-v1.32/openapi: kube's published documents without their prose), definition by definition:
 * property names, types, formats, items/additionalProperties/$ref shapes, required fields, `x-kubernetes-*`
 * extensions and GVKs. Descriptions are our own and not compared. Every difference must be in ALLOWED below,
 * with its reason; anything else fails.
 */
import { builtinCatalog } from '../../registry/resources/groups/index.ts';
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { swaggerV2, v3Document, v3Keys } from '../../endpoints/openapi/documents.ts';
import { createProtobufSchemaSource } from '../../endpoints/openapi/protobuf-source.ts';
import { hasMessage } from '../protobuf/schema.ts';
import { collectDefinitions, type Dialect, type Schema } from './generate.ts';
import { ALLOWED, allowedReason } from './compare-allowlist.ts';
import { kubeReference } from '../../../test/support/kube-reference.ts';

const REF_DIR = kubeReference('openapi');
type Json = unknown;

/** Drops what we deliberately do not compare: prose (`description`, our own words). */
function strip(x: Json): Json {
  if (Array.isArray(x)) return x.map(strip);
  if (x && typeof x === 'object') {
    return Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'description').map(([k, v]) => [k, strip(v)]));
  }
  return x;
}

interface Diff { path: string; text: string }

/** Structural differences, as `Definition.properties.field.key` paths. */
function diff(path: string, ours: Json, kube: Json, out: Diff[]): void {
  if (JSON.stringify(ours) === JSON.stringify(kube)) return;
  if (ours && kube && typeof ours === 'object' && typeof kube === 'object' && !Array.isArray(ours) && !Array.isArray(kube)) {
    const a = ours as Record<string, Json>;
    const b = kube as Record<string, Json>;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diff(`${path}.${k}`, a[k], b[k], out);
    return;
  }
  out.push({ path, text: `ours ${JSON.stringify(ours)} kube ${JSON.stringify(kube)}` });
}

/** Known gap, not allow-listed one by one: kube's v3 zero-value `default` on non-pointer scalar fields depends on Go's omitempty. */
function isScalarDefaultGap(d: Diff, dialect: Dialect): boolean {
  return dialect === 'v3' && d.path.endsWith('.default') && d.text.startsWith('ours undefined kube ') && !d.text.endsWith('kube {}');
}

function compareDefinitions(ours: Record<string, Schema>, kube: Record<string, Schema>, dialect: Dialect): { unexplained: Diff[]; gaps: string[] } {
  const all: Diff[] = [];
  for (const [name, s] of Object.entries(ours)) {
    if (!kube[name]) all.push({ path: name, text: 'not in kube' });
    else diff(name, strip(s), strip(kube[name]), all);
  }
  const gaps: string[] = [];
  const unexplained = all.filter((d) => {
    if (isScalarDefaultGap(d, dialect)) {
      gaps.push(d.path);
      return false;
    }
    return allowedReason(d.path) === undefined;
  });
  return { unexplained, gaps };
}

const fmt = (ds: Diff[]) => ds.map((d) => `  ${d.path}: ${d.text}`).join('\n');

/** Kube's definition name back to our message name, when we describe that type. */
function messageOf(kubeName: string): string | undefined {
  const special: Record<string, string> = {
    'io.k8s.apimachinery.pkg.api.resource.Quantity': 'util.Quantity',
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'util.IntOrString',
    'io.k8s.apimachinery.pkg.runtime.RawExtension': 'runtime.RawExtension',
  };
  let m = special[kubeName];
  if (!m && kubeName.startsWith('io.k8s.api.')) m = kubeName.slice('io.k8s.api.'.length);
  if (!m && kubeName.startsWith('io.k8s.apimachinery.pkg.apis.meta.v1.')) m = `meta.${kubeName.slice('io.k8s.apimachinery.pkg.apis.meta.v1.'.length)}`;
  return m && hasMessage(m) ? m : undefined;
}

test('allow-list entries each give a reason', () => {
  for (const a of ALLOWED) assert.ok(a.reason.length > 10, `no reason for ${a.path}`);
});

test('v2: served kinds and their referenced definitions match kube-apiserver v1.32', () => {
  const kube = (JSON.parse(readFileSync(`${REF_DIR}/swagger.json`, 'utf8')) as { definitions: Record<string, Schema> }).definitions;
  const doc = swaggerV2(builtinCatalog(), { schemas: createProtobufSchemaSource(), patchContentTypes: [] }) as { definitions: Record<string, Schema> };
  const { unexplained } = compareDefinitions(doc.definitions, kube, 'v2');
  assert.equal(unexplained.length, 0, `unexplained differences from kube's swagger.json:\n${fmt(unexplained)}`);
  // Every definition kube's served kinds reach must be in our document too.
  const missing: string[] = [];
  const reach = (name: string, seen: Set<string>): void => {
    if (seen.has(name) || !kube[name]) return;
    seen.add(name);
    for (const m of JSON.stringify(kube[name]).matchAll(/#\/definitions\/([\w.-]+)/g)) reach(m[1]!, seen);
  };
  const seen = new Set<string>();
  for (const [name, s] of Object.entries(doc.definitions)) if (s['x-kubernetes-group-version-kind'] && kube[name]) reach(name, seen);
  for (const name of seen) if (!doc.definitions[name] && allowedReason(name) === undefined) missing.push(name);
  assert.deepEqual(missing, [], 'definitions kube references from our served kinds that we do not define');
});

test('v2: every kube definition we have a type description for matches (served or not)', () => {
  const kube = (JSON.parse(readFileSync(`${REF_DIR}/swagger.json`, 'utf8')) as { definitions: Record<string, Schema> }).definitions;
  const names = Object.keys(kube).filter((n) => messageOf(n) !== undefined);
  assert.ok(names.length > 500, `only ${names.length} kube definitions map to our descriptions`);
  const ours = collectDefinitions(names.map((n) => messageOf(n)!), 'v2');
  const picked = Object.fromEntries(names.map((n) => [n, ours[n]!]));
  const { unexplained } = compareDefinitions(picked, kube, 'v2');
  assert.equal(unexplained.length, 0, `unexplained differences:\n${fmt(unexplained)}`);
});

test('v3: each group version document matches kube-apiserver v1.32 definition by definition', () => {
  const catalog = builtinCatalog();
  const source = createProtobufSchemaSource();
  const unexplained: Diff[] = [];
  const gaps = new Set<string>();
  let compared = 0;
  for (const key of v3Keys(catalog)) {
    const file = `${REF_DIR}/v3/${key.replaceAll('/', '__')}_openapi.json`;
    if (!existsSync(file)) continue;
    const kube = (JSON.parse(readFileSync(file, 'utf8')) as { components?: { schemas?: Record<string, Schema> } }).components?.schemas ?? {};
    const ours = (v3Document(catalog, key, { schemas: source, patchContentTypes: [] }) as { components: { schemas: Record<string, Schema> } }).components.schemas;
    // Which meta definitions a document carries differs harmlessly; compare the shapes of those both have.
    const shared = Object.fromEntries(Object.entries(ours).filter(([n]) => kube[n] || !n.startsWith('io.k8s.apimachinery.')));
    const r = compareDefinitions(shared, kube, 'v3');
    compared += Object.keys(shared).length;
    for (const g of r.gaps) gaps.add(g);
    for (const d of r.unexplained) unexplained.push({ path: `${key}: ${d.path}`, text: d.text });
  }
  assert.ok(compared > 500, `compared only ${compared} definitions`);
  assert.equal(unexplained.length, 0, `unexplained differences from kube's v3 documents:\n${fmt(unexplained)}`);
  // Bounded so that a regression (e.g. losing object defaults) cannot hide in this bucket.
  assert.ok(gaps.size < 400, `scalar default gap grew to ${gaps.size}`);
});
