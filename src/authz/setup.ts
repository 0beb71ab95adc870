/**
 * The request authorizer: `--authorization-config` when given, else the `--authorization-mode` list; both
 * behind the `system:masters` bypass. Modes register themselves (./register-all.ts).
 */
import type { Authorizer } from '../request/authorizer.ts';
import { buildAuthorizer } from './modes.ts';
import { authorizationFromConfigFile } from './config/index.ts';
import './register-all.ts';
import type { AuthorizationDeps, RequestAuthorization } from './deps.ts';

export async function buildRequestAuthorization(deps: AuthorizationDeps): Promise<RequestAuthorization> {
  const file = deps.options.authorizationConfigFile;
  if (file) return authorizationFromConfigFile(file, deps);
  const stops: (() => Promise<void>)[] = [];
  const readies: (() => Promise<void>)[] = [];
  const authorizer: Authorizer = await buildAuthorizer(deps.options.authorizationMode, {
    ...deps,
    onStop: (f: () => Promise<void>) => stops.push(f),
    onReady: (f: () => Promise<void>) => readies.push(f),
  });
  return {
    authorizer,
    ready: async () => { await Promise.all(readies.map((r) => r())); },
    stop: async () => { for (const s of stops.reverse()) await s(); },
  };
}
