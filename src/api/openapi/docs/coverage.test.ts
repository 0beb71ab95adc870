/**
 * The descriptions kubectl explain prints: every message and field of every package with a docs file is described,
 * the served OpenAPI documents carry those descriptions on every definition and property, every key of a docs
 * file names a real field, and every text is ours (one line, a period at the end, at most 400 characters, never
 * equal to one of kube's field descriptions — test/fixtures/kube-v1.32/description-digests.json). The few phrases
 * taken from kube on purpose, because conformance matches them, are listed in INTERFACE below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import '../../protobuf/messages/index.ts';
import { allMessageNames, messageSpec } from '../../protobuf/schema.ts';
import { documentedPackages, fieldDoc, packageDocs, typeDoc } from './index.ts';
import { hasTypeMeta } from '../kinds.ts';
import { definitionNameOf, type Schema } from '../generate.ts';
import { builtinCatalog } from '../../../registry/resources/groups/index.ts';
import { swaggerV2, v3Document, v3Keys } from '../../../endpoints/openapi/documents.ts';
import { createProtobufSchemaSource } from '../../../endpoints/openapi/protobuf-source.ts';
import { CRD_DOCS } from '../../../apiextensions/schema/openapi.ts';
import { readKubeJson } from '../../../../test/support/kube-reference.ts';

/**
 * Texts that open with kube's words because a client or the conformance suite matches them (an interface, like an
 * error message). The rest of each text is ours; none equals kube's description.
 */
const INTERFACE: ReadonlyArray<{ where: string; text: string; phrase: string; why: string }> = [
  { where: 'meta.ObjectMeta.creationTimestamp', text: fieldDoc('meta.ObjectMeta', 'creationTimestamp') ?? '', phrase: 'CreationTimestamp is a timestamp', why: 'conformance: kubectl explain <crd>.metadata must match it' },
  { where: 'custom resource apiVersion', text: CRD_DOCS.apiVersion, phrase: 'APIVersion defines', why: 'conformance: kubectl explain <crd> must match it' },
  { where: 'custom resource metadata', text: CRD_DOCS.metadata, phrase: 'Standard object\'s metadata', why: 'conformance: kubectl explain <crd> and <crd>.metadata must match it' },
];

const kubeTexts = new Set(readKubeJson<{ digests: string[] }>('description-digests.json').digests);
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** What is wrong with a description, if anything. */
function problem(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return 'missing';
  if (!/^\S[^\n]*\.$/.test(text)) return 'not one line ending with a period';
  if (text.length > 400) return `${text.length} characters (at most 400)`;
  if (/\s{2}/.test(text)) return 'double space';
  if (kubeTexts.has(digest(text))) return 'equals kube\'s documentation text';
  return undefined;
}

const pkgOf = (name: string) => name.slice(0, name.lastIndexOf('.'));

function messagesByPackage(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of allMessageNames()) out.set(pkgOf(name), [...(out.get(pkgOf(name)) ?? []), name]);
  return out;
}

/** JSON names of the fields a message's object has, including those lifted from embedded structs. */
function jsonFields(name: string): Set<string> {
  const out = new Set<string>();
  for (const f of messageSpec(name).declared) {
    if (f.inline && f.type.kind === 'message') for (const j of jsonFields(f.type.name)) out.add(j);
    else out.add(f.json);
  }
  return out;
}

void test('every message and field of a documented package has a description of our own', () => {
  assert.ok(kubeTexts.size > 1000, `only ${kubeTexts.size} kube descriptions`);
  const documented = new Set(documentedPackages());
  assert.ok(['meta', 'util', 'runtime'].every((p) => documented.has(p)), 'the meta, util and runtime docs are loaded');
  const bad: string[] = [];
  let checked = 0;
  for (const [pkg, names] of messagesByPackage()) {
    if (!documented.has(pkg)) continue;
    for (const name of names) {
      const p = problem(typeDoc(name));
      if (p) bad.push(`${name}: ${p}`);
      for (const f of messageSpec(name).declared) {
        if (f.inline) continue; // described on the embedded type
        checked++;
        const q = problem(fieldDoc(name, f.json));
        if (q) bad.push(`${name}.${f.json}: ${q}`);
      }
    }
  }
  assert.deepEqual(bad, [], `${bad.length} problems:\n${bad.join('\n')}`);
  assert.ok(checked > 100, `only ${checked} fields checked`);
});

void test('every key of a docs file names a message of its package and one of its fields', () => {
  const stray: string[] = [];
  for (const pkg of documentedPackages()) {
    for (const [type, docs] of Object.entries(packageDocs(pkg) ?? {})) {
      const name = `${pkg}.${type}`;
      if (!allMessageNames().includes(name)) {
        stray.push(`${name}: no such message`);
        continue;
      }
      const fields = jsonFields(name);
      for (const key of Object.keys(docs)) {
        if (key === '$' || fields.has(key)) continue;
        if ((key === 'apiVersion' || key === 'kind') && hasTypeMeta(name)) continue;
        stray.push(`${name}.${key}: no such field`);
      }
    }
  }
  assert.deepEqual(stray, [], stray.join('\n'));
});

void test('the phrases kube\'s conformance matches are there, and nothing else is kube\'s text', () => {
  for (const i of INTERFACE) {
    assert.ok(i.text.startsWith(i.phrase), `${i.where} must open with "${i.phrase}" (${i.why}): ${i.text}`);
    assert.equal(problem(i.text), undefined, `${i.where}: ${problem(i.text)}`);
  }
  for (const [k, v] of Object.entries(CRD_DOCS)) {
    const text = typeof v === 'function' ? v('Widget') : v;
    assert.equal(problem(text), undefined, `CRD_DOCS.${k}: ${problem(text)}`);
  }
});

/** Every definition of the served documents that comes from a documented package, described throughout. */
function undescribed(defs: Record<string, Schema>, where: string, ofDefinition: Map<string, string>, documented: Set<string>, out: string[]): number {
  let n = 0;
  for (const [defName, d] of Object.entries(defs)) {
    const msg = ofDefinition.get(defName);
    if (!msg || !documented.has(pkgOf(msg))) continue;
    n++;
    if (!d['description']) out.push(`${where} ${defName}: no description`);
    for (const [p, s] of Object.entries((d['properties'] ?? {}) as Record<string, Schema>)) {
      if (!s['description']) out.push(`${where} ${defName}.${p}: no description`);
    }
  }
  return n;
}

void test('the served OpenAPI documents (v2 and every v3 document) carry the descriptions', () => {
  const catalog = builtinCatalog();
  const opts = { schemas: createProtobufSchemaSource(), patchContentTypes: [] };
  const ofDefinition = new Map(allMessageNames().map((m) => [definitionNameOf(m), m]));
  const documented = new Set(documentedPackages());
  const missing: string[] = [];
  const v2 = swaggerV2(catalog, opts) as { definitions: Record<string, Schema> };
  let n = undescribed(v2.definitions, 'v2', ofDefinition, documented, missing);
  for (const key of v3Keys(catalog)) {
    const doc = v3Document(catalog, key, opts) as { components: { schemas: Record<string, Schema> } };
    n += undescribed(doc.components.schemas, `v3 ${key}`, ofDefinition, documented, missing);
  }
  assert.ok(n > 50, `only ${n} definitions from documented packages`);
  assert.deepEqual(missing, [], `${missing.length} without description:\n${missing.slice(0, 200).join('\n')}`);
});

void test('every protobuf package has a docs file', () => {
  const undocumented = [...messagesByPackage().keys()].filter((p) => !documentedPackages().includes(p)).sort();
  assert.deepEqual(undocumented, []);
});
