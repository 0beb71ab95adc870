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

void test('-v and --logging-format: text or json, a non-negative level', () => {
  assert.deepEqual(parseCommandLine([]).logging, { verbosity: 0, format: 'text' });
  assert.deepEqual(parseCommandLine(['-v=3', '--logging-format=json']).logging, { verbosity: 3, format: 'json' });
  assert.deepEqual(parseCommandLine(['--v', '5']).logging, { verbosity: 5, format: 'text' });
  assert.throws(() => parseCommandLine(['--logging-format=xml']), (e: unknown) => e instanceof FlagError && e.message === 'logging-format: Invalid value: "xml": Unsupported log format');
  assert.equal(parseCommandLine(['--show-hidden-metrics-for-version=1.32']).options.showHiddenMetricsForVersion, '1.32');
});
