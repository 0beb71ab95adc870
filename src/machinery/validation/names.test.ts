// Cases from k8s.io/apimachinery/pkg/util/validation/validation.go (IsDNS1123Label, IsDNS1123Subdomain,
// IsDNS1035Label, IsQualifiedName, IsValidLabelValue, IsConfigMapKey, IsValidPortName, IsValidPortNum,
// IsValidPercent, IsWildcardDNS1123Subdomain, IsRelaxedEnvVarName) and pkg/api/validation/path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as n from './names.ts';

const LABEL_RE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_RE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const cases: [string, (v: string) => string[], string, string[]][] = [
  ['label ok', n.isDNS1123Label, 'my-name', []],
  ['label upper', n.isDNS1123Label, 'My-Name', [LABEL_RE]],
  ['label dots', n.isDNS1123Label, 'a.b', ['must not contain dots']],
  ['label long', n.isDNS1123Label, 'a'.repeat(64), ['must be no more than 63 characters']],
  ['subdomain ok', n.isDNS1123Subdomain, 'example.com', []],
  ['subdomain bad', n.isDNS1123Subdomain, 'Bad_Name', [SUBDOMAIN_RE]],
  ['subdomain long', n.isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
  ['1035 digit', n.isDNS1035Label, '1abc', ["a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"]],
  ['qualified ok', n.isQualifiedName, 'example.com/MyName', []],
  ['qualified empty prefix', n.isQualifiedName, '/a', ['prefix part must be non-empty']],
  ['qualified bad name', n.isQualifiedName, 'a/-b', ["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]],
  ['qualified two slashes', n.isQualifiedName, 'a/b/c', ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
  ['label value empty ok', n.isValidLabelValue, '', []],
  ['label value bad', n.isValidLabelValue, '-x', ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]],
  ['configmap key', n.isConfigMapKey, 'a b', ["a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]],
  ['configmap key dotdot', n.isConfigMapKey, '..a', ["must not start with '..'"]],
  ['port name', n.isValidPortName, '-HTTP-', ['must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)', 'must contain at least one letter (a-z)', 'must not begin or end with a hyphen']],
  ['port name long', n.isValidPortName, 'a'.repeat(16), ['must be no more than 15 characters']],
  ['percent', n.isValidPercent, '5', ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]],
  ['wildcard', n.isWildcardDNS1123Subdomain, '*.*.com', ["a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]],
  ['path segment', n.isValidPathSegmentName, 'a/b%', ["may not contain '/'", "may not contain '%'"]],
  ['path segment dot', n.isValidPathSegmentName, '..', ["may not be '..'"]],
  ['env relaxed ok', n.isRelaxedEnvVarName, '1-my.var', []],
  ['env relaxed eq', n.isRelaxedEnvVarName, 'A=B', ["a valid environment variable name must consist only of printable ASCII characters other than '='"]],
];

for (const [name, fn, value, want] of cases) {
  test(`names: ${name}`, () => assert.deepEqual(fn(value), want));
}

test('names: port numbers and IPs', () => {
  assert.deepEqual(n.isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(n.isValidPortNum(65535), []);
  assert.equal(n.ipFamilyOf('10.0.0.1'), 4);
  assert.equal(n.ipFamilyOf('010.000.0.1'), 4, 'ParseIPSloppy accepts leading zeros');
  assert.equal(n.ipFamilyOf('2001:db8::1'), 6);
  assert.equal(n.ipFamilyOf('300.1.1.1'), 0);
  assert.deepEqual(n.parseCIDR('10.0.0.0/8'), { family: 4, ip: '10.0.0.0', bits: 8 });
  assert.equal(n.parseCIDR('10.0.0.0/33'), undefined);
  assert.equal(n.parseCIDR('10.0.0.0'), undefined);
});
