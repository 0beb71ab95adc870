#!/usr/bin/env node
// Launcher. Runs the prebuilt bundle (dist/, made by `npm run build`, which `npm ci` runs through `prepare`)
// when it is at least as new as every source file; otherwise registers tsx and runs the TypeScript sources,
// so a developer's edits are never shadowed by a stale bundle.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  try {
    return statSync(join(root, 'dist/keelson.mjs')).mtimeMs >= newestSource(join(root, 'src'));
  } catch {
    return false;
  }
}

let main;
if (process.env.KEELSON_FROM_SOURCE !== '1' && bundleIsFresh()) {
  ({ main } = await import('../dist/keelson.mjs'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
process.exitCode = code;
// Everything was closed by stop(); if a stray handle still holds the loop, do not hang the shutdown.
setTimeout(() => process.exit(code), 2000).unref();
