/** Shared pieces of the RBAC API tests: token users, object builders, a bounded wait for informers. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Caller, TestServer } from '../support/server.ts';

export const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const G = 'rbac.authorization.k8s.io';

/** Writes a --token-auth-file with alice (group devs), bob, carol and dave; token = `<name>-token`. */
export function tokenUsers(dir: string): string {
  const file = path.join(dir, 'tokens.csv');
  writeFileSync(file, ['alice-token,alice,uid-alice,"devs"', 'bob-token,bob,uid-bob', 'carol-token,carol,uid-carol', 'dave-token,dave,uid-dave', ''].join('\n'));
  return file;
}

export const as = (user: string): Caller => ({ token: `${user}-token` });

export const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

export const role = (name: string, rules: unknown[]) => ({ apiVersion: `${G}/v1`, kind: 'Role', metadata: { name }, rules });
export const clusterRole = (name: string, rules: unknown[], extra: object = {}) => ({ apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name }, rules, ...extra });
export const roleBinding = (name: string, ref: { kind: string; name: string }, subjects: unknown[]) =>
  ({ apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name }, roleRef: { apiGroup: G, ...ref }, subjects });
export const clusterRoleBinding = (name: string, ref: { kind: string; name: string }, subjects: unknown[]) =>
  ({ apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: G, ...ref }, subjects });
export const user = (name: string) => ({ kind: 'User', apiGroup: G, name });

/**
 * Retries `fn` until it stops throwing: the authorizer learns of new bindings through a watch, a moment
 * after the write returns. Bounded (50 tries, 40 ms apart); the last failure is rethrown.
 */
export async function eventually(fn: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await fn();
      return;
    } catch (e) {
      if (i >= 50) throw e;
      await new Promise((r) => setTimeout(r, 40));
    }
  }
}

/** A kubeconfig for a token user of the test server. */
export function userKubeconfig(dir: string, srv: TestServer, name: string): string {
  const file = path.join(dir, `${name}.kubeconfig`);
  const ca = Buffer.from(srv.caPem).toString('base64');
  writeFileSync(file, [
    'apiVersion: v1', 'kind: Config', 'current-context: c',
    'clusters:', '- name: k', '  cluster:', `    server: ${srv.url}`, `    certificate-authority-data: ${ca}`, '    tls-server-name: localhost',
    'users:', `- name: ${name}`, '  user:', `    token: ${name}-token`,
    'contexts:', '- name: c', '  context:', '    cluster: k', `    user: ${name}`,
    '',
  ].join('\n'));
  return file;
}
