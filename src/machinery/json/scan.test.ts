import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonSyntaxError, scanJson } from './scan.ts';

function syntax(text: string): string {
  try {
    scanJson(text);
  } catch (e) {
    assert.ok(e instanceof JsonSyntaxError);
    return e.message;
  }
  assert.fail(`expected a syntax error for ${text}`);
}

void test("syntax errors in Go's encoding/json words", () => {
  assert.equal(syntax(''), 'unexpected end of JSON input');
  assert.equal(syntax('{"a":'), 'unexpected end of JSON input');
  assert.equal(syntax('x'), "invalid character 'x' looking for beginning of value");
  assert.equal(syntax('{x}'), "invalid character 'x' looking for beginning of object key string");
  assert.equal(syntax('{"a" 1}'), "invalid character '1' after object key");
  assert.equal(syntax('{"a":1 "b":2}'), `invalid character '"' after object key:value pair`);
  assert.equal(syntax('[1 2]'), "invalid character '2' after array element");
  assert.equal(syntax('{} {}'), "invalid character '{' after top-level value");
  assert.equal(syntax('{"a":tru}'), "invalid character '}' in literal true (expecting 'e')");
  assert.equal(syntax('{"a":-x}'), "invalid character 'x' in numeric literal");
  assert.equal(syntax('{"a":1.}'), "invalid character '}' after decimal point in numeric literal");
  assert.equal(syntax('{"a":01}'), "invalid character '1' after object key:value pair");
  assert.equal(syntax('"a\nb"'), "invalid character '\\n' in string literal");
  assert.equal(syntax('"\\x"'), "invalid character 'x' in string escape code");
  assert.equal(syntax("{'a':1}"), "invalid character '\\'' looking for beginning of object key string");
  // Go scans bytes: control characters as \x.., non-ASCII as the first UTF-8 byte.
  assert.equal(syntax('\u0001'), "invalid character '\\x01' looking for beginning of value");
  assert.equal(syntax('é'), "invalid character 'Ã' looking for beginning of value");
});

void test('valid JSON passes with no findings', () => {
  assert.deepEqual(scanJson('{"a":[1,2,{"b":"\\u00e9\\n"}],"c":null,"d":true,"e":-1.5e+3}').strict, []);
});

void test('duplicate keys reported with their paths, in document order', () => {
  const r = scanJson('{"data":{"a":"1","a":"2"},"list":[{"x":1,"x":2}],"data":{}}');
  assert.deepEqual(r.strict, ['duplicate field "data.a"', 'duplicate field "list[0].x"', 'duplicate field "data"']);
  // Escaped and literal spellings of one key are the same key.
  assert.deepEqual(scanJson('{"\\u0061":1,"a":2}').strict, ['duplicate field "a"']);
});

void test('unknown ObjectMeta keys only when asked, only under top-level metadata', () => {
  const text = '{"metadata":{"name":"x","bogus":1,"labels":{"bogus":"ok"}},"spec":{"metadata":{"zzz":1}}}';
  assert.deepEqual(scanJson(text).strict, []);
  assert.deepEqual(scanJson(text, { objectMeta: true }).strict, ['unknown field "metadata.bogus"']);
});

void test('unknown top-level keys when the kind\'s fields are given', () => {
  const fields = new Set(['data']);
  assert.deepEqual(scanJson('{"apiVersion":"v1","kind":"X","metadata":{},"bogus":1,"data":{"x":1}}', { topLevelFields: fields }).strict, ['unknown field "bogus"']);
});

void test('nesting deeper than 2,000 levels is a syntax error, not a crash', () => {
  assert.equal(syntax('['.repeat(3000) + ']'.repeat(3000)), "invalid character '[' exceeded max depth");
  assert.equal(syntax('{"a":'.repeat(3000) + '1' + '}'.repeat(3000)), "invalid character '{' exceeded max depth");
  assert.deepEqual(scanJson('['.repeat(1500) + ']'.repeat(1500)).strict, []);
});
