import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { ResourceDef } from '../../api/types.ts';
import { StatusError } from '../../machinery/errors.ts';
import { namespaces, sys, testEnv } from '../testing/registry.ts';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameValidator } from './names.ts';
import { kubeReference } from '../../../test/support/kube-reference.ts';

const REF = kubeReference('responses/errors/422-invalid-name.json');
/** kube's IsDNS1035Label message (k8s.io/apimachinery/pkg/util/validation), double space included. */
const DNS1035_1ABC = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

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
    ['DNS-1035 label ok', isDNS1035Label, 'abc-1', []],
    ['DNS-1035 label starting with a digit', isDNS1035Label, '1abc', [DNS1035_1ABC]],
    ['DNS-1035 label too long', isDNS1035Label, `a${'0'.repeat(63)}`, ['must be no more than 63 characters']],
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

  void it('dns1035-label (the Service rule): generateName prefixes are masked, and a digit first is refused', () => {
    const v = nameValidator('dns1035-label');
    assert.deepEqual(v('abc-1', false), []);
    assert.deepEqual(v('1abc', false), [DNS1035_1ABC]);
    assert.deepEqual(v('svc-', true), []);
    assert.equal(v('1svc-', true).length, 1);
    assert.deepEqual(nameValidator('dns1123-label')('1abc', false), [], 'a DNS-1123 label may start with a digit');
  });

  void it('a registry create under dns1035-label refuses 1abc with kube\'s 422 and accepts abc-1', async () => {
    const services: ResourceDef = {
      group: '', version: 'v1', resource: 'services', singular: 'service', kind: 'Service', listKind: 'ServiceList', namespaced: true,
      verbs: ['create', 'get'], nameRule: 'dns1035-label', storagePrefix: '/registry/services/specs/', strategy: { allowUnconditionalUpdate: true },
    };
    const env = await testEnv({ defs: [namespaces, services] });
    try {
      const svc = env.registry.lookup('', 'v1', 'services')!;
      let err: unknown;
      try {
        await svc.create(sys('default'), { apiVersion: 'v1', kind: 'Service', metadata: { name: '1abc' } }, {});
      } catch (e) { err = e; }
      assert.ok(err instanceof StatusError, String(err));
      const s = err.toStatus();
      assert.equal(s.code, 422);
      assert.equal(s.reason, 'Invalid');
      assert.deepEqual(s.details!.causes, [{ reason: 'FieldValueInvalid', message: `Invalid value: "1abc": ${DNS1035_1ABC}`, field: 'metadata.name' }]);
      assert.equal(s.message, `Service "1abc" is invalid: metadata.name: Invalid value: "1abc": ${DNS1035_1ABC}`);
      const ok = await svc.create(sys('default'), { apiVersion: 'v1', kind: 'Service', metadata: { name: 'abc-1' } }, {});
      assert.equal(ok.metadata.name, 'abc-1');
    } finally {
      await env.close();
    }
  });
});
