#!/usr/bin/env node
// Launcher. Runs the prebuilt bundle (dist/keelson.cjs, made by `npm run build`, which `npm ci` runs through
// `prepare`) when it is at least as new as every source file; otherwise registers tsx and runs the TypeScript
// sources, so a developer's edits are never shadowed by a stale bundle.
//
// The bundle is one CommonJS file compiled through vm.Script with V8's code cache (dist/keelson.cjs.<mtime>.cache):
// Node 20 has no compile cache for ES modules, and compiling the ~3.7 MB bundle was a quarter of a restart.
// The cache is written after the first start that found none (or found it rejected, e.g. after a Node
// upgrade), once the server is ready, so it holds the functions the start path compiled too.
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = join(root, 'dist/keelson.cjs');

// Walking src/ stats ~900 files (50–100 ms): a worker thread does it on another core while this thread
// compiles the bundle, which is used only if the walk then finds no source newer than it.
const FRESHNESS_CHECK = `
  const { readdirSync, statSync } = require('node:fs');
  const { join } = require('node:path');
  const { parentPort, workerData } = require('node:worker_threads');
  function newestSource(dir) {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
    return newest;
  }
  let fresh = false;
  try { fresh = statSync(workerData.bundle).mtimeMs >= newestSource(workerData.src); } catch {}
  parentPort.postMessage(fresh);
`;

function bundleIsFresh() {
  if (!existsSync(BUNDLE)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const w = new Worker(FRESHNESS_CHECK, { eval: true, workerData: { bundle: BUNDLE, src: join(root, 'src') } });
    w.once('message', (fresh) => resolve(fresh === true));
    w.once('error', () => resolve(false));
    w.once('exit', () => resolve(false));
  });
}

/** Evaluates the CommonJS bundle as Node's loader would, with the code cache when there is a usable one. */
function loadBundle() {
  // esbuild writes ASCII (non-ASCII escaped), so latin1 decodes it exactly and faster than utf8.
  const source = readFileSync(BUNDLE, 'latin1');
  // V8 checks a cache against the source's length, not its content: the file name carries the bundle's
  // mtime, so a server still running an older build never writes a cache the new build would read.
  const CACHE = `${BUNDLE}.${Math.trunc(statSync(BUNDLE).mtimeMs)}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(CACHE);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    cachedData,
    // The bundle's lazy `import()` of external packages (etcd3) goes to Node's own loader.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  const writeCache = cachedData === undefined || script.cachedDataRejected === true;
  const saveCache = () => {
    if (!writeCache) return;
    // Written beside the bundle and renamed into place: servers starting at once never read half a file.
    // A read-only install just starts without the cache.
    try {
      const tmp = `${CACHE}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, CACHE);
    } catch {
      // no cache this time
    }
  };
  return { main: module.exports.main, saveCache };
}

// KEELSON_TRACE_START=1: the launcher's phases, in the format of src/controlplane/start-trace.ts.
const trace = process.env.KEELSON_TRACE_START === '1'
  ? (phase) => process.stderr.write(`start-trace ${performance.now().toFixed(1)} ms ${phase}\n`)
  : () => {};
trace('launcher entered');
let main;
let onReady = () => {};
const fromSource = process.env.KEELSON_FROM_SOURCE === '1';
const freshness = fromSource ? Promise.resolve(false) : bundleIsFresh();
const bundle = fromSource || !existsSync(BUNDLE) ? undefined : loadBundle();
trace('bundle loaded');
const fresh = await freshness;
trace('bundle freshness checked');
if (bundle && fresh) {
  ({ main, saveCache: onReady } = bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  onReady,
});
process.exitCode = code;
// Everything was closed by stop(); if a stray handle still holds the loop, do not hang the shutdown.
setTimeout(() => process.exit(code), 2000).unref();
