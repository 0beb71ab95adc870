import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMergePatch, mergePatch } from './merge-patch.ts';

// RFC 7386 Appendix A: every example, as (target, patch, result).
const RFC_EXAMPLES: Array<[unknown, unknown, unknown]> = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

void test('RFC 7386 appendix A examples', () => {
  for (const [target, patch, want] of RFC_EXAMPLES) {
    assert.deepEqual(mergePatch(target, patch), want, `${JSON.stringify(target)} + ${JSON.stringify(patch)}`);
  }
});

void test('RFC 7386 section 3 example', () => {
  const target = { title: 'Goodbye!', author: { givenName: 'John', familyName: 'Doe' }, tags: ['example', 'sample'], content: 'This will be unchanged' };
  const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
  assert.deepEqual(mergePatch(target, patch), {
    title: 'Hello!', author: { givenName: 'John' }, tags: ['example'], content: 'This will be unchanged', phoneNumber: '+01-123-456-7890',
  });
});

void test('inputs are not modified and results do not alias the patch', () => {
  const target = Object.freeze({ a: Object.freeze({ b: 1 }), keep: Object.freeze({ x: 1 }) });
  const patch = { a: { c: { d: 1 } } };
  const out = mergePatch(target, patch) as { a: { c: { d: number } } };
  assert.deepEqual(out, { a: { b: 1, c: { d: 1 } }, keep: { x: 1 } });
  out.a.c.d = 2;
  assert.equal(patch.a.c.d, 1);
});

void test('createMergePatch round-trips', () => {
  const from = { a: 1, b: { c: 2, d: [1, 2] }, gone: true };
  const to = { a: 1, b: { c: 3, d: [1] }, added: { x: null } };
  const p = createMergePatch(from, to);
  assert.deepEqual(p, { gone: null, b: { c: 3, d: [1] }, added: { x: null } });
  assert.deepEqual(mergePatch(from, { gone: null, b: { c: 3, d: [1] }, added: { x: 'y' } }), { a: 1, b: { c: 3, d: [1] }, added: { x: 'y' } });
});
