#!/usr/bin/env node
// Bundles the CLI and the library into dist/ so `keelson` starts without transpiling ~300 TypeScript files
// on every start (tsx costs ~0.4-0.9 s there; the bundle loads in a fraction of that). Runs from `prepare`,
// so `npm ci` builds it. Native and heavy dependencies stay external and load from node_modules.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
// Chunk names carry content hashes: start clean so old chunks do not pile up build after build.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// The CLI: one CommonJS file, which bin/keelson.mjs compiles with V8's code cache (Node 20 caches no ES
// module compilation). yaml is bundled in: loaded from node_modules it cost ~60 file lookups per start.
// import.meta.url (the sqlite threads' files, createRequire) becomes the bundle's own file URL.
const cli = build({
  absWorkingDir: root,
  entryPoints: { keelson: 'src/cli/main.ts' },
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Whitespace only (names stay for stack traces): a quarter less to read and deserialize on every start.
  minifyWhitespace: true,
  logLevel: 'warning',
  external: ['better-sqlite3', 'etcd3', '@peculiar/x509', 'reflect-metadata'],
  define: { 'import.meta.url': '__keelsonModuleUrl' },
  banner: { js: "const __keelsonModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The library (package.json "main"): ES modules, split into chunks.
await build({
  absWorkingDir: root,
  entryPoints: { index: 'src/index.ts' },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  external: ['better-sqlite3', 'etcd3', '@peculiar/x509', 'reflect-metadata', 'yaml'],
  // Some bundled CommonJS-style code calls require(); give ESM output one.
  banner: { js: "import { createRequire as __keelsonRequire } from 'node:module'; const require = __keelsonRequire(import.meta.url);" },
});
await cli;
// The sqlite writer, checkpointer and range threads are plain .mjs files found next to the code that starts them.
for (const f of ['worker.mjs', 'checkpointer.mjs', 'range-worker.mjs']) copyFileSync(join(root, 'src/storage/sqlite', f), join(out, f));
