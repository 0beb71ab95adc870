/**
 * `POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token`: kube's TokenREST
 * (pkg/registry/core/serviceaccount/storage/token.go), in its order —
 *   body name/namespace must match the URL (422) → the service account must exist (404) → audiences default
 *   to the API audiences → expirationSeconds (default 3600) within [600, 2^32] (422) → the bound object
 *   (Pod with the same serviceAccountName, Secret, or Node) must exist (404) with the given uid (409) →
 *   `--service-account-max-token-expiration` shortens the request (with a warning) → kubelet's 3607 s
 *   pod-bound tokens for API audiences are extended to a year with `warnafter` → sign.
 * The answer is the request with metadata filled, `creationTimestamp` now and `status {token,
 * expirationTimestamp}` (now + requested seconds); 201 like any create. Nothing is stored; dryRun still
 * answers with a token as kube does (TokenREST ignores dryRun). Every other verb is 405.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { ResourceDef } from '../../api/types.ts';
import { errors, field, StatusError } from '../../machinery/errors.ts';
import type { OpContext } from '../../registry/rest.ts';
import type { RestRegistry } from '../../registry/rest.ts';
import type { SubresourceStorageFactory } from '../../registry/registry.ts';
import { ReviewStorage } from '../../registry/reviews/base.ts';
import { systemContext } from '../../registry/system-context.ts';
import { boundClaims, EXPIRATION_EXTENSION_SECONDS, WARN_ONLY_EXPIRATION_SECONDS } from './claims.ts';
import { MAX_TOKEN_AGE_SECONDS } from './config.ts';
import type { ServiceAccountIssuer } from './issuer.ts';

const GROUP_KIND = { kind: 'TokenRequest', group: 'authentication.k8s.io' };
const MIN_TOKEN_AGE_SECONDS = 600;
const DEFAULT_EXPIRATION_SECONDS = 3600;

export interface TokenRequestOptions {
  readonly issuer: ServiceAccountIssuer;
  /** Where the service account, pod, secret and node are read. */
  readonly registry: RestRegistry;
  readonly now?: () => Date;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, 'Z');

/** schema.FromAPIVersionAndKind: an unparsable apiVersion keeps only the kind. */
function gvkOf(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '') return { group: '', version: '', kind };
  if (parts.length === 1) return { group: '', version: parts[0]!, kind };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]!, kind };
  return { group: '', version: '', kind };
}

export class TokenRequestStorage extends ReviewStorage {
  constructor(def: ResourceDef, private readonly opts: TokenRequestOptions) {
    super(def);
  }

  private async read(resource: string, namespace: string, name: string): Promise<KObject> {
    const s = this.opts.registry.lookup('', 'v1', resource);
    if (!s) throw errors.notFound({ kind: resource, name });
    return (await s.get(systemContext({ namespace }), name, {})).object as KObject;
  }

  async create(ctx: OpContext, obj: KObject): Promise<KObject> {
    const namespace = ctx.namespace;
    if (!namespace) throw errors.badRequest('namespace is required');
    const bodyName = obj.metadata.name ?? '';
    // The URL names the service account; older handlers only hand it over as the body's name.
    const name = ctx.name ?? bodyName;
    if (bodyName && bodyName !== name) {
      throw errors.invalid({ ...GROUP_KIND, name }, [field.invalid('metadata.name', bodyName, 'must match the service account name if specified')]);
    }
    const bodyNs = obj.metadata.namespace ?? '';
    if (bodyNs && bodyNs !== namespace) {
      throw errors.invalid({ ...GROUP_KIND, name }, [field.invalid('metadata.namespace', bodyNs, 'must match the service account namespace if specified')]);
    }
    const sa = await this.read('serviceaccounts', namespace, name);

    const { config } = this.opts.issuer;
    const spec: Record<string, unknown> = isRecord(obj.spec) ? { ...obj.spec } : {};
    let audiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    if (!audiences.length) audiences = [...config.apiAudiences];
    const requested = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
    if (typeof requested !== 'number' || !Number.isInteger(requested)) {
      throw errors.badRequest(`json: cannot unmarshal ${typeof requested} into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64`);
    }
    let expirationSeconds: number = requested;
    const now = (this.opts.now ?? (() => new Date()))();
    const bad = [];
    if (expirationSeconds < MIN_TOKEN_AGE_SECONDS) bad.push(field.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
    if (expirationSeconds > MAX_TOKEN_AGE_SECONDS) bad.push(field.invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
    if (bad.length) throw errors.invalid({ ...GROUP_KIND, name: '' }, bad);

    let pod: KObject | undefined;
    let secret: KObject | undefined;
    let node: { name: string; uid?: string } | undefined;
    const ref = spec.boundObjectRef;
    if (isRecord(ref)) {
      const gvk = gvkOf(str(ref.apiVersion), str(ref.kind));
      const refName = str(ref.name);
      let uid: string;
      if (gvk.group === '' && gvk.kind === 'Pod') {
        pod = await this.read('pods', namespace, refName);
        const podSa = str((pod.spec as Record<string, unknown> | undefined)?.serviceAccountName);
        if (podSa !== name) throw errors.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
        uid = pod.metadata.uid ?? '';
        const nodeName = str((pod.spec as Record<string, unknown> | undefined)?.nodeName);
        if (nodeName) {
          // A missing Node still records its name, so the token says where the pod was scheduled.
          const n = await this.read('nodes', '', nodeName).catch((err: unknown) => {
            if (err instanceof StatusError && err.code === 404) return undefined;
            throw err;
          });
          node = { name: nodeName, ...(n?.metadata.uid ? { uid: n.metadata.uid } : {}) };
        }
      } else if (gvk.group === '' && gvk.kind === 'Node') {
        const n = await this.read('nodes', '', refName);
        uid = n.metadata.uid ?? '';
        node = { name: n.metadata.name ?? refName, uid };
      } else if (gvk.group === '' && gvk.kind === 'Secret') {
        secret = await this.read('secrets', namespace, refName);
        uid = secret.metadata.uid ?? '';
      } else {
        throw errors.badRequest(`cannot bind token to object of type ${gvk.group}/${gvk.version}, Kind=${gvk.kind}`);
      }
      const refUid = str(ref.uid);
      if (refUid && refUid !== uid) {
        throw errors.conflict({ kind: gvk.kind, group: gvk.group, name: refName },
          `the UID in the bound object reference (${refUid}) does not match the UID in record. The object might have been deleted and then recreated`);
      }
    }

    if (config.maxExpirationSeconds > 0 && expirationSeconds > config.maxExpirationSeconds) {
      ctx.warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${config.maxExpirationSeconds} seconds`);
      expirationSeconds = config.maxExpirationSeconds;
    }
    let exp = expirationSeconds;
    let warnAfter = 0;
    if (config.extendExpiration && pod && expirationSeconds === WARN_ONLY_EXPIRATION_SECONDS && audiences.every((a) => config.apiAudiences.includes(a))) {
      warnAfter = exp;
      exp = EXPIRATION_EXTENSION_SECONDS;
    }
    const token = await this.opts.issuer.signBound(boundClaims({
      serviceAccount: sa, ...(pod ? { pod } : {}), ...(secret ? { secret } : {}), ...(node ? { node } : {}),
      expirationSeconds: exp, warnAfterSeconds: warnAfter, audiences, now,
    }));

    const { name: _n, namespace: _ns, creationTimestamp: _c, ...restMeta } = obj.metadata;
    return {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace, ...restMeta, creationTimestamp: rfc3339(now) } as KObject['metadata'],
      spec: { audiences, expirationSeconds, boundObjectRef: isRecord(ref) ? ref : null },
      status: { token, expirationTimestamp: rfc3339(new Date(now.getTime() + expirationSeconds * 1000)) },
    };
  }
}

/** The registry's sub-resource factory for `serviceaccounts/token` (RegistryOptions.subresourceStorages). */
export function tokenRequestSubresource(issuer: ServiceAccountIssuer): SubresourceStorageFactory {
  return ({ def, sub, registry }) => (def.group === '' && def.resource === 'serviceaccounts' && sub.name === 'token' ? new TokenRequestStorage(def, { issuer, registry }) : undefined);
}
