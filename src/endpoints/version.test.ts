import { test } from 'node:test';
import assert from 'node:assert/strict';
import { versionInfo } from './version.ts';
import { readKubeJson } from '../../test/support/kube-reference.ts';

void test('/version has kube-apiserver\'s keys, reporting v1.33.0', () => {
  const ref = readKubeJson<Record<string, string>>('responses/version.json');
  const v = versionInfo() as unknown as Record<string, string>;
  for (const k of Object.keys(ref)) assert.equal(typeof v[k], 'string', k);
  assert.equal(v.major, '1');
  assert.equal(v.minor, '33');
  assert.equal(v.gitVersion, 'v1.33.0');
  assert.match(v.buildDate!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.match(v.platform!, /^[a-z0-9]+\/[a-z0-9]+$/);
  assert.equal(v.goVersion, `node${process.versions.node}`);
});
