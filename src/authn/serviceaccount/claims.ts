/**
 * Bound service account tokens (TokenRequest), as k8s.io/kubernetes pkg/serviceaccount/claims.go:
 * - claims: `sub`, `aud`, `iat`, `nbf`, `exp`, `jti` (a fresh UUID) and `kubernetes.io` {namespace,
 *   serviceaccount {name, uid}, pod | secret | node, the pod's node, warnafter};
 * - validation: times with go-jose's one-minute leeway, then the service account (same uid, not deleted
 *   more than the leeway ago) and the bound pod/secret/node must still exist with the recorded uid.
 * The result is kube's ServiceAccountInfo turned into a user (extra: credential id, pod, node).
 */
import { randomUUID } from 'node:crypto';
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import type { ObjectGetter } from './getter.ts';

/** kube's WarnOnlyBoundTokenExpirationSeconds (kubelet asks for it) and ExpirationExtensionSeconds (one year). */
export const WARN_ONLY_EXPIRATION_SECONDS = 3607;
export const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 3600;
/** go-jose's jwt.DefaultLeeway. */
export const LEEWAY_SECONDS = 60;

export const EXTRA_CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';
export const EXTRA_NODE_NAME = 'authentication.kubernetes.io/node-name';
export const EXTRA_NODE_UID = 'authentication.kubernetes.io/node-uid';
export const EXTRA_POD_NAME = 'authentication.kubernetes.io/pod-name';
export const EXTRA_POD_UID = 'authentication.kubernetes.io/pod-uid';

export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

export interface BoundClaimsInput {
  readonly serviceAccount: KObject;
  readonly pod?: KObject;
  readonly secret?: KObject;
  /** The node a pod runs on (name only when the Node object is missing), or the bound node. */
  readonly node?: { name: string; uid?: string };
  readonly expirationSeconds: number;
  /** Seconds after which a stale token is only warned about (0 = none). */
  readonly warnAfterSeconds?: number;
  readonly audiences: readonly string[];
  readonly now: Date;
}

const ref = (o: KObject): ObjectRef => ({ name: o.metadata.name ?? '', uid: o.metadata.uid ?? '' });
/** Go's `omitempty` on the ref fields. */
const wireRef = (r: { name?: string; uid?: string }): Record<string, string> => ({ ...(r.name ? { name: r.name } : {}), ...(r.uid ? { uid: r.uid } : {}) });

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The claims of a new bound token (`iss` is added by the issuer). */
export function boundClaims(i: BoundClaimsInput): Record<string, unknown> {
  const now = Math.floor(i.now.getTime() / 1000);
  const ns = i.serviceAccount.metadata.namespace ?? '';
  const k8s: Record<string, unknown> = { namespace: ns, serviceaccount: wireRef(ref(i.serviceAccount)) };
  if (i.pod) {
    k8s.pod = wireRef(ref(i.pod));
    if (i.node) k8s.node = wireRef(i.node);
  } else if (i.secret) {
    k8s.secret = wireRef(ref(i.secret));
  } else if (i.node) {
    k8s.node = wireRef(i.node);
  }
  if (i.warnAfterSeconds) k8s.warnafter = now + i.warnAfterSeconds;
  return {
    sub: serviceAccountUsername(ns, i.serviceAccount.metadata.name ?? ''),
    aud: [...i.audiences],
    iat: now,
    nbf: now,
    exp: now + i.expirationSeconds,
    jti: randomUUID(),
    'kubernetes.io': k8s,
  };
}

/** A token check failed: the reason is logged (and, in kube, reported by TokenReview); the request gets 401. */
export class TokenInvalidError extends Error {
  override name = 'TokenInvalidError';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function optRef(v: unknown): ObjectRef | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new TokenInvalidError('service account token claims are malformed');
  const name = v.name ?? '';
  const uid = v.uid ?? '';
  if (typeof name !== 'string' || typeof uid !== 'string') throw new TokenInvalidError('service account token claims are malformed');
  return { name, uid };
}

function numericDate(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TokenInvalidError('service account token claims are malformed');
  return v;
}

/** go-jose's time checks (Claims.Validate with the default leeway). */
export function checkTimes(claims: Record<string, unknown>, nowSeconds: number): void {
  const exp = numericDate(claims.exp);
  const nbf = numericDate(claims.nbf);
  const iat = numericDate(claims.iat);
  if (nbf !== undefined && nowSeconds + LEEWAY_SECONDS < nbf) throw new TokenInvalidError('service account token is not valid yet');
  if (exp !== undefined && nowSeconds - LEEWAY_SECONDS > exp) throw new TokenInvalidError('service account token has expired');
  if (iat !== undefined && nowSeconds + LEEWAY_SECONDS < iat) throw new TokenInvalidError('service account token is issued in the future');
}

/** Deleted (deletionTimestamp set) longer than the leeway ago. */
function deletedBefore(o: KObject, nowMs: number): boolean {
  const ts = o.metadata.deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) < nowMs - LEEWAY_SECONDS * 1000;
}

export function serviceAccountUser(info: { namespace: string; name: string; uid: string; podName?: string; podUid?: string; nodeName?: string; nodeUid?: string; credentialId?: string }): UserInfo {
  const extra: Record<string, string[]> = {};
  // Keys in sorted order, as Go marshals the extra map.
  if (info.credentialId) extra[EXTRA_CREDENTIAL_ID] = [info.credentialId];
  if (info.nodeName) {
    extra[EXTRA_NODE_NAME] = [info.nodeName];
    if (info.nodeUid) extra[EXTRA_NODE_UID] = [info.nodeUid];
  }
  if (info.podName && info.podUid) {
    extra[EXTRA_POD_NAME] = [info.podName];
    extra[EXTRA_POD_UID] = [info.podUid];
  }
  return {
    username: serviceAccountUsername(info.namespace, info.name),
    ...(info.uid ? { uid: info.uid } : {}),
    groups: ['system:serviceaccounts', `system:serviceaccounts:${info.namespace}`],
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** kube's validator.Validate for bound tokens: the user, or TokenInvalidError with kube's reason. */
export async function validateBound(claims: Record<string, unknown>, getter: ObjectGetter, now: Date = new Date()): Promise<UserInfo> {
  const nowMs = now.getTime();
  checkTimes(claims, Math.floor(nowMs / 1000));
  const k8s = claims['kubernetes.io'];
  if (!isRecord(k8s)) throw new TokenInvalidError('service account token claims are malformed');
  const namespace = typeof k8s.namespace === 'string' ? k8s.namespace : '';
  const sa = optRef(k8s.serviceaccount) ?? { name: '', uid: '' };
  const podRef = optRef(k8s.pod);
  const secretRef = optRef(k8s.secret);
  const nodeRef = optRef(k8s.node);

  const account = await getter.get('serviceaccounts', namespace, sa.name);
  if (!account) throw new TokenInvalidError(`serviceaccounts "${sa.name}" not found`);
  if ((account.metadata.uid ?? '') !== sa.uid) throw new TokenInvalidError(`service account UID (${account.metadata.uid ?? ''}) does not match claim (${sa.uid})`);
  if (deletedBefore(account, nowMs)) throw new TokenInvalidError(`service account ${namespace}/${sa.name} has been deleted`);

  if (secretRef) {
    const secret = await getter.get('secrets', namespace, secretRef.name);
    if (!secret) throw new TokenInvalidError('service account token has been invalidated');
    if ((secret.metadata.uid ?? '') !== secretRef.uid) throw new TokenInvalidError(`secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${secretRef.uid})`);
    if (deletedBefore(secret, nowMs)) throw new TokenInvalidError('service account token has been invalidated');
  }
  let podName: string | undefined;
  let podUid: string | undefined;
  if (podRef) {
    const pod = await getter.get('pods', namespace, podRef.name);
    if (!pod) throw new TokenInvalidError('service account token has been invalidated');
    if ((pod.metadata.uid ?? '') !== podRef.uid) throw new TokenInvalidError(`pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${podRef.uid})`);
    if (deletedBefore(pod, nowMs)) throw new TokenInvalidError('service account token has been invalidated');
    podName = podRef.name;
    podUid = podRef.uid;
  }
  let nodeName: string | undefined;
  let nodeUid: string | undefined;
  if (nodeRef) {
    if (!podRef) {
      // Bound to the node itself: the node must still be there.
      const node = await getter.get('nodes', '', nodeRef.name);
      if (!node) throw new TokenInvalidError('service account token has been invalidated');
      if ((node.metadata.uid ?? '') !== nodeRef.uid) throw new TokenInvalidError(`node UID (${node.metadata.uid ?? ''}) does not match service account node ref claim (${nodeRef.uid})`);
      if (deletedBefore(node, nowMs)) throw new TokenInvalidError('service account token has been invalidated');
    }
    nodeName = nodeRef.name;
    nodeUid = nodeRef.uid;
  }
  const jti = typeof claims.jti === 'string' ? claims.jti : '';
  return serviceAccountUser({
    namespace, name: sa.name, uid: sa.uid,
    ...(podName ? { podName, podUid } : {}),
    ...(nodeName ? { nodeName, nodeUid } : {}),
    ...(jti ? { credentialId: `JTI=${jti}` } : {}),
  });
}
