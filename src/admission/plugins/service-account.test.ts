// ServiceAccount admission (kube's plugin/pkg/admission/serviceaccount): defaults, token volume, refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../machinery/objects.ts';
import { serviceAccountPlugin, TOKEN_MOUNT_PATH } from './service-account.ts';
import { admitAndValidate, pluginContext, refusal, request } from './testing/fake.ts';

const pod = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...meta }, spec });

async function setup(accounts: KObject[] = [{ metadata: { name: 'default', namespace: 'ns' } }]) {
  const ctx = pluginContext();
  for (const sa of accounts) ctx.registry.add('', 'serviceaccounts', sa);
  const plugin = serviceAccountPlugin(ctx, { generateName: (b) => `${b}abcde`, retryDelayMs: () => 1 });
  await plugin.ready!();
  return plugin;
}

void test('a pod gets the default account and kube\'s kube-api-access volume in every container and init container', async () => {
  const plugin = await setup();
  const a = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({
    initContainers: [{ name: 'i', image: 'x' }],
    containers: [{ name: 'c', image: 'x' }, { name: 'd', image: 'x', volumeMounts: [{ name: 'own', mountPath: TOKEN_MOUNT_PATH }] }],
    ephemeralContainers: [{ name: 'e', image: 'x' }],
  }) }));
  const spec = a.object!['spec'] as Record<string, any>;
  assert.equal(spec['serviceAccountName'], 'default');
  const mount = { name: 'kube-api-access-abcde', readOnly: true, mountPath: TOKEN_MOUNT_PATH };
  assert.deepEqual(spec['initContainers'][0].volumeMounts, [mount]);
  assert.deepEqual(spec['containers'][0].volumeMounts, [mount]);
  assert.deepEqual(spec['containers'][1].volumeMounts, [{ name: 'own', mountPath: TOKEN_MOUNT_PATH }], 'a mount at the path already wins');
  assert.equal(spec['ephemeralContainers'][0].volumeMounts, undefined, 'ephemeral containers are not given the token');
  assert.deepEqual(spec['volumes'], [{
    name: 'kube-api-access-abcde',
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  }]);
  assert.equal(spec['imagePullSecrets'], undefined, 'an account without pull secrets adds none');
});

void test('automountServiceAccountToken: the pod\'s choice wins over the account\'s; an existing kube-api-access volume is reused', async () => {
  const plugin = await setup([
    { metadata: { name: 'default', namespace: 'ns' } },
    { metadata: { name: 'quiet', namespace: 'ns' }, automountServiceAccountToken: false } as KObject,
  ]);
  const off = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ serviceAccountName: 'quiet', containers: [{ name: 'c', image: 'x' }] }) }));
  assert.equal((off.object!['spec'] as any).volumes, undefined);
  const on = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ serviceAccountName: 'quiet', automountServiceAccountToken: true, containers: [{ name: 'c', image: 'x' }] }) }));
  assert.equal((on.object!['spec'] as any).volumes.length, 1);
  const podOff = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ automountServiceAccountToken: false, containers: [{ name: 'c', image: 'x' }] }) }));
  assert.equal((podOff.object!['spec'] as any).volumes, undefined);
  const reuse = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({
    containers: [{ name: 'c', image: 'x' }], volumes: [{ name: 'kube-api-access-zzzzz', projected: { sources: [] } }],
  }) }));
  const spec = reuse.object!['spec'] as any;
  assert.equal(spec.volumes.length, 1);
  assert.equal(spec.containers[0].volumeMounts[0].name, 'kube-api-access-zzzzz');
});

void test('the v1 serviceAccount alias names the account; image pull secrets come from the account', async () => {
  const plugin = await setup([{ metadata: { name: 'builder', namespace: 'ns' }, imagePullSecrets: [{ name: 'reg' }] } as KObject]);
  const a = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ serviceAccount: 'builder', containers: [{ name: 'c', image: 'x' }] }) }));
  const spec = a.object!['spec'] as any;
  assert.equal(spec.serviceAccountName, 'builder');
  assert.deepEqual(spec.imagePullSecrets, [{ name: 'reg' }]);
  const own = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ serviceAccountName: 'builder', imagePullSecrets: [{ name: 'mine' }], containers: [{ name: 'c', image: 'x' }] }) }));
  assert.deepEqual((own.object!['spec'] as any).imagePullSecrets, [{ name: 'mine' }]);
});

void test('a missing account is kube\'s 403; the default account is retried a few times', async () => {
  const plugin = await setup([]);
  const e = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: pod({ serviceAccountName: 'ghost', containers: [] }) })));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found');
  const d = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: pod({ containers: [] }, { name: undefined, generateName: 'web-' }) })));
  assert.equal(d.message, 'pods "web-" is forbidden: error looking up service account ns/default: serviceaccount "default" not found');
});

void test('mirror pods are left alone but may not use accounts, secrets or token projections; sub-resources are skipped', async () => {
  const plugin = await setup();
  const mirror = { 'kubernetes.io/config.mirror': 'x' };
  const ok = await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ containers: [{ name: 'c', image: 'x' }] }, { annotations: mirror }) }));
  assert.equal((ok.object!['spec'] as any).serviceAccountName, undefined);
  for (const [spec, why] of [
    [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
    [{ volumes: [{ name: 'v', secret: { secretName: 's' } }] }, 'a mirror pod may not reference secrets'],
    [{ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
  ] as const) {
    const e = await refusal(plugin.admit!(request({ resource: 'pods', namespace: 'ns', object: pod({ containers: [], ...spec }, { annotations: mirror }) })));
    assert.equal(e.message, `pods "p" is forbidden: ${why}`);
  }
  const sub = request({ resource: 'pods', subresource: 'ephemeralcontainers', namespace: 'ns', object: pod({ containers: [] }) });
  await plugin.admit!(sub);
  assert.equal((sub.object!['spec'] as any).serviceAccountName, undefined);
});

void test('kubernetes.io/enforce-mountable-secrets limits the pod to the account\'s secrets', async () => {
  const plugin = await setup([{ metadata: { name: 'default', namespace: 'ns', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] } as KObject]);
  await admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ containers: [], volumes: [{ name: 'v', secret: { secretName: 'ok' } }] }) }));
  const e = await refusal(admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({ containers: [{ name: 'c', image: 'x', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'no', key: 'k' } } }] }] }) })));
  assert.equal(e.message, 'pods "p" is forbidden: container c with envVar E referencing secret.secretName="no" is not allowed because service account default does not reference that secret');
});

void test('mountable secrets: envFrom counts (CVE-2024-3177); ephemeral containers added later are held to them too', async () => {
  const plugin = await setup([{ metadata: { name: 'default', namespace: 'ns', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] } as KObject]);
  const e = await refusal(admitAndValidate(plugin, request({ resource: 'pods', namespace: 'ns', object: pod({
    initContainers: [{ name: 'i', image: 'x', envFrom: [{ secretRef: { name: 'hidden' } }] }], containers: [{ name: 'c', image: 'x' }],
  }) })));
  assert.equal(e.code, 403);
  assert.equal(e.message, 'pods "p" is forbidden: init container i with envFrom referencing secret.secretName="hidden" is not allowed because service account default does not reference that secret');

  const withEphemeral = (secret: string, sa = 'default') => request({
    operation: 'UPDATE', resource: 'pods', subresource: 'ephemeralcontainers', namespace: 'ns', name: 'p',
    object: pod({ serviceAccountName: sa, containers: [{ name: 'c', image: 'x' }], ephemeralContainers: [{ name: 'debug', image: 'x', envFrom: [{ secretRef: { name: secret } }] }] }),
  });
  await plugin.validate!(withEphemeral('ok'));
  const ep = await refusal(plugin.validate!(withEphemeral('hidden')));
  assert.equal(ep.code, 500, 'kube returns a plain error here');
  assert.equal(ep.message, 'ephemeral container debug with envFrom referencing secret.secretName="hidden" is not allowed because service account default does not reference that secret');
  const noAccount = request({ operation: 'UPDATE', resource: 'pods', subresource: 'ephemeralcontainers', namespace: 'ns', name: 'p', object: pod({ containers: [] }) });
  assert.equal((await refusal(plugin.validate!(noAccount))).message, 'pods "p" is forbidden: no service account specified for pod ns/p');
  // The ephemeral update is not mutated, and plain pod updates are not looked at.
  const update = request({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', name: 'p', object: pod({ containers: [{ name: 'c', image: 'x', envFrom: [{ secretRef: { name: 'hidden' } }] }] }) });
  await admitAndValidate(plugin, update);
  assert.equal((update.object!['spec'] as any).serviceAccountName, undefined);
});
