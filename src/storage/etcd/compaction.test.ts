import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CompactionTracker } from './compaction.ts';

/** A fake etcd whose reads below `compacted` fail, counting the probes. */
function fake(compacted: number, current: number) {
  const state = { compacted, current, probes: 0 };
  const tracker = new CompactionTracker({
    isCompacted: async (rev) => {
      state.probes++;
      return rev < state.compacted;
    },
    currentRevision: async () => state.current,
  });
  return { state, tracker };
}

void it('finds an unknown compaction by binary search and confirms a known one with one probe', async () => {
  const { state, tracker } = fake(0, 1000);
  assert.equal(await tracker.lookup(), 0);
  assert.equal(state.probes, 1);
  state.compacted = 637;
  assert.equal(await tracker.lookup(), 637);
  assert.ok(state.probes <= 1 + 1 + 11, `log2 probes, got ${state.probes}`);
  state.probes = 0;
  assert.equal(await tracker.lookup(), 637);
  assert.equal(state.probes, 1);
});

void it('note() raises the known value but never lowers it', async () => {
  const { state, tracker } = fake(50, 100);
  tracker.note(50);
  tracker.note(20);
  assert.equal(tracker.lastKnown, 50);
  assert.equal(await tracker.lookup(), 50);
  state.compacted = 100; // compaction at the current revision
  assert.equal(await tracker.lookup(), 100);
});
