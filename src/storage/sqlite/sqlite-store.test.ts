import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStorageConformance } from '../conformance/suite.ts';
import { openSqliteStore } from './sqlite-store.ts';

const dirs: string[] = [];
let lastPath: string | undefined;

const open = (path: string) => openSqliteStore({ path, keyPrefix: '/registry/', ttlSweepMs: 100 });

runStorageConformance('sqlite', {
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keelson-sqlite-'));
    dirs.push(dir);
    lastPath = join(dir, 'keelson.db');
    return open(lastPath);
  },
  reopen: async () => open(lastPath!),
  cleanup: async () => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  },
  supports: { ttl: true },
});
