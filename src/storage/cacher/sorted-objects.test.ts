import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SortedObjects } from './sorted-objects.ts';
import type { CachedObject } from './types.ts';

const o = (key: string): CachedObject => ({ key } as CachedObject);
const keys = (s: SortedObjects, prefix = ''): string[] => s.slice(prefix).map((x) => x.key);

void describe('SortedObjects', () => {
  void it('keeps keys sorted through inserts, replaces and deletes', () => {
    const s = new SortedObjects();
    for (const k of ['/r/b/2', '/r/a/1', '/r/c/1', '/r/b/1']) s.set(o(k));
    assert.deepEqual(keys(s), ['/r/a/1', '/r/b/1', '/r/b/2', '/r/c/1']);
    const replacement = o('/r/b/1');
    assert.ok(s.set(replacement));
    assert.equal(s.get('/r/b/1'), replacement);
    assert.equal(s.size, 4);
    assert.ok(s.delete('/r/a/1'));
    assert.equal(s.delete('/r/a/1'), undefined);
    assert.deepEqual(keys(s), ['/r/b/1', '/r/b/2', '/r/c/1']);
  });

  void it('slices a prefix (a namespace) and finds its bounds', () => {
    const s = new SortedObjects();
    s.reset(['/r/a/1', '/r/ab/1', '/r/b/1', '/r/b/2', '/r/c/1'].map(o));
    assert.deepEqual(keys(s, '/r/b/'), ['/r/b/1', '/r/b/2']);
    assert.deepEqual(keys(s, '/r/a/'), ['/r/a/1']);
    assert.deepEqual(keys(s, '/r/zz/'), []);
    assert.equal(s.prefixEnd('/r/b/'), 4);
    assert.equal(s.lowerBound('/r/b/1\0'), 3);
  });

  void it('reset sorts unsorted input', () => {
    const s = new SortedObjects();
    s.reset(['/c', '/a', '/b'].map(o));
    assert.deepEqual(keys(s), ['/a', '/b', '/c']);
  });
});
