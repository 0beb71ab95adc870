import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startOidcProvider, type TestOidcProvider } from '../../../test/support/oidc-provider.ts';
import { OptionsError } from '../../machinery/errors.ts';
import { resolveOptions, type ServerOptions } from '../../controlplane/options.ts';
import type { AuthenticationDeps } from '../deps.ts';
import { createJwtAuthentication, type JwtAuthenticationPart } from './index.ts';

const deps = (o: ServerOptions, log: (l: string) => void = () => {}): AuthenticationDeps =>
  ({ options: resolveOptions(o), log } as unknown as AuthenticationDeps);

const entry = (p: TestOidcProvider, prefix: string): Record<string, unknown> => ({
  issuer: { url: p.url, audiences: [p.audience], certificateAuthority: p.caPem },
  claimMappings: { username: { claim: 'sub', prefix } },
});

const write = (file: string, jwt: unknown[], anonymous?: unknown): void =>
  writeFileSync(file, stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthenticationConfiguration', jwt, ...(anonymous ? { anonymous } : {}) }));

async function until(f: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await f()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`${what}: not reached`);
}

const nameOf = async (part: JwtAuthenticationPart, token: string): Promise<string | undefined> =>
  (await part.tokens![0]!.authenticateToken(token))?.username;

void test('nothing configured: no part; flags: one issuer; anonymous flag conflict', async () => {
  assert.deepEqual(await createJwtAuthentication(deps({})), {});
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-jwt-'));
  try {
    const f = path.join(dir, 'a.yaml');
    write(f, [], { enabled: true });
    const o = { ...resolveOptions({ authenticationConfigFile: f }), anonymousAuthFlagSet: true };
    await assert.rejects(createJwtAuthentication({ options: o, log: () => {} } as unknown as AuthenticationDeps), (e: unknown) => e instanceof OptionsError
      && e.message === 'anonymous: Forbidden: --anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file');
    const part = await createJwtAuthentication(deps({ authenticationConfigFile: f }));
    assert.deepEqual(part.anonymous, { enabled: true, conditions: [] });
    await part.stop?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('reload waits for the new providers: a provider that is down keeps the old configuration until it answers', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'keelson-jwt-'));
  const a = await startOidcProvider();
  const b = await startOidcProvider({ ca: a.ca });
  const logs: string[] = [];
  const f = path.join(dir, 'authn.yaml');
  write(f, [entry(a, 'a:')]);
  const part = await createJwtAuthentication(deps({ authenticationConfigFile: f }, (l) => logs.push(l)), { retryMs: 20, reloadIntervalMs: 50, reloadTimeoutMs: 1000 });
  try {
    const ta = await a.token({ sub: 'jane' });
    const tb = await b.token({ sub: 'bob' });
    await until(async () => (await nameOf(part, ta)) === 'a:jane', 'issuer a ready');
    b.down = true;
    write(f, [entry(a, 'a2:'), entry(b, 'b:')]);
    await until(async () => logs.some((l) => l.startsWith('failed to update authentication config')), 'reload refused while b is down');
    assert.equal(await nameOf(part, ta), 'a:jane');
    assert.equal(await nameOf(part, tb), undefined);
    b.down = false;
    await until(async () => (await nameOf(part, tb)) === 'b:bob', 'reload applied once b answers');
    assert.equal(await nameOf(part, ta), 'a2:jane');
    assert.deepEqual(part.health!(), [undefined, undefined]);
  } finally {
    await part.stop?.();
    await a.stop();
    await b.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
