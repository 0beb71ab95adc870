import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { validateCrd, validateCrdUpdate, validateStoredVersions } from './apiextensions.ts';

type J = Record<string, any>;
const schema = (extra: J = {}) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' }, n: { type: 'integer' }, o: { type: 'object' }, ...extra } } } } });

function crd(mut: (c: J) => void = () => undefined): KObject {
  const c: J = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      conversion: { strategy: 'None' },
      versions: [{ name: 'v1', served: true, storage: true, schema: schema() }],
    },
    status: { storedVersions: ['v1'] },
  };
  mut(c);
  return c as KObject;
}

const msgs = (o: KObject, old?: KObject) => (old ? validateCrdUpdate(o, old) : validateCrd(o)).map((e) => e.toString());

void test('a valid CRD has no errors', () => {
  assert.deepEqual(msgs(crd()), []);
});

void test('names: DNS-1035 rules, mixed-case kinds, kind != listKind, short names and categories', () => {
  const errs = msgs(crd((c) => {
    c.spec.names = { plural: 'things', singular: 'Thing', kind: 'Th_ing', listKind: 'Th_ing', shortNames: ['ok', 'Bad'], categories: ['all', '-x'] };
  }));
  assert.ok(errs.some((e) => e.startsWith('spec.names.singular: Invalid value: "Thing": a DNS-1035 label')), errs.join('\n'));
  assert.ok(errs.some((e) => e.startsWith('spec.names.kind: Invalid value: "Th_ing": may have mixed case, but should otherwise match: a DNS-1035 label')), errs.join('\n'));
  assert.ok(errs.includes('spec.names.listKind: Invalid value: "Th_ing": kind and listKind may not be the same'), errs.join('\n'));
  assert.ok(errs.some((e) => e.startsWith('spec.names.shortNames[1]: Invalid value: "Bad"')), errs.join('\n'));
  assert.ok(errs.some((e) => e.startsWith('spec.names.categories[1]: Invalid value: "-x"')), errs.join('\n'));
});

void test('required names, versions unique with exactly one storage version', () => {
  const errs = msgs(crd((c) => {
    c.spec.names = { plural: 'things' };
    c.spec.versions = [{ name: 'v1', served: true, storage: true, schema: schema() }, { name: 'v1', served: true, storage: true, schema: schema() }];
  }));
  assert.ok(errs.includes('spec.names.singular: Required value'));
  assert.ok(errs.includes('spec.names.kind: Required value'));
  assert.ok(errs.includes('spec.names.listKind: Required value'));
  assert.ok(errs.some((e) => e.startsWith('spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{') && e.endsWith('must contain unique version names')));
  assert.ok(errs.some((e) => e.endsWith('must have exactly one version marked as storage version')));
});

void test('per-version fields identical in every version are reported at the top level, others per version', () => {
  const same = msgs(crd((c) => {
    c.spec.versions = [
      { name: 'v1', served: true, storage: true, schema: schema(), additionalPrinterColumns: [{ name: 'A', type: 'str', jsonPath: '.spec.a' }] },
      { name: 'v2', served: true, storage: false, schema: schema(), additionalPrinterColumns: [{ name: 'A', type: 'str', jsonPath: '.spec.a' }] },
    ];
  }));
  assert.deepEqual(same, ['spec.additionalPrinterColumns[0].type: Invalid value: "str": must be one of boolean,date,integer,number,string']);
  const differ = msgs(crd((c) => {
    c.spec.versions = [
      { name: 'v1', served: true, storage: true, schema: schema(), additionalPrinterColumns: [{ name: 'A', type: 'str', jsonPath: '.spec.a' }] },
      { name: 'v2', served: true, storage: false, schema: schema() },
    ];
  }));
  assert.deepEqual(differ, ['spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "str": must be one of boolean,date,integer,number,string']);
});

void test('schema errors from the engine are re-pathed to spec.validation when hoisted', async () => {
  const { FieldError } = await import('../../machinery/errors.ts');
  const e = new FieldError('FieldValueRequired', 'spec.versions[0].schema.openAPIV3Schema.properties[spec].type', 'must not be empty for specified object fields');
  const out = validateCrd(crd(), { schemaErrors: [e] }).map((x) => x.toString());
  assert.deepEqual(out, ['spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields']);
});

void test('selectable fields: paths into the schema, scalar types, not metadata, at most 8', () => {
  const errs = msgs(crd((c) => {
    c.spec.versions[0].selectableFields = [{ jsonPath: '.spec.a' }, { jsonPath: '.spec.o' }, { jsonPath: '.spec.missing' }, { jsonPath: '.spec.a' }];
  }));
  assert.deepEqual(errs, [
    'spec.selectableFields[1].jsonPath: Invalid value: ".spec.o": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
    'spec.selectableFields[2].jsonPath: Invalid value: ".spec.missing": is an invalid path: does not refer to a valid field',
    'spec.selectableFields[3].jsonPath: Duplicate value: ".spec.a"',
  ]);
  const many = msgs(crd((c) => {
    const props: J = {};
    for (let i = 0; i < 9; i++) props[`f${i}`] = { type: 'string' };
    c.spec.versions[0].schema = schema(props);
    c.spec.versions[0].selectableFields = Object.keys(props).map((k) => ({ jsonPath: `.spec.${k}` }));
  }));
  assert.deepEqual(many, ['spec.selectableFields: Too many: 9: must have at most 8 items']);
});

void test('conversion: webhook needs a client config and review versions; None forbids them', () => {
  const errs = msgs(crd((c) => {
    c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v9'] } };
  }));
  assert.deepEqual(errs, [
    'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
    'spec.conversion.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1',
  ]);
  const none = msgs(crd((c) => {
    c.spec.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } };
  }));
  assert.deepEqual(none, [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
});

void test('deprecationWarning only on deprecated versions', () => {
  assert.deepEqual(msgs(crd((c) => { c.spec.versions[0].deprecationWarning = 'x'; })), ['spec.versions[0].deprecationWarning: Invalid value: "x": can only be set for deprecated versions']);
});

void test('storedVersions must hold the storage version and only versions still listed', () => {
  const errs = validateStoredVersions(['v0', 'v1'], [{ name: 'v1', storage: false }, { name: 'v2', storage: true }]).map((e) => e.toString());
  assert.deepEqual(errs, [
    'status.storedVersions: Invalid value: []string{"v0", "v1"}: must have the storage version v2',
    'status.storedVersions[0]: Invalid value: "v0": missing from spec.versions; v0 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v0 and removes v0 from status.storedVersions',
  ]);
});

void test('update: group and plural immutable; scope and kind immutable once established', () => {
  const old = crd((c) => { c.status.conditions = [{ type: 'Established', status: 'True' }]; });
  const errs = msgs(crd((c) => {
    c.spec.group = 'other.com';
    c.spec.scope = 'Cluster';
    c.spec.names.kind = 'Other';
    c.metadata.name = 'things.other.com';
  }), old);
  assert.deepEqual(errs, [
    'spec.scope: Invalid value: "Cluster": field is immutable',
    'spec.names.kind: Invalid value: "Other": field is immutable',
    'spec.group: Invalid value: "other.com": field is immutable',
  ]);
});
