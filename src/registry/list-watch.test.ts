import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../machinery/errors.ts';
import type { ListParams } from './rest.ts';
import { statusOf, cm, EventLog, sys, testEnv, type TestEnv } from './testing/registry.ts';

for (const cache of [false, true]) {
  void describe(`list and watch (${cache ? 'watch cache' : 'direct reader'})`, () => {
    let env: TestEnv;
    let firstRev = 0;
    before(async () => {
      // A small event window so that an old revision falls out of the cache as it would after 5 minutes.
      env = await testEnv({ cache, cacher: { consistentReadTimeoutMs: 300, maxWindowEvents: 5 } });
      const cms = env.registry.lookup('', 'v1', 'configmaps')!;
      await env.registry.lookup('', 'v1', 'namespaces')!.create(sys(''), { metadata: { name: 'other' } }, {});
      for (let i = 0; i < 5; i++) await cms.create(sys('default'), cm(`c${i}`, { i: String(i) }, { labels: { n: String(i), even: String(i % 2 === 0) } }), {});
      await cms.create(sys('other'), cm('o1'), {});
      firstRev = await env.store.currentRevision();
    });
    after(async () => { await env.close(); });
    const cms = () => env.registry.lookup('', 'v1', 'configmaps')!;
    const names = (r: { items: { object: { metadata: { name?: string } } }[] }) => r.items.map((i) => i.object.metadata.name);

    void it('lists a namespace, all namespaces, in key order with the collection rv', async () => {
      const r = await cms().list(sys('default'), {});
      assert.deepEqual(names(r), ['c0', 'c1', 'c2', 'c3', 'c4']);
      assert.equal(r.resourceVersion, String(firstRev));
      assert.equal(r.continue, undefined);
      assert.deepEqual(names(await cms().list(sys(''), {})), ['c0', 'c1', 'c2', 'c3', 'c4', 'o1']);
    });

    void it('label and field selectors; bad selectors are 400', async () => {
      assert.deepEqual(names(await cms().list(sys('default'), { labelSelector: 'even=true' })), ['c0', 'c2', 'c4']);
      assert.deepEqual(names(await cms().list(sys(''), { fieldSelector: 'metadata.namespace=other' })), ['o1']);
      assert.deepEqual(names(await cms().list(sys('default'), { fieldSelector: 'metadata.name=c3' })), ['c3']);
      const bad = await statusOf(cms().list(sys('default'), { fieldSelector: 'spec.x=1' }));
      assert.equal(bad.code, 400);
      const badLabel = await statusOf(cms().list(sys('default'), { labelSelector: 'a in (' }));
      assert.equal(badLabel.code, 400);
    });

    void it('chunks with continue tokens: same rv on every page, remainingItemCount without selectors', async () => {
      const p1 = await cms().list(sys('default'), { limit: 2 });
      assert.deepEqual(names(p1), ['c0', 'c1']);
      assert.equal(p1.remainingItemCount, 3);
      assert.ok(p1.continue);
      // A change between pages is not visible to the chunked list.
      await cms().create(sys('default'), cm('c9'), {});
      const p2 = await cms().list(sys('default'), { limit: 2, continue: p1.continue });
      assert.deepEqual(names(p2), ['c2', 'c3']);
      assert.equal(p2.resourceVersion, p1.resourceVersion);
      const p3 = await cms().list(sys('default'), { limit: 2, continue: p2.continue });
      assert.deepEqual(names(p3), ['c4']);
      assert.equal(p3.continue, undefined);
      const sel = await cms().list(sys('default'), { limit: 1, labelSelector: 'even=true' });
      assert.deepEqual(names(sel), ['c0']);
      assert.equal(sel.remainingItemCount, undefined);
      await cms().delete(sys('default'), 'c9', {});
    });

    const invalid: [string, ListParams, number, string][] = [
      ['match without rv', { resourceVersionMatch: 'NotOlderThan' }, 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
      ['Exact with rv 0', { resourceVersion: '0', resourceVersionMatch: 'Exact' }, 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
      ['unknown match', { resourceVersion: '1', resourceVersionMatch: 'Nope' }, 422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Nope": supported values: "Exact", "NotOlderThan", ""'],
      ['bad continue', { continue: 'garbage!' }, 400, 'invalid continue token: continue key is not valid: illegal base64 data at input byte 7'],
      ['bad rv', { resourceVersion: 'x1' }, 400, 'invalid resource version: resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax'],
    ];
    for (const [title, params, code, message] of invalid) {
      void it(`rejects ${title}`, async () => {
        const s = await statusOf(cms().list(sys('default'), params));
        assert.deepEqual([s.code, s.message], [code, message]);
      });
    }

    void it('continue together with a resourceVersion other than 0 → 400', async () => {
      const p1 = await cms().list(sys('default'), { limit: 1 });
      const s = await statusOf(cms().list(sys('default'), { limit: 1, continue: p1.continue!, resourceVersion: '5' }));
      assert.deepEqual([s.code, s.message], [400, 'specifying resource version is not allowed when using continue']);
      const ok = await cms().list(sys('default'), { limit: 1, continue: p1.continue!, resourceVersion: '0' });
      assert.deepEqual(names(ok), ['c1']);
    });

    void it('rv semantics: 0 any, N not older than, Exact at a past revision, too large → 504', async () => {
      assert.equal(names(await cms().list(sys('default'), { resourceVersion: '0' })).length, 5);
      const past = await cms().list(sys('default'), { resourceVersion: String(firstRev - 2), resourceVersionMatch: 'Exact' });
      assert.deepEqual(names(past), ['c0', 'c1', 'c2', 'c3']);
      assert.equal(past.resourceVersion, String(firstRev - 2));
      const s = await statusOf(cms().list(sys('default'), { resourceVersion: '99999999', resourceVersionMatch: 'NotOlderThan' }));
      assert.equal(s.code, 504);
      assert.match(s.message!, /^Timeout: Too large resource version: 99999999, current: \d+$/);
    });

    void it('expired continue token → 410 Expired', async () => {
      const p1 = await cms().list(sys('default'), { limit: 1 });
      const cur = await env.store.currentRevision();
      await cms().create(sys('default'), cm('later'), {});
      await env.store.compact(cur + 1);
      const s = await statusOf(cms().list(sys('default'), { limit: 1, continue: p1.continue! }));
      assert.equal(s.code, 410);
      assert.equal(s.reason, 'Expired');
      assert.match(s.message!, /^The provided continue parameter is too old to display a consistent list result\./);
      await cms().delete(sys('default'), 'later', {});
    });

    void it('watch from a revision: MODIFIED and DELETED, filtered by selector', async () => {
      const from = await env.store.currentRevision();
      const log = new EventLog();
      const w = await cms().watch(sys('default'), { resourceVersion: String(from), labelSelector: 'n=1' }, log);
      try {
        const c1 = (await cms().get(sys('default'), 'c1', {})).object;
        await cms().update(sys('default'), 'c1', { ...c1, data: { changed: 'y' } }, {});
        await cms().update(sys('default'), 'c2', cm('c2', { changed: 'y' }, { labels: { n: '2' } }), {});
        await cms().delete(sys('default'), 'c1', {});
        await log.until(2);
        assert.deepEqual(log.summary(), ['MODIFIED c1', 'DELETED c1']);
      } finally {
        w.dispose();
      }
    });

    void it('watch without rv starts with ADDED for the current state; single object via metadata.name', async () => {
      const log = new EventLog();
      const w = await cms().watch(sys('default'), { fieldSelector: 'metadata.name=c3' }, log);
      try {
        await log.until(1);
        assert.deepEqual(log.summary(), ['ADDED c3']);
      } finally {
        w.dispose();
      }
    });

    void it('sendInitialEvents: ADDED then the initial-events-end bookmark (only with bookmarks)', async () => {
      const log = new EventLog();
      const w = await cms().watch(sys('other'), { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }, log);
      try {
        await log.until(2);
        assert.deepEqual(log.events.slice(0, 2).map((e) => [e.type, e.initialEventsEnd ?? false]), [['ADDED', false], ['BOOKMARK', true]]);
      } finally {
        w.dispose();
      }
      const s = await statusOf(cms().watch(sys('other'), { sendInitialEvents: true }, new EventLog()));
      assert.equal(s.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
      const s2 = await statusOf(cms().watch(sys('other'), { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, new EventLog()));
      assert.equal(s2.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    });

    void it('watch from a compacted revision ends with 410 Expired', async () => {
      const log = new EventLog();
      const w = await cms().watch(sys('default'), { resourceVersion: '2' }, log);
      try {
        const err = await log.untilClosed();
        assert.ok(err instanceof StatusError);
        assert.equal(err.code, 410);
        assert.equal(err.reason, 'Expired');
        assert.match(err.message, /^too old resource version: 2 \(\d+\)$/);
      } finally {
        w.dispose();
      }
    });

    void it('deletecollection deletes what the selector lists', async () => {
      const deleted = await cms().deleteCollection(sys('default'), { labelSelector: 'even=true' }, {});
      // c2 lost its `even` label in the watch test above; c1 was deleted there.
      assert.deepEqual(deleted.map((o) => o.metadata.name), ['c0', 'c4']);
      assert.deepEqual(names(await cms().list(sys('default'), {})), ['c2', 'c3']);
    });
  });
}

void describe('watch with sendInitialEvents=false', () => {
  void it('starts from now without the initial state', async () => {
    const env = await testEnv({ cache: true });
    try {
      const cms = env.registry.lookup('', 'v1', 'configmaps')!;
      await cms.create(sys('default'), cm('before'), {});
      const log = new EventLog();
      const w = await cms.watch(sys('default'), { sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, log);
      try {
        await cms.create(sys('default'), cm('after'), {});
        await log.until(1);
        assert.deepEqual(log.summary(), ['ADDED after']);
      } finally {
        w.dispose();
      }
    } finally {
      await env.close();
    }
  });
});

void describe('deadline bookmark', () => {
  void it('with allowWatchBookmarks and timeoutSeconds, a BOOKMARK comes 2 s before the deadline', async (t) => {
    const env = await testEnv();
    t.mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const cms = env.registry.lookup('', 'v1', 'configmaps')!;
      const rev = await env.store.currentRevision();
      const log = new EventLog();
      const w = await cms.watch(sys('default'), { resourceVersion: String(rev), allowWatchBookmarks: true, timeoutSeconds: 5 }, log);
      try {
        t.mock.timers.tick(2_999);
        assert.equal(log.events.length, 0);
        t.mock.timers.tick(1);
        assert.deepEqual(log.events.map((e) => [e.type, e.revision]), [['BOOKMARK', rev]]);
      } finally {
        w.dispose();
      }
    } finally {
      await env.close();
    }
  });
});
