/**
 * Bootstrap tokens (`--enable-bootstrap-token-auth`), as kube's plugin/pkg/auth/authenticator/token/bootstrap:
 * a bearer token `<id>.<secret>` (`[a-z0-9]{6}\.[a-z0-9]{16}`) names the Secret `bootstrap-token-<id>` in
 * kube-system, which must be of type `bootstrap.kubernetes.io/token`, not terminating, hold the same
 * `token-id` and `token-secret`, not be expired (`expiration`, RFC 3339; unparsable = expired) and have
 * `usage-bootstrap-authentication: true`. User `system:bootstrap:<id>`, groups `system:bootstrappers` plus
 * `auth-extra-groups` (each `system:bootstrappers:...`), sorted and deduplicated; no uid.
 * Every refusal is undefined (kube: "not authenticated", no error), so the request ends in 401.
 */
import { timingSafeEqual } from 'node:crypto';
import type { KObject, UserInfo } from '../machinery/objects.ts';
import type { TokenAuthenticator } from '../request/authenticator.ts';

export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const BOOTSTRAP_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_NAMESPACE = 'kube-system';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
const GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** A value of the secret's `data` (base64) as text; '' when absent. */
export function secretData(secret: KObject, key: string): string {
  const v = (secret.data as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** kube's bootstrapsecretutil.HasExpired: an unparsable expiration counts as expired. */
export function bootstrapTokenExpired(secret: KObject, now: Date): boolean {
  const exp = secretData(secret, 'expiration');
  if (!exp) return false;
  // RFC 3339 as Go's time.Parse accepts it (date, time, zone required).
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(exp)) return true;
  const t = Date.parse(exp);
  return Number.isNaN(t) || now.getTime() > t;
}

/** kube's bootstrapsecretutil.GetGroups; throws on an invalid extra group. */
export function bootstrapGroups(secret: KObject): string[] {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = secretData(secret, 'auth-extra-groups');
  if (extra) {
    for (const g of extra.split(',')) {
      if (!GROUP_PATTERN.test(g)) throw new Error(`bootstrap group ${JSON.stringify(g)} is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)`);
      groups.add(g);
    }
  }
  return [...groups].sort();
}

export interface BootstrapTokenOptions {
  /** The secret `name` in kube-system, or undefined when missing. */
  getSecret(name: string): Promise<KObject | undefined>;
  readonly log?: (line: string) => void;
  readonly now?: () => Date;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function bootstrapTokenAuthenticator(o: BootstrapTokenOptions): TokenAuthenticator {
  const log = o.log ?? (() => {});
  return {
    name: 'bootstrap-token',
    async authenticateToken(token: string): Promise<UserInfo | undefined> {
      const m = BOOTSTRAP_TOKEN_PATTERN.exec(token);
      if (!m) return undefined;
      const [, id, tokenSecret] = m as unknown as [string, string, string];
      const name = BOOTSTRAP_SECRET_PREFIX + id;
      let secret: Awaited<ReturnType<typeof o.getSecret>>;
      try {
        secret = await o.getSecret(name);
      } catch (err) {
        // kube's authenticator logs a lister failure and refuses the token (401), never a 500.
        log(`Bootstrap secret ${BOOTSTRAP_NAMESPACE}/${name} could not be read: ${(err as Error)?.message ?? String(err)}`);
        return undefined;
      }
      const refuse = (why: string): undefined => {
        log(`Bootstrap secret ${BOOTSTRAP_NAMESPACE}/${name} ${why}`);
        return undefined;
      };
      if (!secret) return undefined;
      if (secret.metadata.deletionTimestamp) return refuse('is deleted and awaiting removal');
      if (secret.type !== BOOTSTRAP_SECRET_TYPE || !secret.data) return refuse(`has invalid type, expected ${BOOTSTRAP_SECRET_TYPE}.`);
      if (!sameText(secretData(secret, 'token-secret'), tokenSecret)) return refuse('has invalid value for key token-secret.');
      if (secretData(secret, 'token-id') !== id) return refuse('has invalid value for key token-id.');
      if (bootstrapTokenExpired(secret, (o.now ?? (() => new Date()))())) return refuse('has expired.');
      if (secretData(secret, 'usage-bootstrap-authentication') !== 'true') return refuse('not marked usage-bootstrap-authentication=true.');
      let groups: string[];
      try {
        groups = bootstrapGroups(secret);
      } catch (err) {
        return refuse(`has invalid value for key auth-extra-groups: ${(err as Error).message}.`);
      }
      return { username: BOOTSTRAP_USER_PREFIX + id, groups };
    },
  };
}
