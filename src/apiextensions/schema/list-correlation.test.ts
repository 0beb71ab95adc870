/**
 * Correlating new list items with old ones on update (ratcheting, transition rules) reads the old list a
 * bounded number of times per list, not once per new item (review issue 7, item 3: quadratic at 20k items).
 * Reads are counted through a Proxy, so the test does not depend on timing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateValue, listCorrelator } from './value-validation.ts';
import { compileRules } from '../cel-rules/index.ts';
import { toStructural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';

const N = 2000;

/** An array whose element reads are counted. */
function counted<T>(items: T[]): { list: T[]; reads: () => number } {
  let n = 0;
  const list = new Proxy(items, {
    get(t, p, r) {
      if (typeof p === 'string' && /^\d+$/.test(p)) n++;
      return Reflect.get(t, p, r) as unknown;
    },
  });
  return { list, reads: () => n };
}

const mapList = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        items: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'integer', maximum: 5 } }, ...extra },
        },
      },
    },
  },
});

const items = () => Array.from({ length: N }, (_, i) => ({ name: `n${i}`, v: 10 }));

describe('list item correlation on update', () => {
  it('value validation reads the old list once per list (and still ratchets by key)', () => {
    const old = counted(items());
    const next = items().reverse();
    next[0] = { name: 'fresh', v: 10 };
    const errs = validateValue({ spec: { items: next } }, mapList(), '', { value: { spec: { items: old.list } } }).map(String);
    // Unchanged items ratchet (their old value is found by key); only the new item is reported.
    assert.deepEqual(errs, ['spec.items[0].v: Invalid value: 10: spec.items[0].v in body should be less than or equal to 5']);
    assert.ok(old.reads() <= 2 * N, `old list read ${old.reads()} times for ${N} items`);
  });

  it('CEL transition rules read the old list once per list', () => {
    const s = mapList({ 'x-kubernetes-validations': [{ rule: 'self.v == oldSelf.v', message: 'immutable' }] });
    const c = compileRules(toStructural(s), '');
    assert.deepEqual(c.errors.map(String), []);
    const old = counted(items());
    const next = items().reverse();
    next[1] = { name: `n${N - 2}`, v: 11 };
    const errs = c.validator!.validate({ spec: { items: next } }, { spec: { items: old.list } }).map(String);
    assert.deepEqual(errs, ['spec.items[1]: Invalid value: "object": immutable']);
    assert.ok(old.reads() <= 2 * N, `old list read ${old.reads()} times for ${N} items`);
  });

  it('sets correlate by value, map lists by their keys; the first old item with a key wins', () => {
    const set = listCorrelator({ 'x-kubernetes-list-type': 'set' }, [{ b: 1, a: 2 }, 'x']);
    assert.deepEqual(set({ a: 2, b: 1 }), { value: { b: 1, a: 2 } });
    assert.equal(set('y'), undefined);
    const map = listCorrelator({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'p'] }, [{ k: 'a', p: 1, x: 1 }, { k: 'a', p: 1, x: 2 }, { k: 'a', x: 3 }]);
    assert.deepEqual(map({ k: 'a', p: 1 }), { value: { k: 'a', p: 1, x: 1 } });
    assert.deepEqual(map({ k: 'a' }), { value: { k: 'a', x: 3 } });
    assert.equal(map({ k: 'b', p: 1 }), undefined);
    assert.equal(listCorrelator({ 'x-kubernetes-list-type': 'atomic' }, [1])(1), undefined);
  });
});
