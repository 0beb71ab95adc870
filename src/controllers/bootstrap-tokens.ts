/**
 * kube-controller-manager's bootstrap token controllers (pkg/controller/bootstrap):
 * - token cleaner: a `bootstrap.kubernetes.io/token` Secret in kube-system whose `expiration` has passed is
 *   deleted (uid precondition); one that expires later is looked at again then;
 * - bootstrap signer: ConfigMap `cluster-info` in kube-public gets one `jws-kubeconfig-<token-id>` per
 *   unexpired token with `usage-bootstrap-signing: true` — a detached JWS (`<header>..<signature>`), HS256,
 *   header `{"alg":"HS256","kid":"<id>"}`, over `data.kubeconfig`; signatures of tokens that are gone or
 *   changed are removed or replaced.
 *
 * The HMAC key is the whole token `<id>.<secret>`, as the SPEC and Kubernetes' bootstrap-token docs describe.
 * kube-controller-manager's code (cluster-bootstrap jws.ComputeDetachedSignature, called with the token
 * secret) keys it with the secret part only, and kubeadm verifies that way: `SIGNING_KEY` is the one place to
 * switch if kubeadm interoperability is wanted over the documented behaviour.
 */
import { CompactSign } from 'jose';
import type { KObject } from '../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import { BOOTSTRAP_NAMESPACE, BOOTSTRAP_SECRET_PREFIX, BOOTSTRAP_SECRET_TYPE, bootstrapTokenExpired, secretData } from '../authn/bootstrap-token.ts';
import { Informer } from '../client/informer.ts';
import { isConflict, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { WorkQueue } from '../client/work-queue.ts';

export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_CONFIGMAP = 'cluster-info';
export const JWS_KEY_PREFIX = 'jws-kubeconfig-';
const SIGN_KEY = 'sign';
/** Timers beyond this re-check early (setTimeout overflows past 2^31 ms). */
const MAX_RECHECK_MS = 86_400_000;
const recheck = (ms: number): { requeueAfterMs: number } => ({ requeueAfterMs: Math.min(Math.max(ms, 0) + 1000, MAX_RECHECK_MS) });

export interface BootstrapTokenControllersOptions {
  readonly registry: RestRegistry;
  readonly log?: Logger;
  readonly now?: () => Date;
}

export interface RunningBootstrapTokenControllers {
  readonly queues: WorkQueue[];
  stop(): Promise<void>;
}

/** The HMAC key of a token's signature (see the file comment). */
export const SIGNING_KEY = (tokenId: string, tokenSecret: string): string => `${tokenId}.${tokenSecret}`;

/** kube's jws.ComputeDetachedSignature(content, kid, key): the compact HS256 JWS with its payload left out. */
export async function detachedSignature(content: string, tokenId: string, hmacKey: string): Promise<string> {
  const key = new TextEncoder().encode(hmacKey);
  const full = await new CompactSign(new TextEncoder().encode(content)).setProtectedHeader({ alg: 'HS256', kid: tokenId }).sign(key);
  const [h, , s] = full.split('.');
  return `${h}..${s}`;
}

function storageOf(registry: RestRegistry, resource: string): RestStorage {
  const s = registry.lookup('', 'v1', resource);
  if (!s) throw new Error(`the bootstrap token controllers need ${resource}`);
  return s;
}

/** Milliseconds until the token's expiration, undefined without one. */
function msUntilExpiry(secret: KObject, now: Date): number | undefined {
  const exp = secretData(secret, 'expiration');
  if (!exp) return undefined;
  const t = Date.parse(exp);
  return Number.isNaN(t) ? undefined : t - now.getTime();
}

export class BootstrapTokenControllers {
  readonly cleaner: WorkQueue;
  readonly signer: WorkQueue;
  private readonly secrets: RestStorage;
  private readonly configMaps: RestStorage;
  private readonly now: () => Date;

  constructor(private readonly opts: BootstrapTokenControllersOptions & { tokens: Informer; clusterInfo: Informer }) {
    this.secrets = storageOf(opts.registry, 'secrets');
    this.configMaps = storageOf(opts.registry, 'configmaps');
    this.now = opts.now ?? (() => new Date());
    const logOpt = opts.log ? { log: opts.log } : {};
    this.cleaner = new WorkQueue({ name: 'token-cleaner', process: (k) => this.clean(k), ...logOpt });
    this.signer = new WorkQueue({ name: 'bootstrap-signer', process: () => this.sign(), ...logOpt });
    const onToken = (s: KObject) => {
      this.cleaner.add(s.metadata.name ?? '');
      this.signer.add(SIGN_KEY);
    };
    opts.tokens.addHandler({ onAdd: onToken, onUpdate: (_, s) => onToken(s), onDelete: () => this.signer.add(SIGN_KEY) });
    const onCm = () => this.signer.add(SIGN_KEY);
    opts.clusterInfo.addHandler({ onAdd: onCm, onUpdate: onCm });
  }

  private async clean(name: string): Promise<{ requeueAfterMs: number } | void> {
    const secret = this.opts.tokens.get(BOOTSTRAP_NAMESPACE, name);
    if (!secret || secret.metadata.deletionTimestamp || secret.type !== BOOTSTRAP_SECRET_TYPE) return;
    const now = this.now();
    if (!bootstrapTokenExpired(secret, now)) {
      const left = msUntilExpiry(secret, now);
      return left === undefined ? undefined : recheck(left);
    }
    try {
      await this.secrets.delete(systemContext({ namespace: BOOTSTRAP_NAMESPACE }), name, { preconditions: { uid: secret.metadata.uid ?? '' } });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** Token id → secret of every token usable for signing now. */
  private signingTokens(now: Date): Map<string, string> {
    const out = new Map<string, string>();
    for (const s of this.opts.tokens.list()) {
      if (s.type !== BOOTSTRAP_SECRET_TYPE || s.metadata.deletionTimestamp) continue;
      const id = secretData(s, 'token-id');
      const tokenSecret = secretData(s, 'token-secret');
      if (!id || !tokenSecret || s.metadata.name !== BOOTSTRAP_SECRET_PREFIX + id) continue;
      if (bootstrapTokenExpired(s, now) || secretData(s, 'usage-bootstrap-signing') !== 'true') continue;
      out.set(id, tokenSecret);
    }
    return out;
  }

  private async sign(): Promise<{ requeueAfterMs: number } | void> {
    const cm = this.opts.clusterInfo.get(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_CONFIGMAP);
    const now = this.now();
    // The next expiry of a signing token changes the signatures: look again then.
    const expiries = this.opts.tokens.list().map((s) => msUntilExpiry(s, now)).filter((ms): ms is number => ms !== undefined && ms > 0);
    const again = expiries.length ? recheck(Math.min(...expiries)) : undefined;
    const content = (cm?.data as Record<string, string> | undefined)?.kubeconfig;
    if (!cm || content === undefined) return again;
    const want: Record<string, string> = {};
    for (const [id, secret] of this.signingTokens(now)) want[JWS_KEY_PREFIX + id] = await detachedSignature(content, id, SIGNING_KEY(id, secret));
    const upToDate = (data: Record<string, string>): boolean => {
      const have = Object.keys(data).filter((k) => k.startsWith(JWS_KEY_PREFIX));
      return have.length === Object.keys(want).length && have.every((k) => data[k] === want[k]);
    };
    if (upToDate((cm.data as Record<string, string>) ?? {})) return again;
    try {
      await this.configMaps.guaranteedUpdate(systemContext({ namespace: CLUSTER_INFO_NAMESPACE }), CLUSTER_INFO_CONFIGMAP, (cur) => {
        if (!cur) throw new Error('cluster-info is gone');
        const data = { ...((cur.data as Record<string, string> | undefined) ?? {}) };
        // Signed content changed meanwhile: the next event re-signs.
        if (data.kubeconfig !== content || upToDate(data)) return cur;
        for (const k of Object.keys(data)) if (k.startsWith(JWS_KEY_PREFIX)) delete data[k];
        Object.assign(data, want);
        return { ...cur, data };
      }, {});
    } catch (err) {
      if (isNotFound(err) || (err as Error).message === 'cluster-info is gone') return again;
      throw err;
    }
    return again;
  }

  async stop(): Promise<void> {
    await Promise.all([this.cleaner.stop(), this.signer.stop()]);
  }
}

export async function startBootstrapTokenControllers(o: BootstrapTokenControllersOptions): Promise<RunningBootstrapTokenControllers> {
  const logOpt = o.log ? { log: o.log } : {};
  const tokens = new Informer({ storage: storageOf(o.registry, 'secrets'), namespace: BOOTSTRAP_NAMESPACE, fieldSelector: `type=${BOOTSTRAP_SECRET_TYPE}`, ...logOpt });
  const clusterInfo = new Informer({ storage: storageOf(o.registry, 'configmaps'), namespace: CLUSTER_INFO_NAMESPACE, fieldSelector: `metadata.name=${CLUSTER_INFO_CONFIGMAP}`, ...logOpt });
  const controllers = new BootstrapTokenControllers({ ...o, tokens, clusterInfo });
  const stop = async (): Promise<void> => {
    tokens.stop();
    clusterInfo.stop();
    await controllers.stop();
  };
  try {
    await tokens.start();
    await clusterInfo.start();
  } catch (err) {
    await stop();
    throw err;
  }
  return { queues: [controllers.cleaner, controllers.signer], stop };
}
