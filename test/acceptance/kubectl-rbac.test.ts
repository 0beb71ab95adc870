/**
 * Acceptance: kubectl 1.33 against a server in RBAC mode with the default policy. A user with no grants (only
 * system:authenticated, through the admin's impersonation) sees exactly what kube-apiserver v1.33 lists for
 * such a user; a RoleBinding to `view` reads pods but not secrets in its namespace only; `edit` reads secrets.
 * Skips (printing why) when no kubectl is found.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { findKubectl, kubectl as run, kubectlMissingReason, type KubectlResult } from '../support/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const bin = findKubectl();
const skip = bin ? false : `no kubectl: ${kubectlMissingReason()}`;
if (skip) process.stderr.write(`skipping kubectl RBAC acceptance: ${skip}\n`);

let srv: TestServer;
before(async () => {
  if (skip) return;
  srv = await startTestServer({ authorizationMode: ['RBAC'] });
});
after(async () => { await srv?.stop(); });

const k = (args: string[], input?: string): Promise<KubectlResult> => run(args, { kubeconfig: srv.kubeconfigPath, ...(input ? { input } : {}) });
const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s+/));

/**
 * kube v1.33 for a user bound only through system:authenticated: system:basic-user (the three self reviews),
 * system:discovery and system:public-info-viewer (get on their URLs). kubectl breaks the rules down, compacts
 * resource rules, and sorts by the rules' Go string form (verbs first, then groups; `/x/*]` sorts before `/x]`);
 * URLs granted by both discovery and public-info-viewer appear twice.
 */
const BASIC_USER_LIST = [
  ['Resources', 'Non-Resource', 'URLs', 'Resource', 'Names', 'Verbs'],
  ['selfsubjectreviews.authentication.k8s.io', '[]', '[]', '[create]'],
  ['selfsubjectaccessreviews.authorization.k8s.io', '[]', '[]', '[create]'],
  ['selfsubjectrulesreviews.authorization.k8s.io', '[]', '[]', '[create]'],
  ['[/api/*]', '[]', '[get]'],
  ['[/api]', '[]', '[get]'],
  ['[/apis/*]', '[]', '[get]'],
  ['[/apis]', '[]', '[get]'],
  ['[/healthz]', '[]', '[get]'],
  ['[/healthz]', '[]', '[get]'],
  ['[/livez]', '[]', '[get]'],
  ['[/livez]', '[]', '[get]'],
  ['[/openapi/*]', '[]', '[get]'],
  ['[/openapi]', '[]', '[get]'],
  ['[/readyz]', '[]', '[get]'],
  ['[/readyz]', '[]', '[get]'],
  ['[/version/]', '[]', '[get]'],
  ['[/version/]', '[]', '[get]'],
  ['[/version]', '[]', '[get]'],
  ['[/version]', '[]', '[get]'],
];

void test('auth can-i --list for a user with no grants equals kube v1.33', { skip }, async () => {
  const r = await k(['auth', 'can-i', '--list', '--as=nobody', '-n', 'default']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(rows(r.stdout), BASIC_USER_LIST);
  const no = await k(['auth', 'can-i', 'list', 'pods', '--as=nobody', '-n', 'default']);
  assert.equal(no.stdout.trim(), 'no');
  const yes = await k(['auth', 'can-i', 'get', '/version', '--as=nobody']);
  assert.equal(yes.stdout.trim(), 'yes', yes.stderr);
});

void test('a RoleBinding to view reads pods in its namespace, not secrets, not elsewhere; edit reads secrets', { skip }, async () => {
  for (const ns of ['team', 'elsewhere']) assert.equal((await k(['create', 'namespace', ns])).code, 0);
  const v = await k(['create', 'rolebinding', 'alice-view', '--clusterrole=view', '--user=alice', '-n', 'team']);
  assert.equal(v.code, 0, v.stderr);
  const e = await k(['create', 'rolebinding', 'bob-edit', '--clusterrole=edit', '--user=bob', '-n', 'team']);
  assert.equal(e.code, 0, e.stderr);
  const can = async (args: string[]) => (await k(['auth', 'can-i', ...args])).stdout.trim();
  assert.equal(await can(['get', 'pods', '--as=alice', '-n', 'team']), 'yes');
  assert.equal(await can(['list', 'pods', '--as=alice', '-n', 'team']), 'yes');
  assert.equal(await can(['create', 'pods', '--as=alice', '-n', 'team']), 'no');
  assert.equal(await can(['get', 'secrets', '--as=alice', '-n', 'team']), 'no');
  assert.equal(await can(['get', 'pods', '--as=alice', '-n', 'elsewhere']), 'no');
  assert.equal(await can(['get', 'secrets', '--as=bob', '-n', 'team']), 'yes');
  assert.equal(await can(['create', 'deployments.apps', '--as=bob', '-n', 'team']), 'yes');
  assert.equal(await can(['create', 'rolebindings', '--as=bob', '-n', 'team']), 'no');

  // The real requests agree with the reviews.
  const pods = await k(['get', 'pods', '--as=alice', '-n', 'team']);
  assert.equal(pods.code, 0, pods.stderr);
  assert.match(pods.stderr, /No resources found in team namespace\./);
  const secrets = await k(['get', 'secrets', '--as=alice', '-n', 'team']);
  assert.equal(secrets.code, 1);
  assert.match(secrets.stderr, /Error from server \(Forbidden\): secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "team"/);
  const bobSecrets = await k(['get', 'secrets', '--as=bob', '-n', 'team']);
  assert.equal(bobSecrets.code, 0, bobSecrets.stderr);
});
