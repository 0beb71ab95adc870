import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectorAttributes } from './authorization.ts';

const url = (s: string) => new URL(`https://h${s}`);

test('selectors are parsed for list, watch and deletecollection only, and not on the /watch/ path form', () => {
  assert.deepEqual(selectorAttributes('list', url('/api/v1/pods?fieldSelector=spec.nodeName%3Dn1&labelSelector=a+in+(x,y),!b')), {
    fieldSelectorRequirements: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }],
    labelSelectorRequirements: [{ key: 'a', operator: 'in', values: ['x', 'y'] }, { key: 'b', operator: '!', values: [] }],
  });
  assert.deepEqual(selectorAttributes('get', url('/api/v1/namespaces/x/pods/p?fieldSelector=a%3Db')), {});
  assert.deepEqual(selectorAttributes('watch', url('/api/v1/watch/pods?fieldSelector=a%3Db')), {});
  assert.deepEqual(selectorAttributes('watch', url('/apis/apps/v1/watch/deployments?fieldSelector=a%3Db')), {});
  assert.equal(selectorAttributes('deletecollection', url('/api/v1/namespaces/x/pods?fieldSelector=a%3Db')).fieldSelectorRequirements?.length, 1);
  assert.deepEqual(selectorAttributes('list', url('/api/v1/pods?fieldSelector=&labelSelector=')), {});
  const bad = selectorAttributes('list', url('/api/v1/pods?labelSelector=a%20in%20(x'));
  assert.equal(bad.labelSelectorRequirements, undefined);
  assert.ok(bad.labelSelectorParsingError);
});
