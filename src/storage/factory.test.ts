import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { openStore, SQLITE_FILE } from './factory.ts';
import { KeyOutsidePrefixError, StorageError } from './interface.ts';
import { MemoryStore } from './memory/memory-store.ts';

void it('openStore memory returns a MemoryStore enforcing the key prefix', async () => {
  const s = await openStore({ kind: 'memory', keyPrefix: '/registry/' });
  try {
    assert.ok(s instanceof MemoryStore);
    await assert.rejects(s.create('/other', new Uint8Array(1)), KeyOutsidePrefixError);
    assert.ok((await s.create('/registry/a', new Uint8Array(1))).succeeded);
  } finally {
    await s.close();
  }
});

void it('openStore sqlite creates <dataDir>/keelson.db and keeps data across opens', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keelson-factory-'));
  const dataDir = join(dir, 'nested', 'data');
  try {
    const s1 = await openStore({ kind: 'sqlite', dataDir, keyPrefix: '/registry/' });
    const c = await s1.create('/registry/x', new TextEncoder().encode('kept'));
    assert.ok(c.succeeded);
    await assert.rejects(s1.create('/other', new Uint8Array(1)), KeyOutsidePrefixError);
    await s1.close();
    assert.ok(existsSync(join(dataDir, SQLITE_FILE)));
    const s2 = await openStore({ kind: 'sqlite', dataDir });
    try {
      assert.equal(new TextDecoder().decode((await s2.get('/registry/x'))!.value), 'kept');
    } finally {
      await s2.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void it('openStore etcd without servers and unknown kinds fail with a clear StorageError', async () => {
  await assert.rejects(openStore({ kind: 'etcd' }), (e: unknown) => e instanceof StorageError && /server/.test(e.message));
  await assert.rejects(openStore({ kind: 'nope' as 'memory' }), (e: unknown) => e instanceof StorageError && /unknown storage backend "nope"/.test(e.message));
});
