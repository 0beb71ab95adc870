import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KObject } from '../../machinery/objects.ts';
import type { KeyValue } from '../interface.ts';
import { makeCachedObject } from './objects.ts';
import type { ObjectCodec } from './types.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function countingCodec(): { codec: ObjectCodec; decodes: () => number } {
  let n = 0;
  const codec: ObjectCodec = {
    decode: (kv) => {
      n++;
      return { ...(JSON.parse(new TextDecoder().decode(kv.value)) as KObject), metadata: { name: 'a', namespace: 'ns', resourceVersion: String(kv.modRevision), labels: { app: 'x' } } };
    },
    attrs: (o) => ({ name: o.metadata.name ?? '', namespace: o.metadata.namespace ?? '', labels: o.metadata.labels ?? {}, fields: {} }),
  };
  return { codec, decodes: () => n };
}

const kv: KeyValue = { key: '/registry/configmaps/ns/a', value: new TextEncoder().encode('{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"v"}}'), createRevision: 3, modRevision: 5, version: 1 };

void test('a cached revision keeps its stored bytes and attributes, and rebuilds the same frozen tree once the old one was collected', async () => {
  const { codec, decodes } = countingCodec();
  const cached = makeCachedObject(codec, kv);
  assert.equal(decodes(), 1);
  assert.deepEqual(cached.attrs, { name: 'a', namespace: 'ns', labels: { app: 'x' }, fields: {} });
  // While a reader holds the tree, every reader gets that very tree (scoped: the test must not hold it after).
  const snapshot = ((): KObject => {
    const first = cached.object;
    assert.equal(cached.object, first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first['data']));
    return structuredClone(first);
  })();
  // WeakRef targets live at least until the current job ends: let it end, then collect, then read again.
  let collected = false;
  for (let i = 0; i < 20 && !collected; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
    void cached.object;
    collected = decodes() === 2;
  }
  assert.ok(collected, 'the decoded tree was never collected');
  assert.deepEqual(cached.object, snapshot);
  assert.ok(Object.isFrozen(cached.object));
});
