import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import '../../protobuf/messages/index.ts';
import { allMessageNames, messageSpec } from '../../protobuf/schema.ts';
import { documentedPackages, fieldDoc, typeDoc } from './index.ts';
import { readKubeJson } from '../../../../test/support/kube-reference.ts';

/**
 * Every package but meta, util, runtime and core.v1 (documented elsewhere): each message and each field that is
 * not an inline pseudo-field has a description of our own, one or two sentences, ending with a period.
 */
const OTHERS = new Set(['meta', 'util', 'runtime', 'core.v1']);

const kubeTexts = new Set(readKubeJson<{ digests: string[] }>('description-digests.json').digests);
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function myMessages(): Map<string, string[]> {
  const byPkg = new Map<string, string[]>();
  for (const name of allMessageNames()) {
    const pkg = name.slice(0, name.lastIndexOf('.'));
    if (OTHERS.has(pkg)) continue;
    byPkg.set(pkg, [...(byPkg.get(pkg) ?? []), name]);
  }
  return byPkg;
}

function problem(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return 'missing';
  if (!/^\S[^\n]*\.$/.test(text)) return 'not one line ending with a period';
  if (text.length > 400) return `${text.length} characters (max 400)`;
  if (/\s{2}/.test(text)) return 'double space';
  if (kubeTexts.has(digest(text))) return 'equals kube\'s documentation text';
  return undefined;
}

void test('every message and field of the non-core packages has a description of our own', () => {
  const byPkg = myMessages();
  assert.ok(byPkg.size >= 38, `only ${byPkg.size} packages`);
  assert.ok(kubeTexts.size > 1000, `only ${kubeTexts.size} kube descriptions`);
  const bad: string[] = [];
  const documented = new Set(documentedPackages());
  for (const [pkg, names] of byPkg) {
    if (!documented.has(pkg)) {
      bad.push(`${pkg}: no defineDocs call`);
      continue;
    }
    for (const name of names) {
      const p = problem(typeDoc(name));
      if (p) bad.push(`${name}: ${p}`);
      for (const f of messageSpec(name).declared) {
        if (f.inline) continue;
        const q = problem(fieldDoc(name, f.json));
        if (q) bad.push(`${name}.${f.json}: ${q}`);
      }
    }
  }
  assert.deepEqual(bad, [], `${bad.length} problems:\n${bad.join('\n')}`);
});

void test('each non-core docs file is named after its package and names only messages and fields that exist', async () => {
  const byPkg = myMessages();
  const stray: string[] = [];
  const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'define.ts' && f !== 'index.ts');
  for (const file of files) {
    const pkg = file.slice(0, -3);
    // Other modules here (the core packages' docs, helpers) are not this test's business.
    if (OTHERS.has(pkg) || !byPkg.has(pkg)) continue;
    // Each of these files exports the table it passes to defineDocs.
    const table = ((await import(`./${file}`)) as { default?: Record<string, Record<string, string>> }).default;
    if (!table) {
      stray.push(`${file}: no default export`);
      continue;
    }
    for (const [type, docs] of Object.entries(table)) {
      const name = `${pkg}.${type}`;
      if (!byPkg.get(pkg)!.includes(name)) {
        stray.push(`${name}: no such message`);
        continue;
      }
      const spec = messageSpec(name);
      for (const key of Object.keys(docs)) {
        if (key === '$') continue;
        const f = spec.byJson.get(key);
        if (!f) stray.push(`${name}.${key}: no such field`);
        else if (f.inline) stray.push(`${name}.${key}: inline pseudo-field`);
      }
    }
  }
  for (const pkg of byPkg.keys()) if (!files.includes(`${pkg}.ts`)) stray.push(`${pkg}: no docs/${pkg}.ts`);
  assert.deepEqual(stray, [], stray.join('\n'));
});

void test('distinct descriptions across the non-core packages', () => {
  const texts = new Set<string>();
  let fields = 0;
  for (const [, names] of myMessages()) {
    for (const name of names) {
      const t = typeDoc(name);
      if (t) texts.add(t);
      for (const f of messageSpec(name).declared) {
        const d = f.inline ? undefined : fieldDoc(name, f.json);
        if (d === undefined) continue;
        fields++;
        texts.add(d);
      }
    }
  }
  // Far fewer distinct texts than entries would mean copy-paste where versions or types differ.
  assert.ok(texts.size * 2 > fields, `${texts.size} distinct texts for ${fields} fields`);
});
