import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameValidator } from './names.ts';

const REF = '/work/shared/reference/v1.32-responses/errors/422-invalid-name.json';

void describe('name validation (kube wording)', () => {
  void it('DNS-1123 subdomain message equals the reference 422 cause', () => {
    const ref = JSON.parse(readFileSync(REF, 'utf8')) as { details: { causes: { message: string }[] } };
    const msgs = isDNS1123Subdomain('Bad_Name');
    assert.equal(`Invalid value: "Bad_Name": ${msgs[0]}`, ref.details.causes[0]!.message);
  });

  const cases: [string, (v: string) => string[], string, string[]][] = [
    ['label ok', isDNS1123Label, 'my-name', []],
    ['label with dots', isDNS1123Label, 'a.b', ['must not contain dots']],
    ['label bad chars', isDNS1123Label, 'A', ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ['label too long', isDNS1123Label, 'a'.repeat(64), ['must be no more than 63 characters']],
    ['subdomain too long', isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
    ['qualified name with prefix', isQualifiedName, 'example.com/Name_1', []],
    ['qualified name empty prefix', isQualifiedName, '/x', ['prefix part must be non-empty']],
    ['qualified name two slashes', isQualifiedName, 'a/b/c', ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
    ['qualified name empty name', isQualifiedName, 'x/', ['name part must be non-empty', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
    ['label value empty ok', isValidLabelValue, '', []],
    ['label value bad', isValidLabelValue, '-x', ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]],
  ];
  for (const [title, fn, input, want] of cases) {
    void it(title, () => assert.deepEqual(fn(input), want));
  }

  void it('path-segment names', () => {
    const v = nameValidator('path-segment');
    assert.deepEqual(v('.', false), ["may not be '.'"]);
    assert.deepEqual(v('..', false), ["may not be '..'"]);
    assert.deepEqual(v('a/b%c', false), ["may not contain '/'", "may not contain '%'"]);
    assert.deepEqual(v('system:Admin', false), []);
    assert.deepEqual(v('.', true), [], 'a prefix may be "." since a suffix follows');
  });

  void it('generateName prefixes may end in a dash', () => {
    assert.deepEqual(nameValidator('dns1123-subdomain')('web-', true), []);
    assert.deepEqual(nameValidator('dns1123-label')('web-', true), []);
    assert.equal(nameValidator('dns1123-label')('Web-', true).length, 1);
    assert.deepEqual(nameValidator('none')('Any/Thing', false), []);
  });
});
