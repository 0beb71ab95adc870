/**
 * Pods and pod templates (pkg/apis/core/validation/validation.go: ValidatePodSpec, ValidatePodTemplateSpec,
 * validatePodMetadataAndSpec, ValidatePodUpdate, ValidateTolerations, validatePodDNSConfig, ValidatePodTemplate).
 * Generic ObjectMeta checks are the registry's; these cover everything else, paths rooted at the object.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { inclusiveRangeError, ipFamilyOf, IP_ERROR, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.ts';
import { validateAnnotations } from './object-meta.ts';
import { validateContainers, validateContainersOnlyForPod, validateInitContainers } from './core-containers.ts';
import { validateVolumes } from './core-volumes.ts';
import { validateAffinity, validateTopologySpreadConstraints } from './core-affinity.ts';
import { validatePodSecurityContext } from './core-security.ts';
import { GO_NULL, goInvalid, goMap, goQuote, goStrings } from './go-render.ts';
import { type J, arr, isObj, isSet, obj, semanticEqual, str, validateLabelName, validateLabels } from './util.ts';

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const MAX_INT32 = 2147483647;

export interface PodSpecOptions {
  /** The spec belongs to a Pod (not a template): host ports must equal container ports under hostNetwork. */
  resourceIsPod?: boolean;
}

/** ValidateTolerations */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(tolerations).forEach((raw, i) => {
    const t = obj(raw);
    const p = `${path}[${i}]`;
    const key = str(t['key']);
    const op = str(t['operator']);
    const value = str(t['value']);
    const effect = str(t['effect']);
    if (key) errs.push(...validateLabelName(key, `${p}.key`));
    if (!key && op !== 'Exists') {
      errs.push(field.invalid(`${p}.operator`, op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t['tolerationSeconds']) && effect !== 'NoExecute') {
      errs.push(field.invalid(`${p}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length) errs.push(field.invalid(`${p}.operator`, value, msgs.join(';')));
    } else if (op === 'Exists') {
      if (value) errs.push(field.invalid(`${p}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(field.notSupported(`${p}.operator`, op, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(field.notSupported(`${p}.effect`, effect, TAINT_EFFECTS));
  });
  return errs;
}

function validateDNSConfig(cfg: unknown, dnsPolicy: string, path: string): FieldError[] {
  if (dnsPolicy === 'None') {
    if (!isSet(cfg)) return [field.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (arr(obj(cfg)['nameservers']).length === 0) return [field.required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isSet(cfg)) return [];
  const c = obj(cfg);
  const errs: FieldError[] = [];
  const ns = arr(c['nameservers']).map(str);
  if (ns.length > 3) errs.push(goInvalid(`${path}.nameservers`, goStrings(ns), 'must not have more than 3 nameservers'));
  ns.forEach((ip, i) => { if (!ipFamilyOf(ip)) errs.push(field.invalid(`${path}.nameservers[${i}]`, ip, IP_ERROR)); });
  const searches = arr(c['searches']).map(str);
  if (searches.length > 32) errs.push(goInvalid(`${path}.searches`, goStrings(searches), 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) errs.push(goInvalid(`${path}.searches`, goStrings(searches), 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => {
    if (s === '.') return;
    const v = s.endsWith('.') ? s.slice(0, -1) : s;
    // AllowRelaxedDNSSearchValidation (on by default in v1.33): underscores are allowed.
    for (const m of isDNS1123Subdomain(v.replace(/_/g, 'a'))) errs.push(field.invalid(`${path}.searches[${i}]`, v, m));
  });
  arr(c['options']).forEach((o, i) => { if (!str(obj(o)['name'])) errs.push(field.required(`${path}.options[${i}]`, 'must not be empty')); });
  return errs;
}

/** ValidatePodSpec */
export function validatePodSpec(spec: unknown, path: string, opts: PodSpecOptions = {}): FieldError[] {
  const s = obj(spec);
  const errs: FieldError[] = [];
  const grace = typeof s['terminationGracePeriodSeconds'] === 'number' ? s['terminationGracePeriodSeconds'] : undefined;
  const vols = validateVolumes(s['volumes'], `${path}.volumes`);
  errs.push(...vols.errors);
  const restartPolicy = str(s['restartPolicy']) || 'Always';
  const ctx = { volumes: vols.volumes, gracePeriod: grace, podRestartPolicy: restartPolicy };
  errs.push(...validateContainers(s['containers'], ctx, `${path}.containers`));
  errs.push(...validateInitContainers(s['initContainers'], s['containers'], ctx, `${path}.initContainers`));
  if (s['hostNetwork'] === true) {
    arr(s['containers']).forEach((c, i) => arr(obj(c)['ports']).forEach((raw, j) => {
      const port = obj(raw);
      const hp = typeof port['hostPort'] === 'number' ? port['hostPort'] : 0;
      if ((opts.resourceIsPod || hp !== 0) && hp !== port['containerPort']) {
        errs.push(field.invalid(`${path}.containers[${i}].ports[${j}].hostPort`, hp, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }));
  }
  if (str(s['restartPolicy']) && !RESTART_POLICIES.includes(restartPolicy)) errs.push(field.notSupported(`${path}.restartPolicy`, restartPolicy, RESTART_POLICIES));
  const dnsPolicy = str(s['dnsPolicy']);
  if (dnsPolicy && !DNS_POLICIES.includes(dnsPolicy)) errs.push(field.notSupported(`${path}.dnsPolicy`, dnsPolicy, DNS_POLICIES));
  errs.push(...validateLabels(s['nodeSelector'], `${path}.nodeSelector`));
  errs.push(...validatePodSecurityContext(s, `${path}.securityContext`));
  arr(s['imagePullSecrets']).forEach((raw, i) => {
    const r = obj(raw);
    if (Object.keys(r).some((k) => k !== 'name')) errs.push(goInvalid(`${path}.imagePullSecrets[${i}]`, `core.LocalObjectReference{Name:${goQuote(str(r['name']))}}`, 'only name may be set'));
  });
  errs.push(...validateAffinity(s['affinity'], `${path}.affinity`));
  errs.push(...validateDNSConfig(s['dnsConfig'], dnsPolicy, `${path}.dnsConfig`));
  arr(s['readinessGates']).forEach((g, i) => {
    const ct = str(obj(g)['conditionType']);
    for (const m of isQualifiedName(ct)) errs.push(field.invalid(`${path}.readinessGates[${i}].conditionType`, ct, m));
  });
  const gates = new Set<string>();
  arr(s['schedulingGates']).forEach((g, i) => {
    const name = str(obj(g)['name']);
    for (const m of isQualifiedName(name)) errs.push(field.invalid(`${path}.schedulingGates[${i}]`, name, m));
    if (gates.has(name)) errs.push(field.duplicate(`${path}.schedulingGates[${i}]`, name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(s['topologySpreadConstraints'], `${path}.topologySpreadConstraints`));
  const dnsSub = (key: string, label = false) => {
    const v = str(s[key]);
    if (v) for (const m of (label ? isDNS1123Label(v) : isDNS1123Subdomain(v))) errs.push(field.invalid(`${path}.${key}`, v, m));
  };
  dnsSub('serviceAccountName');
  dnsSub('nodeName');
  const ads = s['activeDeadlineSeconds'];
  if (typeof ads === 'number' && (ads < 1 || ads > MAX_INT32)) errs.push(field.invalid(`${path}.activeDeadlineSeconds`, ads, inclusiveRangeError(1, MAX_INT32)));
  dnsSub('hostname', true);
  dnsSub('subdomain', true);
  errs.push(...validateTolerations(s['tolerations'], `${path}.tolerations`));
  arr(s['hostAliases']).forEach((raw, i) => {
    const ha = obj(raw);
    const ip = str(ha['ip']);
    if (!ipFamilyOf(ip)) errs.push(field.invalid(`${path}.hostAliases[${i}].ip`, ip, IP_ERROR));
    arr(ha['hostnames']).forEach((h, j) => {
      for (const m of isDNS1123Subdomain(str(h))) errs.push(field.invalid(`${path}.hostAliases[${i}].hostnames[${j}]`, str(h), m));
    });
  });
  dnsSub('priorityClassName');
  if (isSet(s['runtimeClassName'])) dnsSub('runtimeClassName');
  const pp = s['preemptionPolicy'];
  if (isSet(pp) && pp !== 'PreemptLowerPriority' && pp !== 'Never') {
    errs.push(pp === '' ? field.required(`${path}.preemptionPolicy`) : field.notSupported(`${path}.preemptionPolicy`, pp, ['PreemptLowerPriority', 'Never']));
  }
  if (isSet(s['os'])) {
    const os = str(obj(s['os'])['name']);
    if (os !== 'linux' && os !== 'windows') errs.push(field.notSupported(`${path}.os.name`, os, ['linux', 'windows']));
  }
  return errs;
}

/** ValidatePodTemplateSpec: template labels/annotations and spec; no ephemeral containers. */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  const t = obj(template);
  const meta = obj(t['metadata']);
  const errs = [
    ...validateLabels(meta['labels'], `${path}.metadata.labels`),
    ...validateAnnotations(meta['annotations'], `${path}.metadata.annotations`),
    ...validateDeletionCost(meta['annotations'], `${path}.metadata.annotations`),
    ...validatePodSpec(t['spec'], `${path}.spec`),
  ];
  if (arr(obj(t['spec'])['ephemeralContainers']).length > 0) {
    errs.push(field.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** The pod-deletion-cost annotation must be a 32-bit integer (ValidatePodSpecificAnnotations). */
export function validateDeletionCost(annotations: unknown, path: string): FieldError[] {
  const a = obj(annotations);
  if (!(DELETION_COST in a)) return [];
  const v = str(a[DELETION_COST]);
  const n = /^[-+]?\d+$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= -2147483648 && n <= MAX_INT32 ? [] : [field.invalid(`${path}[${DELETION_COST}]`, v, 'must be a 32bit integer')];
}

/** validatePodMetadataAndSpec minus the generic ObjectMeta checks. */
export function validatePod(pod: J): FieldError[] {
  const spec = obj(pod['spec']);
  const errs = [...validateDeletionCost(obj(pod['metadata'])['annotations'], 'metadata.annotations'), ...validatePodSpec(spec, 'spec', { resourceIsPod: true })];
  if (!str(spec['serviceAccountName'])) {
    arr(spec['volumes']).forEach((v, vi) => arr(obj(obj(v)['projected'])['sources']).forEach((src, si) => {
      if (isSet(obj(src)['serviceAccountToken'])) {
        errs.push(field.forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
      }
    }));
  }
  errs.push(...validateContainersOnlyForPod(spec['containers'], 'spec.containers'));
  errs.push(...validateContainersOnlyForPod(spec['initContainers'], 'spec.initContainers'));
  return errs;
}

const UPDATABLE = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** A short old → new listing of what differs (kube appends a go-cmp diff; clients do not parse it). */
function describeDiff(a: unknown, b: unknown, path: string, out: string[]): void {
  if (out.length >= 20 || semanticEqual(a, b)) return;
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) describeDiff(a[k], b[k], `${path}.${k}`, out);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => describeDiff(x, b[i], `${path}[${i}]`, out));
  } else {
    out.push(`- ${path}: ${JSON.stringify(a ?? null)}`, `+ ${path}: ${JSON.stringify(b ?? null)}`);
  }
}

function validateContainerUpdates(next: unknown, prev: unknown, path: string): { errs: FieldError[]; stop: boolean } {
  const n = arr(next);
  if (n.length !== arr(prev).length) return { errs: [field.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  n.forEach((c, i) => {
    const image = str(obj(c)['image']);
    if (!image) errs.push(field.required(`${path}[${i}].image`));
    if (image.trim() !== image) errs.push(field.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/** ValidatePodUpdate minus ObjectMeta: only images, activeDeadlineSeconds, tolerations (additions) and a few more. */
export function validatePodUpdate(pod: J, old: J): FieldError[] {
  const errs = validatePod(pod);
  const spec = obj(pod['spec']);
  const oldSpec = obj(old['spec']);
  for (const key of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(spec[key], oldSpec[key], `spec.${key}`);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const ads = spec['activeDeadlineSeconds'];
  const oldAds = oldSpec['activeDeadlineSeconds'];
  if (isSet(ads)) {
    const v = Number(ads);
    if (v < 0 || v > MAX_INT32) return [...errs, field.invalid('spec.activeDeadlineSeconds', v, inclusiveRangeError(0, MAX_INT32))];
    if (isSet(oldAds) && Number(oldAds) < v) return [...errs, field.invalid('spec.activeDeadlineSeconds', v, 'must be less than or equal to previous value')];
  } else if (isSet(oldAds)) {
    errs.push(goInvalid('spec.activeDeadlineSeconds', GO_NULL, 'must not update from a positive integer to nil value'));
  }
  // Only additions to tolerations (tolerationSeconds of existing ones may change).
  const newTols = arr(spec['tolerations']).map(obj);
  for (const t of arr(oldSpec['tolerations']).map(obj)) {
    const found = newTols.some((n) => semanticEqual({ ...t, tolerationSeconds: n['tolerationSeconds'] }, n));
    if (!found) {
      errs.push(field.forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));
      break;
    }
  }
  // Scheduling gates may only be removed.
  const oldGates = new Set(arr(oldSpec['schedulingGates']).map((g) => str(obj(g)['name'])));
  arr(spec['schedulingGates']).forEach((g, i) => {
    const name = str(obj(g)['name']);
    if (!oldGates.has(name)) errs.push(field.forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`));
  });
  if (semanticEqual(spec, oldSpec)) return errs;
  const munged: J = structuredClone(spec);
  for (const key of ['containers', 'initContainers']) {
    if (!Array.isArray(munged[key])) continue;
    munged[key] = (munged[key] as unknown[]).map((c, i) => ({ ...obj(c), image: obj(arr(oldSpec[key])[i])['image'] }));
  }
  munged['activeDeadlineSeconds'] = oldSpec['activeDeadlineSeconds'];
  munged['schedulingGates'] = oldSpec['schedulingGates'];
  munged['tolerations'] = oldSpec['tolerations'];
  const oldGrace = oldSpec['terminationGracePeriodSeconds'];
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged['terminationGracePeriodSeconds'] === 1) munged['terminationGracePeriodSeconds'] = oldGrace;
  // A gated pod may gain nodeSelector entries (additions only).
  if (oldGates.size > 0 && !semanticEqual(munged['nodeSelector'], oldSpec['nodeSelector'])) {
    const oldSel = obj(oldSpec['nodeSelector']);
    const newSel = obj(munged['nodeSelector']);
    const changed = Object.entries(oldSel).some(([k, v]) => newSel[k] !== v);
    if (changed) errs.push(goInvalid('spec.nodeSelector', goMap(newSel), 'only additions to the node selector are allowed'));
    munged['nodeSelector'] = oldSpec['nodeSelector'];
  }
  if (!semanticEqual(munged, oldSpec)) {
    const diff: string[] = [];
    describeDiff(oldSpec, munged, 'spec', diff);
    errs.push(field.forbidden('spec', `pod updates may not change fields other than ${UPDATABLE.join(',')}\n${diff.join('\n')}`));
  }
  return errs;
}

/** ValidatePodTemplate (core/v1 PodTemplate): the template under `template`. */
export function validatePodTemplateObject(obj0: J): FieldError[] {
  return validatePodTemplateSpec(obj0['template'], 'template');
}

