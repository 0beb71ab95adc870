/**
 * Encryption at rest (`node --import tsx bench/encryption.ts`, part of `npm run bench`): a 1 KiB Secret created
 * and read back with aescbc on secrets, against the same server with an identity-only configuration (the
 * physical baseline: same path, no cipher) in the same run. Two levels:
 *   - storage: TransformingStore over the memory store, create + get of the stored bytes (the cipher's share);
 *   - HTTP: POST then GET of a Secret against an in-process server (memory store, watch cache on).
 *   - provider alone: encrypt + decrypt of the Secret's bytes (the cipher's own cost).
 * Each figure is the median of 5 runs after a warm-up. `BENCH_QUICK=1` shrinks the counts for a smoke run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryStore } from '../src/storage/memory/memory-store.ts';
import { loadEncryptionConfig } from '../src/storage/value/config.ts';
import { TransformingStore } from '../src/storage/value/transforming-store.ts';
import { startTestServer } from '../test/support/server.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const N_STORE = QUICK ? 2_000 : 20_000;
const N_HTTP = QUICK ? 100 : 600;
const KEY = Buffer.alloc(32, 9).toString('base64');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function secret(name: string): Record<string, unknown> {
  // 1 KiB of data (768 random bytes → 1024 base64 characters).
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, type: 'Opaque', data: { blob: Buffer.alloc(768, name.length).toString('base64') } };
}

function config(dir: string, name: string, provider: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n${provider}`);
  return file;
}

async function storeRun(file: string): Promise<number> {
  const enc = await loadEncryptionConfig(file);
  const t = enc.transformerFor({ group: '', resource: 'secrets' });
  const store = new TransformingStore(new MemoryStore({}), () => t);
  const value = new TextEncoder().encode(JSON.stringify(secret('x')));
  const runs: number[] = [];
  for (let r = 0; r < 6; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < N_STORE; i++) {
      const key = `/registry/secrets/default/s-${r}-${i}`;
      await store.create(key, value);
      await store.get(key);
    }
    if (r > 0) runs.push(Number(process.hrtime.bigint() - start) / 1e3 / N_STORE);
  }
  await store.close();
  enc.close();
  return median(runs);
}

/** The provider alone: encrypt + decrypt of the 1 KiB Secret's bytes, no store. */
async function transformRun(file: string): Promise<number> {
  const enc = await loadEncryptionConfig(file);
  const t = enc.transformerFor({ group: '', resource: 'secrets' })!;
  const value = new TextEncoder().encode(JSON.stringify(secret('x')));
  const ad = new TextEncoder().encode('/registry/secrets/default/x');
  const runs: number[] = [];
  for (let r = 0; r < 6; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < N_STORE; i++) await t.fromStorage(await t.toStorage(value, ad), ad);
    if (r > 0) runs.push(Number(process.hrtime.bigint() - start) / 1e3 / N_STORE);
  }
  enc.close();
  return median(runs);
}

async function httpRun(file: string): Promise<number> {
  const srv = await startTestServer({ encryptionProviderConfig: file });
  const runs: number[] = [];
  try {
    for (let r = 0; r < 6; r++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < N_HTTP; i++) {
        const name = `s-${r}-${i}`;
        const c = await srv.request('POST', '/api/v1/namespaces/default/secrets', { body: secret(name) });
        if (c.status !== 201) throw new Error(`create: ${c.status} ${c.text}`);
        const g = await srv.request('GET', `/api/v1/namespaces/default/secrets/${name}`);
        if (g.status !== 200) throw new Error(`get: ${g.status}`);
      }
      if (r > 0) runs.push(Number(process.hrtime.bigint() - start) / 1e3 / N_HTTP);
    }
  } finally {
    await srv.stop();
  }
  return median(runs);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keelson-bench-enc-'));
  try {
    const aescbc = config(dir, 'aescbc.yaml', `      - aescbc:\n          keys:\n            - name: key1\n              secret: ${KEY}\n`);
    const identity = config(dir, 'identity.yaml', '      - identity: {}\n');
    const rows: [string, number, number][] = [];
    const tIdentity = await transformRun(identity);
    const tAes = await transformRun(aescbc);
    rows.push(['provider alone: encrypt + decrypt of a 1 KiB Secret', tAes, tIdentity]);
    const sIdentity = await storeRun(identity);
    const sAes = await storeRun(aescbc);
    rows.push(['storage: create + get of a 1 KiB Secret (TransformingStore over memory)', sAes, sIdentity]);
    const hIdentity = await httpRun(identity);
    const hAes = await httpRun(aescbc);
    rows.push(['HTTP: POST + GET of a 1 KiB Secret (in-process server, memory store)', hAes, hIdentity]);
    console.log(`\nEncryption at rest (Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)})\n`);
    console.log('| metric | aescbc | identity (same run) | ratio |');
    console.log('|---|---:|---:|---:|');
    for (const [m, a, b] of rows) console.log(`| ${m} | ${a.toFixed(1)} µs | ${b.toFixed(1)} µs | ${(a / b).toFixed(2)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
