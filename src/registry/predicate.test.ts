import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../machinery/errors.ts';
import type { ObjectAttrs } from '../storage/cacher/types.ts';
import { makePredicate } from './predicate.ts';

const META = new Set(['metadata.name', 'metadata.namespace']);
const POD = new Set(['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase']);

const attrs = (name: string, labels: Record<string, string>, fields: Record<string, string> = {}): ObjectAttrs => ({
  name, namespace: 'ns', labels, fields: { 'metadata.name': name, 'metadata.namespace': 'ns', ...fields },
});

function badRequest(fn: () => unknown, message: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof StatusError);
    assert.equal(e.code, 400);
    assert.equal(e.reason, 'BadRequest');
    assert.equal(e.message, message);
    return true;
  });
}

void describe('makePredicate', () => {
  void it('no selectors: empty, matches all', () => {
    const p = makePredicate({ allowedFields: META });
    assert.equal(p.empty, true);
    assert.equal(p.matches(attrs('a', {})), true);
    assert.equal(p.name, undefined);
  });

  void it('combines labels and fields (AND)', () => {
    const p = makePredicate({ labelSelector: 'app=web', fieldSelector: 'metadata.name!=b', allowedFields: META });
    assert.equal(p.empty, false);
    assert.equal(p.matches(attrs('a', { app: 'web' })), true);
    assert.equal(p.matches(attrs('b', { app: 'web' })), false);
    assert.equal(p.matches(attrs('a', { app: 'db' })), false);
  });

  void it('exposes a pinned name for the key index', () => {
    assert.equal(makePredicate({ fieldSelector: 'metadata.name=x', allowedFields: META }).name, 'x');
    assert.equal(makePredicate({ fieldSelector: 'metadata.name!=x', allowedFields: META }).name, undefined);
  });

  void it('keeps the parsed selectors for authorization', () => {
    const p = makePredicate({ labelSelector: 'a in (1,2)', fieldSelector: 'metadata.namespace=n', allowedFields: META });
    assert.deepEqual(p.labelSelector.requirements, [{ key: 'a', operator: 'in', values: ['1', '2'] }]);
    assert.deepEqual(p.fieldSelector.requirements, [{ field: 'metadata.namespace', operator: '=', value: 'n' }]);
  });

  void it('bad label syntax → 400 with the parser text', () => {
    badRequest(() => makePredicate({ labelSelector: 'a=b c', allowedFields: META }), "found 'c', expected: ',' or 'end of string'");
  });

  void it('bad field syntax → 400', () => {
    badRequest(() => makePredicate({ fieldSelector: 'nope', allowedFields: META }), "invalid selector: 'nope'; can't understand 'nope'");
  });

  void it('labels are checked before fields', () => {
    badRequest(() => makePredicate({ labelSelector: '!', fieldSelector: 'nope', allowedFields: META }), "unable to parse requirement: found '', expected: identifier");
  });

  void it('unknown field on a default resource → kube default conversion text', () => {
    badRequest(() => makePredicate({ fieldSelector: 'spec.x=1', allowedFields: META }),
      '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  void it('unknown field on a resource with its own conversion → field label not supported', () => {
    badRequest(() => makePredicate({ fieldSelector: 'spec.x=1', allowedFields: POD }), 'field label not supported: spec.x');
    badRequest(() => makePredicate({ fieldSelector: 'metadata.namespace=a', allowedFields: new Set(['metadata.name']), customFieldLabels: true }),
      'field label not supported: metadata.namespace');
  });

  void it('resource fields match, missing ones compare as empty', () => {
    const p = makePredicate({ fieldSelector: 'spec.nodeName=', allowedFields: POD });
    assert.equal(p.matches(attrs('a', {}, { 'status.phase': 'Running' })), true);
    assert.equal(p.matches(attrs('a', {}, { 'spec.nodeName': 'n1' })), false);
  });

  void it('aliases are rewritten before checking and matching', () => {
    const p = makePredicate({ fieldSelector: 'spec.host=n\\,1', allowedFields: POD, fieldAliases: { 'spec.host': 'spec.nodeName' } });
    assert.equal(p.fieldSelector.toString(), 'spec.nodeName=n\\,1');
    assert.equal(p.matches(attrs('a', {}, { 'spec.nodeName': 'n,1' })), true);
  });
});
