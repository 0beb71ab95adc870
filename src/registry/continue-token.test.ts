import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { continueAfter, decodeContinue, encodeContinue, InvalidContinueError } from './continue-token.ts';
import { goJsonSyntaxError } from '../machinery/json/go-errors.ts';
import { kubeReference } from '../../test/support/kube-reference.ts';

const REF = kubeReference('responses/errors/400-bad-continue.json');

function errorOf(token: string, prefix = '/registry/configmaps/'): string {
  try {
    decodeContinue(token, prefix);
  } catch (e) {
    assert.ok(e instanceof InvalidContinueError);
    return `invalid continue token: ${e.message}`;
  }
  return '';
}

void describe('continue tokens', () => {
  void it('encode as kube does (base64url of {"v","rv","start"}) and round-trip', () => {
    const t = continueAfter('/registry/configmaps/ns/b', '/registry/configmaps/', 42);
    // Go's encoder escapes the NUL as \u0000, and so does ours.
    assert.equal(Buffer.from(t, 'base64url').toString(), '{"v":"meta.k8s.io/v1","rv":42,"start":"ns/b\\u0000"}');
    assert.deepEqual(decodeContinue(t, '/registry/configmaps/'), { startKey: '/registry/configmaps/ns/b\u0000', revision: 42 });
  });

  void it('decodes a token minted by kube-apiserver', () => {
    const kube = Buffer.from('{"v":"meta.k8s.io/v1","rv":333,"start":"ref/cm1\\u0000"}').toString('base64url');
    assert.deepEqual(decodeContinue(kube, '/registry/configmaps/'), { startKey: '/registry/configmaps/ref/cm1\u0000', revision: 333 });
  });

  void it('a garbage token fails with the reference text', () => {
    const ref = JSON.parse(readFileSync(REF, 'utf8')) as { message: string };
    // The reference token decoded to bytes starting with 0x81.
    const token = Buffer.from([0x81, 0x02, 0x03]).toString('base64url');
    assert.equal(errorOf(token), ref.message);
  });

  const bad: [string, string, string][] = [
    ['illegal base64', 'ab$c', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 2'],
    ['zero rv', Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'), 'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)'],
    ['empty start', Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":""}').toString('base64url'), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
    ['unknown version', Buffer.from('{"v":"x/v9","rv":3,"start":"a"}').toString('base64url'), 'invalid continue token: continue key is not valid: server does not recognize this encoded version x/v9'],
    ['path traversal', Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":"../secrets/x"}').toString('base64url'), 'invalid continue token: continue key is not valid: ../secrets/x'],
    ['rv of the wrong type', Buffer.from('{"v":"meta.k8s.io/v1","rv":"3","start":"a"}').toString('base64url'), 'invalid continue token: continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
  ];
  for (const [title, token, want] of bad) void it(`rejects ${title}`, () => assert.equal(errorOf(token), want));

  void it('refuses to encode a key outside the prefix', () => {
    assert.throws(() => encodeContinue('/registry/secrets/a', '/registry/configmaps/', 1));
  });
});

void describe('Go JSON syntax errors', () => {
  const cases: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['{"a":1', 'unexpected end of JSON input'],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
    ['[1 2]', "invalid character '2' after array element"],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ['tru', 'unexpected end of JSON input'],
    ['trUe', "invalid character 'U' in literal true (expecting 'u')"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['"a\tb"', "invalid character '\\t' in string literal"],
    ['{"a":[1,{"b":null}]}', ''],
  ];
  for (const [input, want] of cases) void it(JSON.stringify(input), () => assert.equal(goJsonSyntaxError(input), want));
});
