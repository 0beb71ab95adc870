// withKindValidation keeps a strategy's own hooks and adds the kind's rules; sub-resource writes skip spec rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject, Strategy } from '../types.ts';
import { FieldError, field } from '../../endpoints/status.ts';
import { withKindValidation } from './strategy.ts';

test('withKindValidation: own errors first, then the kind rules', () => {
  const own: Strategy = { validate: () => [field.required('own')], defaults: () => {} };
  const s = withKindValidation(own, '', 'ConfigMap');
  const cm = { metadata: { name: 'c', namespace: 'd' }, data: { 'a b': 'x' } } as KObject;
  const errs = s.validate!(cm, { dryRun: false }).map((e: FieldError) => e.field);
  assert.deepEqual(errs, ['own', 'data[a b]']);
  assert.equal(typeof s.defaults, 'function', 'other hooks kept');
  const old = { ...cm, immutable: true, data: { a: 'y' } } as KObject;
  assert.deepEqual(s.validateUpdate!(cm, old, { dryRun: false }).map((e: FieldError) => e.field), ['own', 'immutable', 'data', 'data[a b]']);
  assert.deepEqual(s.validateUpdate!(cm, old, { subresource: 'status', dryRun: false }).map((e: FieldError) => e.field), ['own']);
});

test('withKindValidation: kinds without rules keep the strategy as is', () => {
  const own: Strategy = {};
  assert.equal(withKindValidation(own, 'example.com', 'Widget'), own);
});
