import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../machinery/errors.ts';
import { continueAfter } from './continue-token.ts';
import { planList, readAtForGet, validateListParams, validateWatchParams } from './options.ts';
import type { ListParams, WatchParams } from './rest.ts';

const P = '/registry/configmaps/ns/';
const token = continueAfter(`${P}b`, P, 7);

void describe('resourceVersion table (SPEC "Resource version semantics")', () => {
  void it('get', () => {
    assert.deepEqual(readAtForGet(undefined), { kind: 'consistent' });
    assert.deepEqual(readAtForGet(''), { kind: 'consistent' });
    assert.deepEqual(readAtForGet('0'), { kind: 'any' });
    assert.deepEqual(readAtForGet('12'), { kind: 'notOlderThan', revision: 12 });
    assert.throws(() => readAtForGet('-1'), (e: unknown) => e instanceof StatusError && e.code === 400);
    assert.throws(() => readAtForGet('99999999999999999999'), (e: unknown) => e instanceof StatusError && /value out of range/.test(e.message));
  });

  const rows: [string, ListParams, unknown][] = [
    ['unset, no limit → most recent', {}, { kind: 'consistent' }],
    ['0, no limit → any', { resourceVersion: '0' }, { kind: 'any' }],
    ['N, no limit → not older than', { resourceVersion: '5' }, { kind: 'notOlderThan', revision: 5 }],
    ['unset, limit → most recent', { limit: 2 }, { kind: 'consistent' }],
    ['0, limit → any', { resourceVersion: '0', limit: 2 }, { kind: 'any' }],
    ['N, limit → exact (legacy)', { resourceVersion: '5', limit: 2 }, { kind: 'exact', revision: 5 }],
    ['continue → exact at the token revision', { limit: 2, continue: token }, { kind: 'exact', revision: 7 }],
    ['continue with rv 0 → the token', { limit: 2, continue: token, resourceVersion: '0' }, { kind: 'exact', revision: 7 }],
    ['Exact N', { resourceVersion: '5', resourceVersionMatch: 'Exact' }, { kind: 'exact', revision: 5 }],
    ['Exact N with limit', { resourceVersion: '5', resourceVersionMatch: 'Exact', limit: 1 }, { kind: 'exact', revision: 5 }],
    ['NotOlderThan 0 → any', { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, { kind: 'any' }],
    ['NotOlderThan N', { resourceVersion: '5', resourceVersionMatch: 'NotOlderThan', limit: 3 }, { kind: 'notOlderThan', revision: 5 }],
  ];
  for (const [title, params, read] of rows) {
    void it(`list: ${title}`, () => {
      validateListParams(params);
      assert.deepEqual(planList(params, P).read, read);
    });
  }

  void it('a continue token restarts after the last key', () => {
    assert.equal(planList({ continue: token }, P).startKey, `${P}b\u0000`);
  });

  const listErrors: [string, ListParams, string][] = [
    ['match with continue', { resourceVersion: '1', resourceVersionMatch: 'Exact', continue: token }, 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
    ['sendInitialEvents on a list', { sendInitialEvents: true } as WatchParams, 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
  ];
  for (const [title, params, detail] of listErrors) {
    void it(`list rejects ${title}`, () => {
      assert.throws(() => validateListParams(params), (e: unknown) => e instanceof StatusError && e.code === 422 && e.message === `ListOptions.meta.k8s.io "" is invalid: ${detail}`);
    });
  }

  void it('watch options', () => {
    validateWatchParams({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    assert.throws(() => validateWatchParams({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' }, false),
      (e: unknown) => e instanceof StatusError && e.message.endsWith('sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    assert.throws(() => validateWatchParams({ sendInitialEvents: false, resourceVersionMatch: 'Exact' }),
      (e: unknown) => e instanceof StatusError && e.message === 'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]');
  });
});
