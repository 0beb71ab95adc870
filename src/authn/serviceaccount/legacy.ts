/**
 * Secret-based (legacy) service account tokens, as k8s.io/kubernetes pkg/serviceaccount/legacy.go:
 * `iss: kubernetes/serviceaccount`, no expiry, claims `kubernetes.io/serviceaccount/{namespace, secret.name,
 * service-account.name, service-account.uid}`. With lookup on (`--service-account-lookup`, the default),
 * the secret must exist, not be terminating and still hold exactly this token, the service account must exist
 * with the recorded uid, and a secret labelled `kubernetes.io/legacy-token-invalid-since` is refused. A used
 * token's secret gets the `kubernetes.io/legacy-token-last-used` label (the date, once a day).
 */
import { timingSafeEqual } from 'node:crypto';
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { ObjectGetter } from './getter.ts';
import { serviceAccountUser, TokenInvalidError } from './claims.ts';

export const CLAIM_NAMESPACE = 'kubernetes.io/serviceaccount/namespace';
export const CLAIM_SECRET_NAME = 'kubernetes.io/serviceaccount/secret.name';
export const CLAIM_SA_NAME = 'kubernetes.io/serviceaccount/service-account.name';
export const CLAIM_SA_UID = 'kubernetes.io/serviceaccount/service-account.uid';
export const LAST_USED_LABEL = 'kubernetes.io/legacy-token-last-used';
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

/** Claims of a token stored in `secretName` for `serviceAccount` (`iss` is added by the issuer). */
export function legacyClaims(serviceAccount: KObject, secretName: string): Record<string, unknown> {
  const ns = serviceAccount.metadata.namespace ?? '';
  const name = serviceAccount.metadata.name ?? '';
  return {
    sub: `system:serviceaccount:${ns}:${name}`,
    [CLAIM_NAMESPACE]: ns,
    [CLAIM_SECRET_NAME]: secretName,
    [CLAIM_SA_NAME]: name,
    [CLAIM_SA_UID]: serviceAccount.metadata.uid ?? '',
  };
}

export interface LegacyValidation {
  readonly lookup: boolean;
  readonly getter: ObjectGetter;
  /** Records the last-used date label on the token's secret (best effort). */
  markUsed?(secret: KObject, today: string): Promise<void>;
  readonly now?: () => Date;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `system:serviceaccount:<ns>:<name>` → [ns, name] (undefined when malformed). */
function splitUsername(sub: string): [string, string] | undefined {
  const parts = sub.split(':');
  if (parts.length !== 4 || parts[0] !== 'system' || parts[1] !== 'serviceaccount' || !parts[2] || !parts[3]) return undefined;
  return [parts[2], parts[3]];
}

function sameToken(stored: unknown, token: string): boolean {
  if (typeof stored !== 'string') return false;
  const a = Buffer.from(stored, 'base64');
  const b = Buffer.from(token, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function validateLegacy(claims: Record<string, unknown>, token: string, v: LegacyValidation): Promise<UserInfo> {
  const sub = str(claims.sub);
  if (!sub) throw new TokenInvalidError('sub claim is missing');
  const namespace = str(claims[CLAIM_NAMESPACE]);
  if (!namespace) throw new TokenInvalidError('namespace claim is missing');
  const secretName = str(claims[CLAIM_SECRET_NAME]);
  if (!secretName) throw new TokenInvalidError('secretName claim is missing');
  const saName = str(claims[CLAIM_SA_NAME]);
  if (!saName) throw new TokenInvalidError('serviceAccountName claim is missing');
  const saUid = str(claims[CLAIM_SA_UID]);
  if (!saUid) throw new TokenInvalidError('serviceAccountUID claim is missing');
  const split = splitUsername(sub);
  if (!split || split[0] !== namespace || split[1] !== saName) throw new TokenInvalidError('sub claim is invalid');

  if (v.lookup) {
    const secret = await v.getter.get('secrets', namespace, secretName);
    if (!secret || secret.metadata.deletionTimestamp) throw new TokenInvalidError('Token has been invalidated');
    if (!sameToken((secret.data as Record<string, unknown> | undefined)?.token, token)) throw new TokenInvalidError("Token does not match server's copy");
    const sa = await v.getter.get('serviceaccounts', namespace, saName);
    if (!sa) throw new TokenInvalidError(`serviceaccounts "${saName}" not found`);
    if (sa.metadata.deletionTimestamp) throw new TokenInvalidError(`ServiceAccount ${namespace}/${saName} has been deleted`);
    if ((sa.metadata.uid ?? '') !== saUid) throw new TokenInvalidError(`ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${saUid})`);
    const now = (v.now ?? (() => new Date()))();
    const today = now.toISOString().slice(0, 10);
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const labels = secret.metadata.labels ?? {};
    const lastUsed = labels[LAST_USED_LABEL];
    if (lastUsed !== today && lastUsed !== tomorrow) await v.markUsed?.(secret, today);
    if (labels[INVALID_SINCE_LABEL]) {
      throw new TokenInvalidError(`the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`);
    }
  }
  return serviceAccountUser({ namespace, name: saName, uid: saUid });
}
