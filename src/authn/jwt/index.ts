/**
 * JWT authenticators: the `--oidc-*` flags (one issuer) or `--authentication-config` (up to 64 issuers, CEL
 * mappings, an `anonymous` block, reloaded when the file changes). Start-up checks follow kube-apiserver's
 * (flags and file are exclusive, the configuration must validate); reloads keep the last good configuration
 * when the new file does not decode, does not validate, changes `anonymous`, or its providers do not come up.
 */
import { readFile } from 'node:fs/promises';
import type { AuthenticationDeps, AuthenticationPart } from '../deps.ts';
import type { TokenAuthenticator } from '../../request/authenticator.ts';
import type { UserInfo } from '../../machinery/objects.ts';
import { OptionsError } from '../../machinery/errors.ts';
import type { AuthnServerOptions } from '../options.ts';
import { field } from '../../machinery/errors.ts';
import {
  decodeAuthenticationConfiguration, oidcFlagsToJwtAuthenticator, type AnonymousConfig, type AuthenticationConfiguration,
  type JwtAuthenticatorConfig,
} from './config.ts';
import { aggregate, validateAuthenticationConfiguration, validateJwtAuthenticator, type CelMappers } from './validate.ts';
import { ALL_SIGNING_ALGS, IssuerAuthenticator, untrustedIssuer } from './authenticator.ts';
import { watchFile, type FileWatch } from './reload.ts';
import { DEFAULT_ISSUER } from '../serviceaccount/config.ts';

export { ALL_SIGNING_ALGS } from './authenticator.ts';

/** The JWT part also tells setup.ts how the configuration file decided anonymous access. */
export interface JwtAuthenticationPart extends AuthenticationPart {
  /** The file's `anonymous` block; undefined = the `--anonymous-auth` flag decides. */
  readonly anonymous?: AnonymousConfig;
  /** Health of every issuer (undefined entries are healthy), for tests and readiness reporting. */
  health?(): (string | undefined)[];
}

/** Knobs tests turn; production uses kube's values. */
export interface JwtTuning {
  /** Discovery retry (kube: 10 s). */
  readonly retryMs?: number;
  /** Periodic check of the configuration file (kube: 1 minute). */
  readonly reloadIntervalMs?: number;
  /** How long a reload waits for its providers (kube: 1 minute). */
  readonly reloadTimeoutMs?: number;
  readonly now?: () => number;
}

/** Optional extras the integrator may set on the options: whether `--anonymous-auth` was given explicitly. */
type WithFlagTracking = AuthnServerOptions & { anonymousAuthFlagSet?: boolean };

/** The service account issuers (with the service account module's default): no JWT authenticator may claim them. */
function disallowedIssuers(o: AuthnServerOptions): string[] {
  const issuers = o.serviceAccounts?.issuers ?? ([] as string[]);
  return issuers.length ? [...issuers] : [DEFAULT_ISSUER];
}

function gate(o: AuthnServerOptions, name: string): boolean {
  return o.featureGates?.[name] ?? true; // both gates read here are beta and on by default in v1.33
}

interface Built {
  readonly authenticators: IssuerAuthenticator[];
}

function build(configs: readonly JwtAuthenticatorConfig[], mappers: readonly CelMappers[], algs: readonly string[], log: (l: string) => void, t: JwtTuning): Built {
  const authenticators = configs.map((config, i) => new IssuerAuthenticator({
    config, mappers: mappers[i]!, signingAlgs: algs, log, now: t.now, retryMs: t.retryMs,
  }));
  for (const a of authenticators) a.start();
  return { authenticators };
}

function stopBuilt(b: Built): void {
  for (const a of b.authenticators) a.stop();
}

/** Tokens go to the authenticator whose issuer their unverified `iss` names; failures end in undefined (401). */
function tokenAuthenticator(current: () => Built, log: (l: string) => void): TokenAuthenticator {
  return {
    name: 'jwt',
    async authenticateToken(token: string): Promise<UserInfo | undefined> {
      const iss = untrustedIssuer(token);
      if (iss === undefined) return undefined;
      for (const a of current().authenticators) {
        if (a.issuerUrl !== iss) continue;
        const r = await a.authenticate(token);
        if (!r) continue;
        if ('error' in r) {
          log(`Unable to authenticate the request: ${r.error}`);
          return undefined;
        }
        return r.user;
      }
      return undefined;
    },
  };
}

function validated(config: AuthenticationConfiguration, o: AuthnServerOptions): CelMappers[] {
  const r = validateAuthenticationConfiguration(config, {
    disallowedIssuers: disallowedIssuers(o),
    anonymousConfigurable: gate(o, 'AnonymousAuthConfigurableEndpoints'),
  });
  if (r.errors.length) throw new OptionsError(`invalid authentication configuration: ${aggregate(r.errors)}`);
  return r.mappers;
}

export function jwtAuthentication(deps: AuthenticationDeps): Promise<JwtAuthenticationPart> {
  return createJwtAuthentication(deps);
}

export async function createJwtAuthentication(deps: AuthenticationDeps, t: JwtTuning = {}): Promise<JwtAuthenticationPart> {
  const o = deps.options as WithFlagTracking;
  const log = deps.log;
  const file = o.authenticationConfigFile;
  if (!file) return o.oidc ? fromFlags(o, log, t) : {};

  if (!gate(o, 'StructuredAuthenticationConfiguration')) {
    throw new OptionsError('set --feature-gates=StructuredAuthenticationConfiguration=true to use authentication-config file');
  }
  if (o.oidc) throw new OptionsError('authentication-config file and oidc-* flags are mutually exclusive');
  let text: string;
  let config: AuthenticationConfiguration;
  try {
    text = await readFile(file, 'utf8');
    config = decodeAuthenticationConfiguration(text);
  } catch (e) {
    throw new OptionsError(`failed to load authentication configuration from file ${JSON.stringify(file)}: ${(e as Error).message}`);
  }
  if (config.anonymous && o.anonymousAuthFlagSet) {
    throw new OptionsError(String(field.forbidden('anonymous', '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file')));
  }
  const mappers = validated(config, o);
  let current = build(config.jwt, mappers, ALL_SIGNING_ALGS, log, t);
  const originalAnonymous = JSON.stringify(config.anonymous ?? null);
  let tracked = text;

  const reload = async (): Promise<void> => {
    let next: string;
    try {
      next = await readFile(file, 'utf8');
    } catch (e) {
      log(`failed to read authentication config file: ${(e as Error).message}`);
      return; // may resolve itself: retried on the next check
    }
    if (next === tracked) return;
    let cfg: AuthenticationConfiguration;
    let nextMappers: CelMappers[];
    try {
      cfg = decodeAuthenticationConfiguration(next);
      const r = validateAuthenticationConfiguration(cfg, {
        disallowedIssuers: disallowedIssuers(o), anonymousConfigurable: gate(o, 'AnonymousAuthConfigurableEndpoints'),
      });
      const errs = [...r.errors];
      if (JSON.stringify(cfg.anonymous ?? null) !== originalAnonymous) errs.push(field.forbidden('anonymous', 'changed from initial configuration file'));
      if (errs.length) throw new Error(aggregate(errs));
      nextMappers = r.mappers;
    } catch (e) {
      log(`failed to load authentication config: ${(e as Error).message}`);
      tracked = next; // never valid: stop retrying until the file changes again
      return;
    }
    const candidate = build(cfg.jwt, nextMappers, ALL_SIGNING_ALGS, log, t);
    pending = candidate;
    const timeout = AbortSignal.timeout(t.reloadTimeoutMs ?? 60_000);
    const ok = (await Promise.all(candidate.authenticators.map((a) => a.waitReady(timeout)))).every(Boolean);
    pending = undefined;
    if (!ok || stopped) {
      stopBuilt(candidate);
      if (!stopped) log('failed to update authentication config: not every JWT authenticator became healthy in time');
      return;
    }
    const old = current;
    current = candidate;
    tracked = next;
    stopBuilt(old);
    log('reloaded authentication config');
  };
  let stopped = false;
  /** A configuration waiting for its providers; stopped with the part so nothing outlives it. */
  let pending: Built | undefined;
  const watcher: FileWatch = watchFile({ file, intervalMs: t.reloadIntervalMs ?? 60_000, onChange: reload, log });
  return {
    tokens: [tokenAuthenticator(() => current, log)],
    anonymous: config.anonymous,
    health: () => current.authenticators.map((a) => a.healthError()),
    stop() {
      stopped = true;
      watcher.stop();
      if (pending) stopBuilt(pending);
      stopBuilt(current);
      return Promise.resolve();
    },
  };
}

async function fromFlags(o: AuthnServerOptions, log: (l: string) => void, t: JwtTuning): Promise<JwtAuthenticationPart> {
  const oidc = o.oidc!;
  if (!oidc.issuerUrl || !oidc.clientId) {
    throw new OptionsError('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
  }
  const algs = oidc.signingAlgs?.length ? oidc.signingAlgs : ['RS256'];
  for (const alg of algs) {
    if (!ALL_SIGNING_ALGS.includes(alg)) throw new OptionsError(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
  }
  let caPem: string | undefined;
  if (oidc.caFile) {
    try {
      caPem = await readFile(oidc.caFile, 'utf8');
    } catch (e) {
      throw new OptionsError(`open ${oidc.caFile}: ${(e as Error).message}`);
    }
  }
  const config = oidcFlagsToJwtAuthenticator(oidc, caPem);
  const r = validateJwtAuthenticator(config, 'jwt[0]', new Set(disallowedIssuers(o)));
  if (r.errors.length) throw new OptionsError(`invalid authentication configuration: ${aggregate(r.errors)}`);
  const built = build([config], [r.mappers], algs, log, t);
  return {
    tokens: [tokenAuthenticator(() => built, log)],
    health: () => built.authenticators.map((a) => a.healthError()),
    stop() {
      stopBuilt(built);
      return Promise.resolve();
    },
  };
}
