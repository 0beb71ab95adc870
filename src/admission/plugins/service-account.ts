/**
 * ServiceAccount (kube's plugin/pkg/admission/serviceaccount), on pod creation:
 * - a pod naming no service account gets `default` (`serviceAccount`, the deprecated alias, counts as a name);
 * - the account must exist: 403 `error looking up service account <ns>/<name>: serviceaccount "<name>" not found`
 *   (a miss in the cache is read live; for `default`, which the service account controller creates moments
 *   after its namespace, up to ten times 100–200 ms apart, as kube does);
 * - unless the pod or else the account says `automountServiceAccountToken: false`, the projected
 *   `kube-api-access-<5 random>` volume (a bound token of 3607 s, `kube-root-ca.crt`'s ca.crt, the namespace) is
 *   added and mounted read-only at /var/run/secrets/kubernetes.io/serviceaccount in every container and init
 *   container that mounts nothing there (an existing `kube-api-access-*` volume is reused);
 * - a pod without imagePullSecrets gets the account's;
 * - an account annotated `kubernetes.io/enforce-mountable-secrets: "true"` limits the secrets the pod may use
 *   to the account's;
 * - mirror pods (the kubelet's static pods) are left as they are, but may not name a service account, secrets,
 *   or service account token projections;
 * - on `pods/ephemeralcontainers` updates, ephemeral containers are held to the enforced mountable secrets.
 * Other sub-resources (status, binding, …) are not looked at.
 */
import type { KObject } from '../../machinery/objects.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { generateName, isMirrorPod, isObj, isPodRequest, isResource, list, lister, plainError, podSecretNames, sleep, specOf, str, type J } from './support.ts';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: one hour and seven seconds. */
const TOKEN_EXPIRATION_SECONDS = 3607;

/** The projected volume source kube mounts (its TokenVolumeSource), in kube's field order. */
export function tokenVolumeSource(): J {
  return {
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
    defaultMode: 420,
  };
}

function shouldAutomount(sa: KObject, spec: J): boolean {
  if (typeof spec['automountServiceAccountToken'] === 'boolean') return spec['automountServiceAccountToken'];
  if (typeof sa['automountServiceAccountToken'] === 'boolean') return sa['automountServiceAccountToken'];
  return true;
}

function mountToken(spec: J, nameOf: (base: string) => string): void {
  const volumes = list(spec['volumes']);
  const existing = volumes.find((v) => str(v['name']).startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = existing ? str(existing['name']) : nameOf(TOKEN_VOLUME_PREFIX);
  let needed = false;
  for (const key of ['initContainers', 'containers']) {
    for (const c of list(spec[key])) {
      const mounts = list(c['volumeMounts']);
      if (mounts.some((m) => m['mountPath'] === TOKEN_MOUNT_PATH)) continue;
      c['volumeMounts'] = [...mounts, { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (!existing && needed) spec['volumes'] = [...volumes, { name: volumeName, projected: tokenVolumeSource() }];
}

/** The first env or envFrom secret reference of the listed containers the account does not list. */
function containerSecretError(sa: KObject, spec: J, kinds: ReadonlyArray<readonly [string, string]>): string | undefined {
  const saName = sa.metadata.name ?? '';
  const mountable = new Set(list(sa['secrets']).map((s) => str(s['name'])));
  const refused = `is not allowed because service account ${saName} does not reference that secret`;
  for (const [key, what] of kinds) {
    for (const c of list(spec[key])) {
      for (const e of list(c['env'])) {
        const ref = isObj(e['valueFrom']) && isObj(e['valueFrom']['secretKeyRef']) ? e['valueFrom']['secretKeyRef'] : undefined;
        if (ref && !mountable.has(str(ref['name']))) {
          return `${what} ${str(c['name'])} with envVar ${str(e['name'])} referencing secret.secretName="${str(ref['name'])}" ${refused}`;
        }
      }
      // envFrom too, since CVE-2024-3177's fix.
      for (const e of list(c['envFrom'])) {
        if (isObj(e['secretRef']) && !mountable.has(str(e['secretRef']['name']))) {
          return `${what} ${str(c['name'])} with envFrom referencing secret.secretName="${str(e['secretRef']['name'])}" ${refused}`;
        }
      }
    }
  }
  return undefined;
}

/** limitSecretReferences: the account's secrets bound what the pod may use. */
function secretReferenceError(sa: KObject, spec: J): string | undefined {
  const saName = sa.metadata.name ?? '';
  const mountable = new Set(list(sa['secrets']).map((s) => str(s['name'])));
  for (const v of list(spec['volumes'])) {
    if (!isObj(v['secret'])) continue;
    const name = str(v['secret']['secretName']);
    if (!mountable.has(name)) return `volume with secret.secretName="${name}" is not allowed because service account ${saName} does not reference that secret`;
  }
  const containerError = containerSecretError(sa, spec, [['initContainers', 'init container'], ['containers', 'container']]);
  if (containerError) return containerError;
  const pullable = new Set(list(sa['imagePullSecrets']).map((s) => str(s['name'])));
  const pulls = list(spec['imagePullSecrets']);
  for (let i = 0; i < pulls.length; i++) {
    const name = str(pulls[i]!['name']);
    if (!pullable.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}

/** strconv.ParseBool's true spellings in the account's enforce-mountable-secrets annotation. */
const enforcesMountableSecrets = (sa: KObject) => ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(sa.metadata.annotations?.[ENFORCE_MOUNTABLE_SECRETS] ?? '');

const isEphemeralContainersUpdate = (a: AdmissionAttributes) => a.operation === 'UPDATE' && isResource(a, '', 'pods')
  && a.subresource === 'ephemeralcontainers' && isObj(a.object);

export interface ServiceAccountOptions {
  /** The volume name generator (tests pin it). */
  readonly generateName?: (base: string) => string;
  /** Pause between live reads of a missing `default` account. */
  readonly retryDelayMs?: () => number;
}

export function serviceAccountPlugin(ctx: PluginContext, opts: ServiceAccountOptions = {}): AdmissionPlugin {
  const accounts = lister(ctx, '', 'v1', 'serviceaccounts');
  const nameOf = opts.generateName ?? generateName;
  const delay = opts.retryDelayMs ?? (() => 100 + Math.floor(Math.random() * 100));

  async function getServiceAccount(a: AdmissionAttributes, name: string): Promise<KObject> {
    const cached = accounts.cached(a.namespace, name);
    if (cached) return cached;
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? 10 : 1;
    const pause = delay();
    for (let i = 0; i < attempts; i++) {
      if (i) await sleep(pause);
      const sa = await accounts.live(a.namespace, name);
      if (sa) return sa;
    }
    throw admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: serviceaccount ${JSON.stringify(name)} not found`);
  }

  function validateMirrorPod(a: AdmissionAttributes, spec: J): void {
    if (str(spec['serviceAccountName']) || str(spec['serviceAccount'])) throw admissionForbidden(a, 'a mirror pod may not reference service accounts');
    if (podSecretNames(spec).length) throw admissionForbidden(a, 'a mirror pod may not reference secrets');
    for (const v of list(spec['volumes'])) {
      if (!isObj(v['projected'])) continue;
      if (list(v['projected']['sources']).some((s) => s['serviceAccountToken'] !== undefined)) {
        throw admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
      }
    }
  }

  /** The pod's account, refused as kube refuses a pod that names none (a later mutation could have removed it). */
  async function accountOf(a: AdmissionAttributes, spec: J): Promise<KObject> {
    const name = str(spec['serviceAccountName']) || str(spec['serviceAccount']);
    if (!name) throw admissionForbidden(a, `no service account specified for pod ${a.namespace}/${a.object?.metadata.name ?? ''}`);
    return getServiceAccount(a, name);
  }

  async function validate(a: AdmissionAttributes): Promise<void> {
    if (isEphemeralContainersUpdate(a)) {
      // Ephemeral containers added later are held to the same mountable secrets (a plain error, as kube returns it).
      const spec = specOf(a.object);
      const sa = await accountOf(a, spec);
      if (!enforcesMountableSecrets(sa)) return;
      const why = containerSecretError(sa, spec, [['ephemeralContainers', 'ephemeral container']]);
      if (why) throw plainError(why);
      return;
    }
    if (a.operation !== 'CREATE' || !isPodRequest(a)) return;
    const pod = a.object!;
    const spec = specOf(pod);
    if (isMirrorPod(pod)) {
      validateMirrorPod(a, spec);
      return;
    }
    const sa = await accountOf(a, spec);
    if (enforcesMountableSecrets(sa)) {
      const why = secretReferenceError(sa, spec);
      if (why) throw admissionForbidden(a, why);
    }
  }

  return {
    name: 'ServiceAccount',
    operations: operations('CREATE', 'UPDATE'),
    async admit(a) {
      if (a.operation !== 'CREATE' || !isPodRequest(a)) return;
      const pod = a.object!;
      const spec = specOf(pod);
      if (isMirrorPod(pod)) return validate(a);
      // The v1 alias is read as the name (kube's conversion runs before admission).
      const name = str(spec['serviceAccountName']) || str(spec['serviceAccount']) || DEFAULT_SERVICE_ACCOUNT;
      spec['serviceAccountName'] = name;
      const sa = await getServiceAccount(a, name);
      if (shouldAutomount(sa, spec)) mountToken(spec, nameOf);
      const saPulls = list(sa['imagePullSecrets']);
      if (list(spec['imagePullSecrets']).length === 0 && saPulls.length) spec['imagePullSecrets'] = saPulls.map((s) => ({ name: str(s['name']) }));
      return validate(a);
    },
    validate,
    ready: () => accounts.ready(),
    stop: async () => accounts.stop(),
  };
}

registerPlugin('ServiceAccount', (ctx) => serviceAccountPlugin(ctx));
