import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeFieldValue, parseFieldSelector } from './fields.ts';
import { SelectorParseError } from './labels.ts';

void describe('parseFieldSelector', () => {
  const canonical: Array<[string, string]> = [
    ['', ''],
    ['metadata.name=a', 'metadata.name=a'],
    ['metadata.name==a', 'metadata.name=a'],
    ['metadata.name!=a', 'metadata.name!=a'],
    ['b=1,a=2', 'a=2,b=1'],
    ['a=1,,', 'a=1'],
    ['a=x\\,y', 'a=x\\,y'],
    ['a=x\\=y\\\\', 'a=x\\=y\\\\'],
    ['spec.nodeName=', 'spec.nodeName='],
    ['a==b', 'a=b'],
  ];
  for (const [input, want] of canonical) {
    void it(`canonical ${JSON.stringify(input)}`, () => assert.equal(parseFieldSelector(input).toString(), want));
  }

  void it('unescapes values and splits only at unescaped commas', () => {
    const s = parseFieldSelector('metadata.name=a\\,b\\=c\\\\d,metadata.namespace!=x');
    assert.deepEqual(s.requirements, [
      { field: 'metadata.name', operator: '=', value: 'a,b=c\\d' },
      { field: 'metadata.namespace', operator: '!=', value: 'x' },
    ]);
    assert.equal(s.exactValue('metadata.name'), 'a,b=c\\d');
    assert.equal(s.exactValue('metadata.namespace'), undefined);
  });

  void it('keys split at the first operator', () => {
    assert.deepEqual(parseFieldSelector('x==').requirements, [{ field: 'x', operator: '=', value: '' }]);
    assert.deepEqual(parseFieldSelector('a.b!=c!d').requirements, [{ field: 'a.b', operator: '!=', value: 'c!d' }]);
    assert.throws(() => parseFieldSelector('a!==b'), /unescaped character in value: 61/);
  });

  const matching: Array<[string, Record<string, string>, boolean]> = [
    ['metadata.name=a', { 'metadata.name': 'a' }, true],
    ['metadata.name=a', { 'metadata.name': 'b' }, false],
    ['metadata.name!=a', { 'metadata.name': 'b' }, true],
    ['spec.nodeName=', { 'metadata.name': 'b' }, true],
    ['spec.nodeName!=', { 'metadata.name': 'b' }, false],
    ['a=1,b=2', { a: '1', b: '2' }, true],
    ['a=1,b=2', { a: '1', b: '3' }, false],
    ['', {}, true],
  ];
  for (const [sel, fields, want] of matching) {
    void it(`${sel} on ${JSON.stringify(fields)}`, () => assert.equal(parseFieldSelector(sel).matches(fields), want));
  }

  const bad: Array<[string, string]> = [
    ['abc', "invalid selector: 'abc'; can't understand 'abc'"],
    ['a=1,b', "invalid selector: 'a=1,b'; can't understand 'b'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of bad) {
    void it(`rejects ${JSON.stringify(input)}`, () => {
      assert.throws(() => parseFieldSelector(input), (e: unknown) => e instanceof SelectorParseError && e.message === message);
    });
  }

  void it('escapeFieldValue round-trips', () => {
    for (const v of ['plain', 'a,b', 'x=y', 'back\\slash', '', ',=\\']) {
      assert.equal(parseFieldSelector(`k=${escapeFieldValue(v)}`).exactValue('k'), v);
    }
  });
});
