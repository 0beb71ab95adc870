/**
 * Keeps the layering of src/ (ARCHITECTURE.md) from regressing: every relative import of production code goes
 * to its own module or to a module further down the list below, there are no import cycles between files, and
 * production code never imports test support. Tests and test support (`*.test.ts`, `testing/`, `testdata/`,
 * the storage conformance suite) may import from any layer: they exercise a module with real neighbours.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SRC = resolve(import.meta.dirname, '../src');

/** Top to bottom: a module may import from itself and from the modules after it, never from those before it. */
const LAYERS = [
  'index.ts', //      the package entry (startServer)
  'cli', //           flags → options, main()
  'controlplane', //  composition root: options, certificates, store, registry, controllers, authn/authz, listener
  'server', //        listener, the filter chain and its filters, request-info parsing
  'endpoints', //     handlers per verb, negotiation, discovery, openapi, health, metrics
  'controllers', //   in-process controllers (namespaces, GC, service accounts, CRDs, RBAC aggregation)
  'flowcontrol', //   API Priority and Fairness: bootstrap configuration, classification, fair queuing
  'authn', //         authenticators, service account tokens (issuer, TokenRequest)
  'authz', //         authorizers (RBAC, Node, ABAC, webhook, configuration file)
  'admission', //     the admission chain and its plugins (webhooks, policies, Pod Security, quota, …)
  'client', //        informers and work queues over the registry
  'registry', //      generic store, strategies, special REST, reviews, custom resource serving, built-in groups
  'apiextensions', // CRD schemas: structural schema, validation, pruning, defaulting, CEL rules, conversion
  'apply', //         merge patch, strategic merge patch, server-side apply
  'audit', //         audit policy, events, and the log/webhook backends the server's audit filter feeds
  'webhook', //       the outbound webhook client
  'api', //           the type catalog: resource definitions, type descriptions, validation, OpenAPI, protobuf
  'cel', //           CEL environment, Kubernetes libraries, cost
  'features', //      feature gates and the serving decisions they drive
  'request', //       request context, authenticator/authorizer contracts, writing response bytes
  'storage', //       the Store contract, memory/sqlite/etcd backends, the watch cache
  'machinery', //     errors, object shapes, selectors, names, quantities, Go formats
] as const;

const isTestSupport = (rel: string): boolean =>
  rel.endsWith('.test.ts') || /(^|\/)(testing|testdata|conformance)\//.test(rel);

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

/** Relative imports (static, dynamic, re-exports, `new URL(…, import.meta.url)` workers) resolved to files. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  for (const m of text.matchAll(/new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g)) specs.push(m[1]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => {
    const p = resolve(dirname(file), s);
    if (existsSync(p) && statSync(p).isFile()) return p;
    return existsSync(join(p, 'index.ts')) ? join(p, 'index.ts') : p;
  });
}

const rel = (p: string) => relative(SRC, p).split(sep).join('/');
const moduleOf = (p: string) => rel(p).split('/')[0]!;

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

void test('every src/ module has a place in the layer list', () => {
  const unplaced = [...new Set(files.map(moduleOf))].filter((m) => !(LAYERS as readonly string[]).includes(m));
  assert.deepEqual(unplaced, [], 'add the new module to LAYERS in test/architecture.test.ts and to ARCHITECTURE.md');
});

void test('imports run one way: no production file imports a module above its own', () => {
  const rank = (p: string) => (LAYERS as readonly string[]).indexOf(moduleOf(p));
  const upward: string[] = [];
  for (const [f, deps] of graph) {
    if (isTestSupport(rel(f))) continue;
    for (const d of deps) {
      if (!d.startsWith(SRC + sep)) upward.push(`${rel(f)} -> ${relative(SRC, d)} (outside src/)`);
      else if (rank(d) < rank(f)) upward.push(`${rel(f)} -> ${rel(d)}`);
    }
  }
  assert.deepEqual(upward, [], 'these imports point up the layer list; move the shared piece down or pass it in');
});

void test('production code never imports test support', () => {
  const bad: string[] = [];
  for (const [f, deps] of graph) {
    if (isTestSupport(rel(f))) continue;
    for (const d of deps) if (d.startsWith(SRC + sep) && isTestSupport(rel(d))) bad.push(`${rel(f)} -> ${rel(d)}`);
  }
  assert.deepEqual(bad, []);
});

void test('no import cycles between files', () => {
  // Tarjan's strongly connected components over the whole graph (tests included: a cycle there is as confusing).
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(rel(w));
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  assert.deepEqual(cycles, []);
});

void test('the layer check sees imports (a check that cannot fail is no check)', () => {
  const start = graph.get(join(SRC, 'controlplane/start.ts')) ?? [];
  assert.ok(start.some((d) => rel(d) === 'registry/registry.ts'), 'controlplane/start.ts imports the registry');
  assert.ok(start.length > 10);
});
