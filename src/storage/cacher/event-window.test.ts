import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventWindow, type WindowEvent } from './event-window.ts';
import type { CachedObject } from './types.ts';

const obj = {} as CachedObject;
const ev = (revision: number, time: number): WindowEvent => ({ revision, kind: 'put', object: obj, time });

void describe('EventWindow', () => {
  void it('replays events after a revision, in order', () => {
    const w = new EventWindow(10, { windowMs: 1000, maxEvents: 100, now: () => 0 });
    for (const r of [11, 12, 15]) w.push(ev(r, 0));
    assert.equal(w.startRevision, 10);
    assert.deepEqual(w.since(10).map((e) => e.revision), [11, 12, 15]);
    assert.deepEqual(w.since(12).map((e) => e.revision), [15]);
    assert.deepEqual(w.since(13).map((e) => e.revision), [15]);
    assert.deepEqual(w.since(15), []);
  });

  void it('drops by count, whole revisions at a time', () => {
    const w = new EventWindow(0, { windowMs: 1000, maxEvents: 2, now: () => 0 });
    for (const r of [1, 2, 2, 3]) w.push(ev(r, 0));
    assert.equal(w.startRevision, 2);
    assert.deepEqual(w.since(2).map((e) => e.revision), [3]);
    assert.equal(w.length, 1);
  });

  void it('drops by age', () => {
    let now = 0;
    const w = new EventWindow(0, { windowMs: 100, maxEvents: 1000, now: () => now });
    w.push(ev(1, 0));
    w.push(ev(2, 50));
    now = 120;
    assert.equal(w.startRevision, 1);
    assert.deepEqual(w.since(1).map((e) => e.revision), [2]);
    now = 1000;
    assert.equal(w.startRevision, 2);
    assert.equal(w.length, 0);
  });

  void it('reset forgets everything', () => {
    const w = new EventWindow(0, { windowMs: 1000, maxEvents: 10, now: () => 0 });
    w.push(ev(1, 0));
    w.reset(7);
    assert.equal(w.startRevision, 7);
    assert.deepEqual(w.since(7), []);
  });

  void it('stays correct across internal compaction', () => {
    const w = new EventWindow(0, { windowMs: 1e9, maxEvents: 10, now: () => 0 });
    for (let r = 1; r <= 5000; r++) w.push(ev(r, 0));
    assert.equal(w.length, 10);
    assert.equal(w.startRevision, 4990);
    assert.deepEqual(w.since(4995).map((e) => e.revision), [4996, 4997, 4998, 4999, 5000]);
  });
});
