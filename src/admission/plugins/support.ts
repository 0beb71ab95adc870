/**
 * What the built-in plugins share: cached lookups of the objects they consult (kube's informer listers, with
 * a live read on a cache miss so an object created a moment ago is seen), pod and toleration helpers kube keeps
 * in pkg/api/pod, pkg/util/tolerations and pkg/apis/core/helper, label-map helpers, and the error shapes
 * plugins answer with.
 */
import { Informer } from '../../client/informer.ts';
import { StatusError, errors } from '../../machinery/errors.ts';
import { goQuote } from '../../machinery/go-quote.ts';
import type { KObject, UserInfo } from '../../machinery/objects.ts';
import { isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.ts';
import { systemContext } from '../../registry/system-context.ts';
import type { AdmissionAttributes, PluginContext } from '../types.ts';

export type J = Record<string, unknown>;

export const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
export const list = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isObj) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A cache of one resource (all namespaces) with a live read on a miss. */
export interface Lister {
  /** Resolves once the first list is in (immediately when the resource is not served). */
  ready(): Promise<void>;
  /** From the cache. */
  cached(namespace: string, name: string): KObject | undefined;
  /** From the cache, else a live read (undefined when missing). */
  get(namespace: string, name: string): Promise<KObject | undefined>;
  /** A consistent read that bypasses the cache (undefined when missing). */
  live(namespace: string, name: string): Promise<KObject | undefined>;
  list(): KObject[];
  stop(): void;
}

export function lister(ctx: PluginContext, group: string, version: string, resource: string): Lister {
  const storage = ctx.registry.lookup(group, version, resource);
  const informer = storage ? new Informer({ storage, log: ctx.log }) : undefined;
  let started: Promise<void> | undefined;
  const live = async (namespace: string, name: string): Promise<KObject | undefined> => {
    if (!storage || !name) return undefined;
    try {
      return (await storage.get(systemContext({ namespace }), name, {})).object;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
  };
  return {
    ready: () => (started ??= informer ? informer.start() : Promise.resolve()),
    cached: (namespace, name) => informer?.get(namespace, name),
    async get(namespace, name) {
      return informer?.get(namespace, name) ?? live(namespace, name);
    },
    live,
    list: () => informer?.list() ?? [],
    stop: () => informer?.stop(),
  };
}

/** Stops listers that were made but may not have been started. */
export function stopAll(...listers: Lister[]): Promise<void> {
  for (const l of listers) l.stop();
  return Promise.resolve();
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// --- requests ------------------------------------------------------------------------------------------------

/** The main resource (no sub-resource) of group/resource. */
export function isResource(a: AdmissionAttributes, group: string, resource: string): boolean {
  return a.resource.group === group && a.resource.resource === resource;
}

export const isPodRequest = (a: AdmissionAttributes) => isResource(a, '', 'pods') && a.subresource === '' && isObj(a.object);

/** apierrors.NewForbidden(groupResource, name, err): `pods "x" is forbidden: …` (no name: `pods is forbidden: …`). */
export function forbiddenResource(a: AdmissionAttributes, name: string | undefined, message: string): StatusError {
  return errors.forbidden({ kind: a.resource.resource, group: a.resource.group, ...(name ? { name } : {}) }, message);
}

/** A plain Go error returned by a plugin: kube-apiserver answers it as a 500 with no reason. */
export function plainError(message: string): StatusError {
  return new StatusError(500, '' as never, message);
}

export function specOf(obj: KObject | undefined): J {
  if (!obj) return {};
  if (!isObj(obj['spec'])) obj['spec'] = {};
  return obj['spec'] as J;
}

// --- pods ----------------------------------------------------------------------------------------------------

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export const isMirrorPod = (pod: KObject) => pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;

/** Init containers, containers and ephemeral containers with their field paths (podutil.VisitContainersWithPath). */
export function podContainers(spec: J, path = 'spec'): Array<{ c: J; path: string }> {
  const out: Array<{ c: J; path: string }> = [];
  for (const [key, jsonKey] of [['initContainers', 'initContainers'], ['containers', 'containers'], ['ephemeralContainers', 'ephemeralContainers']] as const) {
    list(spec[key]).forEach((c, i) => out.push({ c, path: `${path}.${jsonKey}[${i}]` }));
  }
  return out;
}

/** podutil.VisitPodSecretNames: every secret a pod spec names. */
export function podSecretNames(spec: J): string[] {
  const out: string[] = [];
  for (const r of list(spec['imagePullSecrets'])) out.push(str(r['name']));
  for (const { c } of podContainers(spec)) {
    for (const e of list(c['envFrom'])) if (isObj(e['secretRef'])) out.push(str(e['secretRef']['name']));
    for (const e of list(c['env'])) {
      const from = isObj(e['valueFrom']) ? e['valueFrom'] : {};
      if (isObj(from['secretKeyRef'])) out.push(str(from['secretKeyRef']['name']));
    }
  }
  for (const v of list(spec['volumes'])) {
    if (isObj(v['secret'])) out.push(str(v['secret']['secretName']));
    if (isObj(v['azureFile'])) out.push(str(v['azureFile']['secretName']));
    for (const k of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) {
      const src = v[k];
      if (isObj(src) && isObj(src['secretRef'])) out.push(str(src['secretRef']['name']));
    }
    if (isObj(v['csi']) && isObj(v['csi']['nodePublishSecretRef'])) out.push(str(v['csi']['nodePublishSecretRef']['name']));
    if (isObj(v['projected'])) for (const s of list(v['projected']['sources'])) if (isObj(s['secret'])) out.push(str(s['secret']['name']));
  }
  return out;
}

/** podutil.VisitPodConfigmapNames. */
export function podConfigMapNames(spec: J): string[] {
  const out: string[] = [];
  for (const { c } of podContainers(spec)) {
    for (const e of list(c['envFrom'])) if (isObj(e['configMapRef'])) out.push(str(e['configMapRef']['name']));
    for (const e of list(c['env'])) {
      const from = isObj(e['valueFrom']) ? e['valueFrom'] : {};
      if (isObj(from['configMapKeyRef'])) out.push(str(from['configMapKeyRef']['name']));
    }
  }
  for (const v of list(spec['volumes'])) {
    if (isObj(v['configMap'])) out.push(str(v['configMap']['name']));
    if (isObj(v['projected'])) for (const s of list(v['projected']['sources'])) if (isObj(s['configMap'])) out.push(str(s['configMap']['name']));
  }
  return out;
}

// --- tolerations (pkg/util/tolerations) -------------------------------------------------------------------------

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

const same = (a: unknown, b: unknown) => JSON.stringify(normalizeTol(a)) === JSON.stringify(normalizeTol(b));

function normalizeTol(t: unknown): unknown {
  const o = isObj(t) ? t : {};
  return [str(o['key']), str(o['operator']), str(o['value']), str(o['effect']), typeof o['tolerationSeconds'] === 'number' ? o['tolerationSeconds'] : null];
}

/** Whether `ss` tolerates everything `t` tolerates. */
export function tolerationIsSuperset(ss: Toleration, t: Toleration): boolean {
  if (same(ss, t)) return true;
  if ((t.key ?? '') !== (ss.key ?? '') && ((ss.key ?? '') !== '' || ss.operator !== 'Exists')) return false;
  if ((t.effect ?? '') !== (ss.effect ?? '') && (ss.effect ?? '') !== '') return false;
  if (ss.effect === 'NoExecute' && typeof ss.tolerationSeconds === 'number') {
    if (typeof t.tolerationSeconds !== 'number' || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ss.operator ?? '') {
    case 'Equal':
    case '':
      return t.operator === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** MergeTolerations: both sets, keeping only the wider of two where one covers the other (the first of equals). */
export function mergeTolerations<T extends Toleration>(first: readonly T[], second: readonly T[]): T[] {
  const all = [...first, ...second];
  const merged: T[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    for (const m of merged) if (tolerationIsSuperset(m, t)) continue next;
    for (const t2 of all.slice(i + 1)) if (!same(t, t2) && tolerationIsSuperset(t2, t)) continue next;
    merged.push(t);
  }
  return merged;
}

/** VerifyAgainstWhitelist: every toleration is covered by one of the whitelist. */
export function tolerationsAllowed(tolerations: readonly Toleration[], whitelist: readonly Toleration[]): boolean {
  if (!whitelist.length || !tolerations.length) return true;
  return tolerations.every((t) => whitelist.some((w) => tolerationIsSuperset(w, t)));
}

// --- labels (k8s.io/apimachinery/pkg/labels) ----------------------------------------------------------------------

export type LabelSet = Record<string, string>;

/** labels.Conflicts: a key both maps set to different values. */
export function labelsConflict(a: LabelSet, b: LabelSet): boolean {
  const [small, big] = Object.keys(a).length < Object.keys(b).length ? [a, b] : [b, a];
  return Object.entries(small).some(([k, v]) => k in big && big[k] !== v);
}

/**
 * labels.ConvertSelectorToLabelsMap: `a=b,c=d`, keys and values validated as labels; throws Go's message on a
 * bad term (field errors with no path, as kube words them).
 */
export function selectorToLabels(selector: string): LabelSet {
  const out: LabelSet = {};
  if (!selector) return out;
  for (const term of selector.split(',')) {
    const parts = term.split('=');
    if (parts.length !== 2) throw new Error(`invalid selector: [${parts.join(' ')}]`);
    const key = parts[0]!.trim();
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw new Error(`<nil>: Invalid value: ${goQuote(key)}: ${keyErrs.join('; ')}`);
    const value = parts[1]!.trim();
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length) throw new Error(`[${key}]: Invalid value: ${goQuote(value)}: ${valueErrs.join('; ')}`);
    out[key] = value;
  }
  return out;
}

// --- identities ----------------------------------------------------------------------------------------------

/** nodeidentifier.NodeIdentity: `system:node:<name>` in group `system:nodes`. */
export function nodeIdentity(user: UserInfo): { isNode: boolean; name: string } {
  const prefix = 'system:node:';
  if (!user.username.startsWith(prefix) || !user.groups.includes('system:nodes')) return { isNode: false, name: '' };
  return { isNode: true, name: user.username.slice(prefix.length) };
}

/** kube's names.SimpleNameGenerator: the base and five random characters. */
export function generateName(base: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
  return base + s;
}

/** Newest first (creationTimestamp, seconds), then by name: how kube picks among several default classes. */
export function newestDefault(objects: readonly KObject[], isDefault: (o: KObject) => boolean): KObject | undefined {
  const defaults = objects.filter(isDefault);
  defaults.sort((a, b) => {
    const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
    const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
    if (ta === tb) return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
    return tb - ta;
  });
  return defaults[0];
}
