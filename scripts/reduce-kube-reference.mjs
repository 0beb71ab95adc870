#!/usr/bin/env node
// Makes the test fixtures under test/fixtures/kube-v1.32 from a recorded Kubernetes reference directory
// (openapi-v1.32/ and v1.32-responses/, see that directory's README):
//
//   node scripts/reduce-kube-reference.mjs <reference dir> [out dir, default test/fixtures/kube-v1.32]
//
// - responses/: the recorded kube-apiserver answers the tests read, copied byte for byte (the .pb files are byte
//   oracles), except that Table column descriptions (Kubernetes' API documentation) are emptied.
// - openapi/: the published OpenAPI documents reduced to facts: every schema, property name, type, format,
//   required, enum, items, $ref, allOf, additionalProperties, default and x-kubernetes-* extension, and the paths
//   with each operation's id, tags, action, kind and parameters; without descriptions, titles, summaries or other
//   prose, and without operations' request bodies and responses (no test reads them). Only the documents a test
//   opens are kept (swagger.json and the v3 documents of the API groups and /version).
// - description-digests.json: SHA-256 prefixes of Kubernetes' field and column descriptions, so that a test can
//   check our own column descriptions are not copies without the fixtures carrying the text.
//
// Deterministic: rerunning it on the same reference rewrites the same bytes. Plain Node, no dependencies.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [refArg, outArg] = process.argv.slice(2);
if (!refArg) {
  console.error('usage: node scripts/reduce-kube-reference.mjs <reference dir> [out dir, default test/fixtures/kube-v1.32]');
  process.exit(2);
}
const REF = resolve(refArg);
const OUT = outArg ? resolve(outArg) : fileURLToPath(new URL('../test/fixtures/kube-v1.32', import.meta.url));
const RESPONSES = join(REF, 'v1.32-responses');
const OPENAPI = join(REF, 'openapi-v1.32');
for (const d of [RESPONSES, OPENAPI]) if (!existsSync(d)) throw new Error(`${d} not found: is ${REF} a recorded reference directory?`);

/** Response files the tests name, and directories whose every file the tests enumerate. */
const RESPONSE_FILES = [
  'version.json', 'api.json', 'apis.json', 'api.aggregated-discovery.json', 'apis.aggregated-discovery.json', 'health.txt',
  'errors/400-bad-continue.json', 'errors/400-strict.json', 'errors/401-bad-token.json', 'errors/403-anonymous.json',
  'errors/404-get-missing.json', 'errors/406.json', 'errors/409-apply-conflict.json', 'errors/409-create-exists.json',
  'errors/409-update-stale.json', 'errors/415-content-type.json', 'errors/422-apply-without-fieldmanager.json',
  'errors/422-invalid-name.json', 'errors/422-smp-bad-type.json', 'errors/504-too-large.json',
];
const RESPONSE_DIRS = ['discovery', 'objects', 'protobuf', 'table'];

/** v3 documents a test can open: the index keys the server lists (api, apis, apis/<group>[/<version>], version). */
const keepV3 = (file) => /^(api|apis|version)(__.*)?_openapi\.json$/.test(file);

const PROSE = new Set(['description', 'title', 'summary', 'externalDocs', 'example', 'examples', 'termsOfService']);

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const mapValues = (m, f) => (isObject(m) ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)])) : m);
const mapList = (l, f) => (Array.isArray(l) ? l.map(f) : l);
/** An object without its prose keys, the rest copied as is. */
const withoutProse = (o) => (isObject(o) ? Object.fromEntries(Object.entries(o).filter(([k]) => !PROSE.has(k))) : o);

// Schema keywords whose value is a map from names (property names, definition names) to schemas: the names are
// data, even when a property is called `description` or `title`.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
const SCHEMA_ONE = new Set(['items', 'additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** A JSON schema without prose; `default`, `enum`, `x-kubernetes-*` and other values are copied as they are. */
function schema(s) {
  if (Array.isArray(s)) return s.map(schema);
  if (!isObject(s)) return s;
  const o = {};
  for (const [k, v] of Object.entries(s)) {
    if (PROSE.has(k)) continue;
    if (SCHEMA_MAPS.has(k)) o[k] = mapValues(v, schema);
    else if (SCHEMA_ONE.has(k)) o[k] = schema(v);
    else if (SCHEMA_LIST.has(k)) o[k] = mapList(v, schema);
    else o[k] = v;
  }
  return o;
}

function mediaTypes(content) {
  return mapValues(content, (m) => {
    const o = withoutProse(m);
    if (isObject(o) && 'schema' in o) o.schema = schema(o.schema);
    return o;
  });
}

/** Parameters, headers, request bodies and responses: prose out, their schemas and content reduced. */
function part(p) {
  const o = withoutProse(p);
  if (!isObject(o)) return o;
  if ('schema' in o) o.schema = schema(o.schema);
  if ('items' in o) o.items = schema(o.items); // Swagger 2.0 non-body parameters
  if ('content' in o) o.content = mediaTypes(o.content);
  if ('headers' in o) o.headers = mapValues(o.headers, part);
  return o;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * An operation's identity and parameters: operationId, tags, x-kubernetes-action and -group-version-kind, and each
 * parameter's name, place and type. Request bodies, responses and media types (consumes, produces, schemes) are
 * dropped: no test reads them, and they are most of the paths' bulk.
 */
const OPERATION_DROPPED = new Set(['requestBody', 'responses', 'consumes', 'produces', 'schemes']);
function operation(op) {
  if (!isObject(op)) return op;
  const o = {};
  for (const [k, v] of Object.entries(op)) {
    if (PROSE.has(k) || OPERATION_DROPPED.has(k)) continue;
    o[k] = k === 'parameters' ? mapList(v, part) : v;
  }
  return o;
}

function pathItem(item) {
  const o = {};
  for (const [k, v] of Object.entries(item)) {
    if (PROSE.has(k)) continue;
    if (METHODS.has(k)) o[k] = operation(v);
    else if (k === 'parameters') o[k] = mapList(v, part);
    else o[k] = v;
  }
  return o;
}

/** A Swagger 2.0 or OpenAPI 3 document reduced to facts. */
function document(doc) {
  const o = {};
  for (const [k, v] of Object.entries(doc)) {
    if (PROSE.has(k)) continue;
    if (k === 'info' || k === 'securityDefinitions') o[k] = k === 'info' ? withoutProse(v) : mapValues(v, withoutProse);
    else if (k === 'paths') o[k] = mapValues(v, pathItem);
    else if (k === 'definitions') o[k] = mapValues(v, schema);
    else if (k === 'parameters' || k === 'responses') o[k] = mapValues(v, part);
    else if (k === 'tags') o[k] = mapList(v, withoutProse);
    else if (k === 'components') {
      o[k] = {};
      for (const [ck, cv] of Object.entries(v)) {
        if (ck === 'schemas') o[k][ck] = mapValues(cv, schema);
        else if (ck === 'securitySchemes') o[k][ck] = mapValues(cv, withoutProse);
        else if (['parameters', 'responses', 'requestBodies', 'headers'].includes(ck)) o[k][ck] = mapValues(cv, part);
        else o[k][ck] = cv;
      }
    } else o[k] = v;
  }
  return o;
}

/**
 * Fails when prose survived: a prose key anywhere except as a name in a name map (a property called `description`)
 * or inside a value (`default`, `enum`, `x-*`), which is data.
 */
function assertNoProse(x, where, parentKey = '') {
  if (Array.isArray(x)) {
    x.forEach((v, i) => assertNoProse(v, `${where}[${i}]`));
    return;
  }
  if (!isObject(x)) return;
  const nameMap = SCHEMA_MAPS.has(parentKey) || ['paths', 'schemas', 'responses', 'parameters', 'securitySchemes', 'securityDefinitions', 'content'].includes(parentKey);
  for (const [k, v] of Object.entries(x)) {
    if (PROSE.has(k) && !nameMap) throw new Error(`prose left at ${where}.${k}`);
    if (k === 'default' || k === 'enum' || k.startsWith('x-')) continue;
    assertNoProse(v, `${where}.${k}`, nameMap ? '' : k);
  }
}

/**
 * Same layout as the recorded JSON we rewrite: 2-space indentation, the input's final newline (if any) and Go's
 * HTML-safe escapes (`<`, `>`, `&`, U+2028 and U+2029 only occur inside strings, so replacing them is safe).
 */
const GO_ESCAPES = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
const rewriteLike = (text, value) =>
  JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]) + (text.endsWith('\n') ? '\n' : '');

/** A Table with Kubernetes' column documentation emptied (the field stays: it is always on the wire). */
function reduceTable(text, file) {
  const t = JSON.parse(text);
  if (rewriteLike(text, t) !== text) throw new Error(`${file}: not in the expected layout (Go's encoder, 2-space indentation)`);
  for (const c of t.columnDefinitions ?? []) if (typeof c.description === 'string') c.description = '';
  return rewriteLike(text, t);
}

const digests = new Set();
const digest = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

rmSync(join(OUT, 'responses'), { recursive: true, force: true });
rmSync(join(OUT, 'openapi'), { recursive: true, force: true });

// Responses.
const responseFiles = [...RESPONSE_FILES];
for (const d of RESPONSE_DIRS) for (const f of readdirSync(join(RESPONSES, d)).sort()) responseFiles.push(`${d}/${f}`);
for (const rel of responseFiles) {
  const from = join(RESPONSES, rel);
  const to = join(OUT, 'responses', rel);
  mkdirSync(dirname(to), { recursive: true });
  if (rel.startsWith('table/') && rel.endsWith('.json')) {
    const text = readFileSync(from, 'utf8');
    for (const c of JSON.parse(text).columnDefinitions ?? []) if (c.description) digests.add(digest(c.description));
    writeFileSync(to, reduceTable(text, rel));
  } else {
    copyFileSync(from, to);
  }
  if (rel.endsWith('.json')) {
    const check = (x, path) => {
      if (Array.isArray(x)) x.forEach((v, i) => check(v, `${path}[${i}]`));
      else if (isObject(x)) {
        for (const [k, v] of Object.entries(x)) {
          if (PROSE.has(k) && typeof v === 'string' && v !== '') throw new Error(`${rel}: prose at ${path}.${k}; reduce it here before copying`);
          check(v, `${path}.${k}`);
        }
      }
    };
    check(JSON.parse(readFileSync(to, 'utf8')), '');
  }
}

// OpenAPI.
const openapiFiles = ['swagger.json', ...readdirSync(join(OPENAPI, 'v3')).filter(keepV3).sort().map((f) => `v3/${f}`)];
for (const rel of openapiFiles) {
  const doc = JSON.parse(readFileSync(join(OPENAPI, rel), 'utf8'));
  if (rel === 'swagger.json') {
    for (const d of Object.values(doc.definitions ?? {})) {
      for (const p of Object.values(d.properties ?? {})) if (typeof p.description === 'string' && p.description) digests.add(digest(p.description));
    }
  }
  const reduced = document(doc);
  assertNoProse(reduced, rel);
  const to = join(OUT, 'openapi', rel);
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, JSON.stringify(reduced) + '\n');
}

writeFileSync(join(OUT, 'description-digests.json'), JSON.stringify({
  about: 'First 16 hex digits of the SHA-256 of each property description in swagger.json and each Table column description (UTF-8).',
  digests: [...digests].sort(),
}, null, 1) + '\n');

console.log(`wrote ${responseFiles.length} responses and ${openapiFiles.length} OpenAPI documents to ${OUT}`);
