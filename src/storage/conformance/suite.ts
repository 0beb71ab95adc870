/**
 * The storage conformance suite: one set of node:test cases every backend (memory, sqlite, etcd) must pass.
 * It checks the invariants documented in `../interface.ts` — guards, revision bookkeeping, ranges at past
 * revisions, watch ordering and replay, compaction, concurrency, limits and lifecycle.
 *
 * Usage (in a `*.test.ts` file):
 * ```ts
 * runStorageConformance('memory', { open: async () => new MemoryStore({ keyPrefix: '/registry/' }), cleanup: async () => {} });
 * ```
 */
import { after, describe } from 'node:test';
import { crudCases } from './cases-crud.ts';
import { rangeCases } from './cases-range.ts';
import { watchCases } from './cases-watch.ts';
import { limitCases } from './cases-limits.ts';
import { uniquePrefix, type StoreFactory } from './helpers.ts';
import type { SuiteContext } from './helpers.ts';

export type { StoreFactory } from './helpers.ts';

export function runStorageConformance(name: string, factory: StoreFactory): void {
  const keyPrefix = factory.keyPrefix ?? '/registry/';
  const ctx: SuiteContext = {
    factory,
    keyPrefix,
    async withStore(test, body) {
      const store = await factory.open();
      try {
        await body(store, uniquePrefix(keyPrefix, test));
      } finally {
        await store.close();
      }
    },
  };
  void describe(`storage conformance: ${name}`, () => {
    after(() => factory.cleanup());
    void describe('writes and guards', () => crudCases(ctx));
    void describe('ranges', () => rangeCases(ctx));
    void describe('watch and compaction', () => watchCases(ctx));
    void describe('limits, concurrency and lifecycle', () => limitCases(ctx));
  });
}
