/**
 * `--authorization-config` (AuthorizationConfiguration v1: ordered authorizers, CEL match conditions, reload).
 * Not built yet.
 */
import type { AuthorizationDeps, RequestAuthorization } from '../setup.ts';

export function authorizationFromConfigFile(_file: string, _deps: AuthorizationDeps): Promise<RequestAuthorization> {
  return Promise.reject(new Error('--authorization-config: structured authorization configuration is not implemented yet'));
}
