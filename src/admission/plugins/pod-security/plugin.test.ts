// The PodSecurity plugin in a registry's admission chain: the audit annotations kube records for each decision
// (there is no audit backend yet, so they are read from the request context), warnings, refusals, and the
// namespace informer that feeds it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdmissionChain } from '../../chain.ts';
import type { AdmissionPlugin, PluginContext } from '../../types.ts';
import type { OpContext } from '../../../registry/rest.ts';
import { statusOf, sys, testEnv, type TestEnv } from '../../../registry/testing/registry.ts';
import { podSecurity } from './index.ts';

const L = 'pod-security.kubernetes.io/';
let env: TestEnv;
let plugin: AdmissionPlugin;
let chain: AdmissionChain | undefined;

function context(env: TestEnv, config?: unknown): PluginContext {
  return {
    registry: env.registry, authorizer: () => ({ name: 'none', authorize: () => ({ kind: 'no-opinion' }) }), featureEnabled: () => false,
    config, configDir: '.', log: () => {}, now: () => new Date(),
  };
}

before(async () => {
  env = await testEnv({ admission: () => chain, cache: true });
  plugin = podSecurity(context(env, {
    apiVersion: 'pod-security.admission.config.k8s.io/v1', kind: 'PodSecurityConfiguration',
    exemptions: { usernames: ['ci-bot'], namespaces: ['exempt'], runtimeClasses: ['kata'] },
  }));
  chain = new AdmissionChain([plugin]);
  await plugin.ready!();
  const ns = env.registry.lookup('', 'v1', 'namespaces')!;
  await ns.create(sys(''), { metadata: { name: 'team', labels: { [`${L}enforce`]: 'baseline', [`${L}enforce-version`]: 'v1.30', [`${L}audit`]: 'restricted', [`${L}warn`]: 'restricted' } } }, {});
  await ns.create(sys(''), { metadata: { name: 'open' } }, {});
  await ns.create(sys(''), { metadata: { name: 'exempt', labels: { [`${L}enforce`]: 'restricted' } } }, {});
});
after(async () => {
  await plugin?.stop?.();
  await env?.close();
});

const pods = () => env.registry.lookup('', 'v1', 'pods')!;
const ctx = (namespace: string, user = 'alice'): OpContext & { auditAnnotations: Record<string, string> } =>
  ({ ...sys(namespace), user: { username: user, groups: [] }, auditAnnotations: {} });
const bare = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...extra } });
const RESTRICTED = 'allowPrivilegeEscalation != false (container "app" must set securityContext.allowPrivilegeEscalation=false), '
  + 'unrestricted capabilities (container "app" must set securityContext.capabilities.drop=["ALL"]), '
  + 'runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true), '
  + 'seccompProfile (pod or container "app" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

void test('an admitted pod: enforce-policy and audit-violations annotations, the warn level\'s warning', async () => {
  const c = ctx('team');
  await pods().create(c, bare('web'), {});
  assert.deepEqual(c.auditAnnotations, {
    [`${L}enforce-policy`]: 'baseline:v1.30',
    [`${L}audit-violations`]: `would violate PodSecurity "restricted:latest": ${RESTRICTED}`,
  });
  assert.deepEqual(c.warnings, [`would violate PodSecurity "restricted:latest": ${RESTRICTED}`]);
});

void test('a refused pod: annotated too, no warning', async () => {
  const c = ctx('team');
  const status = await statusOf(pods().create(c, bare('priv', { hostNetwork: true }), {}));
  assert.equal(status.code, 403);
  assert.match(status.message!, /^pods "priv" is forbidden: violates PodSecurity "baseline:v1.30": host namespaces \(hostNetwork=true\)$/);
  assert.deepEqual(Object.keys(c.auditAnnotations).sort(), [`${L}audit-violations`, `${L}enforce-policy`]);
  assert.deepEqual(c.warnings, []);
});

void test('a privileged namespace, exempt namespaces, users and runtime classes', async () => {
  const cases: Array<[OpContext & { auditAnnotations: Record<string, string> }, Record<string, unknown>, Record<string, string>]> = [
    [ctx('open'), bare('a'), { [`${L}enforce-policy`]: 'privileged:latest' }],
    [ctx('exempt'), bare('b'), { [`${L}exempt`]: 'namespace' }],
    [ctx('team', 'ci-bot'), bare('c', { hostPID: true }), { [`${L}exempt`]: 'user' }],
    [ctx('team'), bare('d', { hostPID: true, runtimeClassName: 'kata' }), { [`${L}exempt`]: 'runtimeClass' }],
  ];
  for (const [c, obj, want] of cases) {
    await pods().create(c, obj as never, {});
    assert.deepEqual(c.auditAnnotations, want, c.namespace);
    assert.deepEqual(c.warnings, []);
  }
});

void test('a metadata-only update of a pod is not re-evaluated (and not annotated)', async () => {
  await pods().create(ctx('team'), bare('meta'), {});
  const c = ctx('team');
  await pods().guaranteedUpdate(c, 'meta', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { a: 'b' } } }), {});
  assert.deepEqual(c.auditAnnotations, {});
  assert.deepEqual(c.warnings, []);
});

void test('relabeling: warnings for existing pods, then the plugin\'s namespace informer enforces the new label', async () => {
  const ns = env.registry.lookup('', 'v1', 'namespaces')!;
  const c = ctx('');
  await ns.guaranteedUpdate(c, 'open', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { [`${L}enforce`]: 'restricted' } } }), {});
  assert.deepEqual(c.warnings, ['existing pods in namespace "open" violate the new PodSecurity enforce level "restricted:latest"', `a: ${RESTRICTED.replace(/ \([^)]*\)/g, '')}`]);
  // Wait for the informer, then refuse from it.
  const end = Date.now() + 5000;
  for (;;) {
    const s = await statusOf(pods().create(ctx('open'), bare(`x${Date.now()}`), {})).catch(() => undefined);
    if (s?.code === 403) break;
    assert.ok(Date.now() < end, 'the informer never saw the label');
    await new Promise((r) => setTimeout(r, 20));
  }
});
