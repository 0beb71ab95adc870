import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine } from './flags.ts';
import { FlagError } from './pflag.ts';

void test('--show-hidden-metrics-for-version accepts only the previous minor version, as component-base', () => {
  assert.doesNotThrow(() => parseCommandLine(['--show-hidden-metrics-for-version=1.32']));
  assert.doesNotThrow(() => parseCommandLine([]));
  for (const v of ['1.31', '1.33', 'x']) {
    assert.throws(() => parseCommandLine([`--show-hidden-metrics-for-version=${v}`]), (e: unknown) => e instanceof FlagError &&
      e.message === "--show-hidden-metrics-for-version must be omitted or have the value '1.32'. Only the previous minor version is allowed");
  }
});
