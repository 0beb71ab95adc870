import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goMarshal } from './go-marshal.ts';

void test('goMarshal escapes what Go\'s HTML-safe encoder escapes, and nothing else', () => {
  assert.equal(goMarshal({ a: 'x<y>&z', b: [1, null], c: 'line\u2028sep' }), '{"a":"x\\u003cy\\u003e\\u0026z","b":[1,null],"c":"line\\u2028sep"}');
  assert.equal(goMarshal({ q: 'say "hi"\n' }), '{"q":"say \\"hi\\"\\n"}');
});
