import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, decodeJsonPatch, JsonPatchApplyError, JsonPatchDecodeError, type JsonPatchOp } from './json-patch.ts';

const ok = (doc: unknown, ops: JsonPatchOp[], want: unknown) => assert.deepEqual(applyJsonPatch(doc, ops), want);
const fails = (doc: unknown, ops: JsonPatchOp[]) => assert.throws(() => applyJsonPatch(doc, ops), JsonPatchApplyError);

// RFC 6902 Appendix A.
void test('A.1 add an object member', () => ok({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }));
void test('A.2 add an array element', () => ok({ foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }));
void test('A.3 remove an object member', () => ok({ baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }));
void test('A.4 remove an array element', () => ok({ foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }));
void test('A.5 replace a value', () => ok({ baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }));
void test('A.6 move a value', () => ok(
  { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
  [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
  { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } }));
void test('A.7 move an array element', () => ok({ foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }));
void test('A.8 test a value: success', () => ok(
  { baz: 'qux', foo: ['a', 2, 'c'] },
  [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }],
  { baz: 'qux', foo: ['a', 2, 'c'] }));
void test('A.9 test a value: error', () => fails({ baz: 'qux' }, [{ op: 'test', path: '/baz', value: 'bar' }]));
void test('A.10 add a nested member object', () => ok({ foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }));
void test('A.11 ignore unrecognized elements', () => ok({ foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 } as JsonPatchOp], { foo: 'bar', baz: 'qux' }));
void test('A.12 add to a nonexistent target', () => fails({ foo: 'bar' }, [{ op: 'add', path: '/baz/bat', value: 'qux' }]));
void test('A.14 ~ escape ordering', () => ok({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }], { '/': 9, '~1': 10 }));
void test('A.15 comparing strings and numbers', () => fails({ '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: '10' }]));
void test('A.16 add an array value', () => ok({ foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }));

void test('copy, replace of the root, append, and index bounds', () => {
  ok({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }], { a: { b: 1 }, c: { b: 1 } });
  ok({ a: 1 }, [{ op: 'replace', path: '', value: { z: 1 } }], { z: 1 });
  ok([1], [{ op: 'add', path: '/1', value: 2 }], [1, 2]);
  fails([1], [{ op: 'add', path: '/3', value: 2 }]);
  fails([1], [{ op: 'remove', path: '/1' }]);
  fails({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]);
  fails({ a: 1 }, [{ op: 'remove', path: '/b' }]);
  fails({ a: 1 }, [{ op: 'frobnicate', path: '/a' }]);
  fails({ a: [1] }, [{ op: 'remove', path: '/a/01' }]);
  fails({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }]);
});

void test('atomic: a failing operation leaves the input untouched', () => {
  const doc = { a: 1, list: [1, 2] };
  fails(doc, [{ op: 'add', path: '/b', value: 2 }, { op: 'remove', path: '/list/0' }, { op: 'test', path: '/a', value: 5 }]);
  assert.deepEqual(doc, { a: 1, list: [1, 2] });
});

void test('results never alias the patch values', () => {
  const value = { deep: { x: 1 } };
  const out = applyJsonPatch({}, [{ op: 'add', path: '/v', value }]) as { v: { deep: { x: number } } };
  out.v.deep.x = 2;
  assert.equal(value.deep.x, 1);
});

void test('decodeJsonPatch rejects documents that are not arrays of objects', () => {
  assert.throws(() => decodeJsonPatch({ op: 'add' }), (e: unknown) => e instanceof JsonPatchDecodeError && /cannot unmarshal object into Go value of type jsonpatch.Patch/.test(e.message));
  assert.throws(() => decodeJsonPatch([1]), JsonPatchDecodeError);
  assert.equal(decodeJsonPatch([{ op: 'add', path: '/a', value: 1 }]).length, 1);
});
