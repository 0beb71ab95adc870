import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { configureReader, DEFAULT_CACHE_KIB } from './schema.ts';

const cacheSize = (db: Database.Database): number => db.pragma('cache_size', { simple: true }) as number;

void test('a reader connection gets the small default page cache, or the size asked for (at least 64 KiB), and cannot write', () => {
  const db = new Database(':memory:');
  try {
    configureReader(db);
    assert.equal(cacheSize(db), -DEFAULT_CACHE_KIB);
    assert.ok(DEFAULT_CACHE_KIB <= 4096, 'the page cache stays a few MiB (BENCHMARKS.md, memory per object)');
    configureReader(db, 8192);
    assert.equal(cacheSize(db), -8192);
    configureReader(db, 1);
    assert.equal(cacheSize(db), -64);
    assert.throws(() => db.exec('CREATE TABLE t (x)'), /readonly|query_only|attempt to write/i);
  } finally {
    db.close();
  }
});
