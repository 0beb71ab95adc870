import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { loadEncryptionConfig, readEncryptionConfigFile } from './config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'keelson-enc-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const K32 = Buffer.alloc(32, 1).toString('base64');

function file(body: string): string {
  const f = path.join(dir, `c${n++}.yaml`);
  writeFileSync(f, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n${body}`);
  return f;
}

async function refusal(body: string): Promise<string> {
  try {
    await loadEncryptionConfig(file(body));
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

void test('kube validation messages for resources', async () => {
  assert.equal(await refusal('resources: []\n'), 'error while parsing file: resources: Required value: at least one resources is required');
  assert.equal(await refusal("resources:\n  - resources: ['*']\n    providers: [{identity: {}}]\n"),
    "error while parsing file: resources[0].resources[0]: Invalid value: \"*\": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources");
  assert.equal(await refusal("resources:\n  - resources: ['Secrets']\n    providers: [{identity: {}}]\n"),
    'error while parsing file: resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters');
  assert.equal(await refusal("resources:\n  - resources: ['events.events.k8s.io']\n    providers: [{identity: {}}]\n"),
    "error while parsing file: resources[0].resources[0]: Invalid value: \"events.events.k8s.io\": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file");
  assert.equal(await refusal("resources:\n  - resources: ['secrets.*']\n    providers: [{identity: {}}]\n"),
    'error while parsing file: resources[0].resources[0]: Invalid value: "secrets.*": encrypting the same resource across groups is not supported');
  assert.equal(await refusal("resources:\n  - resources: ['serviceipallocations']\n    providers: [{identity: {}}]\n"),
    'error while parsing file: resources[0].resources[0]: Invalid value: "serviceipallocations": resources which do not have REST API/s cannot be encrypted');
  assert.match(await refusal("resources:\n  - resources: ['secrets', '*.']\n    providers: [{identity: {}}]\n"),
    /resources\[0\]\.resources: Invalid value: .*using overlapping resources such as 'secrets' and '\*\.' in the same resource list is not allowed as they will be masked/);
  assert.match(await refusal("resources:\n  - resources: ['secrets', 'secrets']\n    providers: [{identity: {}}]\n"), /the same resource cannot be specified multiple times/);
  assert.equal(await refusal("resources:\n  - resources: ['*.apps']\n    providers: [{identity: {}}]\n  - resources: ['deployments.apps']\n    providers: [{identity: {}}]\n"),
    'error while building transformers: resource "deployments.apps" is masked by earlier rule "*.apps"');
  assert.equal(await refusal("resources:\n  - resources: ['*.']\n    providers: [{identity: {}}]\n  - resources: ['secrets']\n    providers: [{identity: {}}]\n"),
    'error while building transformers: resource "secrets" is masked by earlier rule "*."');
});

void test('kube validation messages for providers and keys, aggregated', async () => {
  assert.equal(await refusal("resources:\n  - resources: [secrets]\n    providers: []\n"),
    'error while parsing file: resources[0].providers: Required value: at least one resources[0].providers is required');
  assert.match(await refusal(`resources:\n  - resources: [secrets]\n    providers: [{identity: {}, aescbc: {keys: [{name: a, secret: ${K32}}]}}]\n`),
    /resources\[0\]\.providers\[0\]: Invalid value: .*more than one provider specified in a single element, should split into different list elements/);
  assert.equal(await refusal("resources:\n  - resources: [secrets]\n    providers: [{aesgcm: {keys: []}}]\n"),
    'error while parsing file: resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required');
  assert.equal(await refusal("resources:\n  - resources: [secrets]\n    providers: [{secretbox: {keys: [{name: '', secret: 'not base64!'}]}}]\n"),
    'error while parsing file: [resources[0].providers[0].secretbox.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded]');
  assert.equal(await refusal(`resources:\n  - resources: [secrets]\n    providers: [{secretbox: {keys: [{name: k, secret: ${Buffer.alloc(16).toString('base64')}}]}}]\n`),
    'error while parsing file: resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]');
  assert.equal(await refusal("resources:\n  - resources: [secrets]\n    providers: [{kms: {apiVersion: v2, name: 'a:b', endpoint: 'tcp://x', cachesize: 10}}]\n"),
    'error while parsing file: [resources[0].providers[0].kms.name: Invalid value: "a:b": invalid KMS provider name a:b, must not contain \':\', resources[0].providers[0].kms.endpoint: Invalid value: "tcp://x": unsupported scheme "tcp" for KMS provider, only unix is supported, resources[0].providers[0].kms.cachesize: Invalid value: 10: cachesize is not supported in v2]');
  assert.match(await refusal("resources:\n  - resources: [secrets]\n    providers: [{kms: {name: old, endpoint: 'unix:///tmp/x.sock'}}]\n"), /KMSv1 is deprecated/);
});

void test('decoding: strict fields, kind, version and YAML syntax with the line', async () => {
  assert.match(await refusal('resources:\n  - resources: [secrets]\n    provider: []\n'), /strict decoding error: unknown field "resources\[0\]\.provider"/);
  const wrongKind = path.join(dir, 'kind.yaml');
  writeFileSync(wrongKind, 'apiVersion: apiserver.config.k8s.io/v1\nkind: Foo\nresources: []\n');
  await assert.rejects(readEncryptionConfigFile(wrongKind, false), /no kind "Foo" is registered for version "apiserver.config.k8s.io\/v1"/);
  const badYaml = path.join(dir, 'yaml.yaml');
  writeFileSync(badYaml, 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets\n   providers: x: y\n');
  await assert.rejects(readEncryptionConfigFile(badYaml, false), /error decoding encryption provider configuration file ".*yaml.yaml": yaml: line \d+: /);
  const empty = path.join(dir, 'empty.yaml');
  writeFileSync(empty, '');
  await assert.rejects(readEncryptionConfigFile(empty, false), /encryption provider configuration file ".*empty.yaml" is empty/);
});

void test('resource resolution: exact, then *.<group>, then *.*; unconfigured resources get no transformer', async () => {
  const cfg = await loadEncryptionConfig(file(`resources:
  - resources: [secrets]
    providers: [{aescbc: {keys: [{name: s, secret: ${K32}}]}}]
  - resources: ['*.apps']
    providers: [{aesgcm: {keys: [{name: g, secret: ${K32}}]}}]
  - resources: ['*.*']
    providers: [{secretbox: {keys: [{name: b, secret: ${K32}}]}}]
`));
  const ad = new TextEncoder().encode('/registry/x');
  const prefixOf = async (group: string, resource: string) => {
    const t = cfg.transformerFor({ group, resource });
    return t ? Buffer.from(await t.toStorage(new Uint8Array([1]), ad)).toString('latin1').split(':').slice(0, 5).join(':') : undefined;
  };
  assert.equal(await prefixOf('', 'secrets'), 'k8s:enc:aescbc:v1:s');
  assert.equal(await prefixOf('apps', 'deployments'), 'k8s:enc:aesgcm:v1:g');
  assert.equal(await prefixOf('', 'configmaps'), 'k8s:enc:secretbox:v1:b');
  assert.equal(await prefixOf('example.com', 'widgets'), 'k8s:enc:secretbox:v1:b');
  const only = await loadEncryptionConfig(file("resources:\n  - resources: ['*.']\n    providers: [{identity: {}}]\n"));
  assert.ok(only.transformerFor({ group: '', resource: 'pods' }));
  assert.equal(only.transformerFor({ group: 'apps', resource: 'deployments' }), undefined);
});
