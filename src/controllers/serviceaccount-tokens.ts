/**
 * kube-controller-manager's tokens controller (pkg/controller/serviceaccount/tokens_controller.go) for
 * secret-based (legacy) tokens:
 * - a Secret of type `kubernetes.io/service-account-token` naming an existing ServiceAccount (annotation
 *   `kubernetes.io/service-account.name`, and `.uid` when set) gets `data.token` (a legacy JWT signed with the
 *   service account key), `data.ca.crt` (the root CA) and `data.namespace`, and the uid annotation;
 * - such a Secret whose account does not exist (or has another uid) is deleted;
 * - deleting a ServiceAccount deletes its token Secrets;
 * - a deleted token Secret is dropped from its account's `secrets` list.
 * Writes are guarded by the Secret's uid, so a re-created Secret of the same name is never touched by a stale key.
 */
import type { KObject } from '../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../registry/rest.ts';
import type { ServiceAccountIssuer } from '../authn/serviceaccount/issuer.ts';
import { legacyClaims } from '../authn/serviceaccount/legacy.ts';
import { Informer, objectKey } from '../client/informer.ts';
import { isConflict, isNotFound } from '../machinery/errors.ts';
import { systemContext, type Logger } from '../registry/system-context.ts';
import { WorkQueue } from '../client/work-queue.ts';

export const SA_TOKEN_SECRET_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';

export interface ServiceAccountTokensOptions {
  readonly registry: RestRegistry;
  readonly issuer: ServiceAccountIssuer;
  /** Written as `ca.crt` into every token secret. */
  readonly rootCaPem: string;
  readonly log?: Logger;
}

export interface RunningServiceAccountTokens {
  readonly queues: WorkQueue[];
  stop(): Promise<void>;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

function storageOf(registry: RestRegistry, resource: string): RestStorage {
  const s = registry.lookup('', 'v1', resource);
  if (!s) throw new Error(`the service account tokens controller needs ${resource}`);
  return s;
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

export class ServiceAccountTokensController {
  readonly queue: WorkQueue;
  private readonly secrets: RestStorage;
  private readonly serviceAccounts: RestStorage;

  constructor(private readonly opts: ServiceAccountTokensOptions & { secretInformer: Informer; saInformer: Informer }) {
    this.secrets = storageOf(opts.registry, 'secrets');
    this.serviceAccounts = storageOf(opts.registry, 'serviceaccounts');
    this.queue = new WorkQueue({ name: 'serviceaccount-tokens', process: (k) => this.sync(k), concurrency: 2, ...(opts.log ? { log: opts.log } : {}) });
    const onSecret = (s: KObject) => this.queue.add(`secret:${objectKey(s)}`);
    opts.secretInformer.addHandler({
      onAdd: onSecret,
      onUpdate: (_, s) => onSecret(s),
      onDelete: (s) => {
        const sa = s.metadata.annotations?.[SA_NAME_ANNOTATION];
        if (sa) this.queue.add(`secret-deleted:${s.metadata.namespace ?? ''}/${sa}/${s.metadata.name ?? ''}`);
      },
    });
    opts.saInformer.addHandler({
      // A new account may be what a waiting token secret names.
      onAdd: (sa) => { for (const s of this.secretsOf(sa)) onSecret(s); },
      onDelete: (sa) => this.queue.add(`sa-deleted:${objectKey(sa)}/${sa.metadata.uid ?? ''}`),
    });
  }

  private secretsOf(sa: KObject, uid?: string): KObject[] {
    return this.opts.secretInformer.list().filter((s) => {
      const a = s.metadata.annotations ?? {};
      return s.metadata.namespace === sa.metadata.namespace && a[SA_NAME_ANNOTATION] === sa.metadata.name
        && (uid === undefined || !a[SA_UID_ANNOTATION] || a[SA_UID_ANNOTATION] === uid);
    });
  }

  private async sync(key: string): Promise<void> {
    if (key.startsWith('sa-deleted:')) {
      const rest = key.slice('sa-deleted:'.length);
      const uid = rest.slice(rest.lastIndexOf('/') + 1);
      const [ns, name] = splitKey(rest.slice(0, rest.lastIndexOf('/')));
      const live = await this.liveAccount(ns, name);
      if (live && live.metadata.uid === uid) return;
      for (const s of this.secretsOf({ metadata: { namespace: ns, name } }, uid)) await this.deleteSecret(s);
      return;
    }
    if (key.startsWith('secret-deleted:')) {
      const [ns, saName, secretName] = key.slice('secret-deleted:'.length).split('/') as [string, string, string];
      await this.removeReference(ns, saName, secretName);
      return;
    }
    const [ns, name] = splitKey(key.slice('secret:'.length));
    const cached = this.opts.secretInformer.get(ns, name);
    if (!cached || cached.type !== SA_TOKEN_SECRET_TYPE || cached.metadata.deletionTimestamp) return;
    const ann = cached.metadata.annotations ?? {};
    const saName = ann[SA_NAME_ANNOTATION];
    if (!saName) return;
    // A live read: the account may be newer than this controller's cache.
    const sa = await this.liveAccount(ns, saName);
    if (!sa || (ann[SA_UID_ANNOTATION] && ann[SA_UID_ANNOTATION] !== sa.metadata.uid)) {
      await this.deleteSecret(cached);
      return;
    }
    if (!this.needsUpdate(cached, sa)) return;
    const token = await this.opts.issuer.signLegacy(legacyClaims(sa, name));
    try {
      await this.secrets.guaranteedUpdate(systemContext({ namespace: ns }), name, (cur) => {
        if (!cur || cur.metadata.uid !== cached.metadata.uid) throw new Error('token secret was replaced');
        if (!this.needsUpdate(cur, sa)) return cur;
        const data = { ...((cur.data as Record<string, string> | undefined) ?? {}) };
        if (this.opts.rootCaPem) data['ca.crt'] = b64(this.opts.rootCaPem);
        data.namespace = b64(ns);
        if (!data.token) data.token = b64(token);
        const annotations = { ...(cur.metadata.annotations ?? {}), [SA_NAME_ANNOTATION]: sa.metadata.name ?? '', [SA_UID_ANNOTATION]: sa.metadata.uid ?? '' };
        return { ...cur, metadata: { ...cur.metadata, annotations }, data };
      }, {});
    } catch (err) {
      if (isNotFound(err) || (err as Error).message === 'token secret was replaced') return;
      throw err;
    }
  }

  /** Drops `secretName` from the account's `secrets` (kube's removeSecretReference). */
  private async removeReference(ns: string, saName: string, secretName: string): Promise<void> {
    const refs = (sa: KObject | undefined) => (Array.isArray(sa?.secrets) ? (sa.secrets as Array<{ name?: string }>) : []);
    const cached = this.opts.saInformer.get(ns, saName);
    if (!refs(cached).some((r) => r.name === secretName)) return;
    try {
      await this.serviceAccounts.guaranteedUpdate(systemContext({ namespace: ns }), saName, (cur) => {
        if (!cur) throw new Error('service account is gone');
        const kept = refs(cur).filter((r) => r.name !== secretName);
        if (kept.length === refs(cur).length) return cur;
        return { ...cur, secrets: kept };
      }, {});
    } catch (err) {
      if (isNotFound(err) || (err as Error).message === 'service account is gone') return;
      throw err;
    }
  }

  private needsUpdate(secret: KObject, sa: KObject): boolean {
    const data = (secret.data as Record<string, string> | undefined) ?? {};
    const ann = secret.metadata.annotations ?? {};
    return !data.token || !data.namespace || (!!this.opts.rootCaPem && data['ca.crt'] !== b64(this.opts.rootCaPem)) || ann[SA_UID_ANNOTATION] !== sa.metadata.uid;
  }

  private async liveAccount(ns: string, name: string): Promise<KObject | undefined> {
    try {
      return (await this.serviceAccounts.get(systemContext({ namespace: ns }), name, {})).object as KObject;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async deleteSecret(s: KObject): Promise<void> {
    try {
      await this.secrets.delete(systemContext({ namespace: s.metadata.namespace ?? '' }), s.metadata.name ?? '', { preconditions: { uid: s.metadata.uid ?? '' } });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }
}

export async function startServiceAccountTokens(o: ServiceAccountTokensOptions): Promise<RunningServiceAccountTokens> {
  const logOpt = o.log ? { log: o.log } : {};
  const secretInformer = new Informer({ storage: storageOf(o.registry, 'secrets'), fieldSelector: `type=${SA_TOKEN_SECRET_TYPE}`, ...logOpt });
  const saInformer = new Informer({ storage: storageOf(o.registry, 'serviceaccounts'), ...logOpt });
  const controller = new ServiceAccountTokensController({ ...o, secretInformer, saInformer });
  const stop = async (): Promise<void> => {
    secretInformer.stop();
    saInformer.stop();
    await controller.stop();
  };
  try {
    await secretInformer.start();
    await saInformer.start();
  } catch (err) {
    await stop();
    throw err;
  }
  return { queues: [controller.queue], stop };
}
