/**
 * Scheduling constraints of a pod spec (pkg/apis/core/validation/validation.go: validateAffinity,
 * validateNodeAffinity, ValidateNodeSelector, ValidateNodeSelectorRequirement,
 * ValidateNodeFieldSelectorRequirement, ValidatePreferredSchedulingTerms, validatePodAffinityTerm,
 * validateWeightedPodAffinityTerms, validateTopologySpreadConstraints).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../machinery/validation/names.ts';
import { type J, arr, isSet, obj, str, validateLabelName, validateLabelSelector } from './util.ts';

function nodeSelectorRequirement(rq: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(rq['operator']);
  const values = arr(rq['values']).map(str);
  if (op === 'In' || op === 'NotIn') {
    if (values.length === 0) errs.push(field.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (op === 'Exists' || op === 'DoesNotExist') {
    if (values.length > 0) errs.push(field.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (op === 'Gt' || op === 'Lt') {
    if (values.length !== 1) errs.push(field.required(`${path}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else {
    errs.push(field.invalid(`${path}.operator`, op, 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(str(rq['key']), `${path}.key`));
  values.forEach((v, i) => { for (const m of isValidLabelValue(v)) errs.push(field.invalid(`${path}.values[${i}]`, v, m)); });
  return errs;
}

function nodeFieldRequirement(rq: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const op = str(rq['operator']);
  const values = arr(rq['values']).map(str);
  if (op === 'In' || op === 'NotIn') {
    if (values.length !== 1) errs.push(field.required(`${path}.values`, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(field.invalid(`${path}.operator`, op, 'not a valid selector operator'));
  }
  if (str(rq['key']) !== 'metadata.name') errs.push(field.invalid(`${path}.key`, str(rq['key']), 'not a valid field selector key'));
  else values.forEach((v, i) => { for (const m of isDNS1123Subdomain(v)) errs.push(field.invalid(`${path}.values[${i}]`, v, m)); });
  return errs;
}

function nodeSelectorTerm(term: unknown, path: string): FieldError[] {
  const t = obj(term);
  return [
    ...arr(t['matchExpressions']).flatMap((r, j) => nodeSelectorRequirement(obj(r), `${path}.matchExpressions[${j}]`)),
    ...arr(t['matchFields']).flatMap((r, j) => nodeFieldRequirement(obj(r), `${path}.matchFields[${j}]`)),
  ];
}

function weight(w: unknown, path: string): FieldError[] {
  const n = typeof w === 'number' ? w : 0;
  return n <= 0 || n > 100 ? [field.invalid(path, n, 'must be in the range 1-100')] : [];
}

function podAffinityTerm(term: unknown, path: string): FieldError[] {
  const t = obj(term);
  const errs = [
    ...validateLabelSelector(t['labelSelector'], `${path}.labelSelector`),
    ...validateLabelSelector(t['namespaceSelector'], `${path}.namespaceSelector`),
  ];
  for (const ns of arr(t['namespaces']).map(str)) for (const m of isDNS1123Label(ns)) errs.push(field.invalid(`${path}.namespace`, ns, m));
  for (const k of ['matchLabelKeys', 'mismatchLabelKeys']) {
    const keys = arr(t[k]).map(str);
    if (keys.length === 0) continue;
    if (!isSet(t['labelSelector'])) errs.push(field.forbidden(`${path}.${k}`, 'must not be specified when labelSelector is not set'));
    else keys.forEach((key, i) => errs.push(...validateLabelName(key, `${path}.${k}[${i}]`)));
  }
  const tk = str(t['topologyKey']);
  if (!tk) errs.push(field.required(`${path}.topologyKey`, 'can not be empty'));
  errs.push(...validateLabelName(tk, `${path}.topologyKey`));
  return errs;
}

/** validateAffinity */
export function validateAffinity(affinity: unknown, path: string): FieldError[] {
  if (!isSet(affinity)) return [];
  const a = obj(affinity);
  const errs: FieldError[] = [];
  if (isSet(a['nodeAffinity'])) {
    const na = obj(a['nodeAffinity']);
    const p = `${path}.nodeAffinity`;
    if (isSet(na['requiredDuringSchedulingIgnoredDuringExecution'])) {
      const rp = `${p}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
      const terms = arr(obj(na['requiredDuringSchedulingIgnoredDuringExecution'])['nodeSelectorTerms']);
      if (terms.length === 0) errs.push(field.required(rp, 'must have at least one node selector term'));
      terms.forEach((t, i) => errs.push(...nodeSelectorTerm(t, `${rp}[${i}]`)));
    }
    arr(na['preferredDuringSchedulingIgnoredDuringExecution']).forEach((raw, i) => {
      const pp = `${p}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errs.push(...weight(obj(raw)['weight'], `${pp}.weight`), ...nodeSelectorTerm(obj(raw)['preference'], `${pp}.preference`));
    });
  }
  for (const k of ['podAffinity', 'podAntiAffinity']) {
    if (!isSet(a[k])) continue;
    const pa = obj(a[k]);
    const p = `${path}.${k}`;
    arr(pa['requiredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => {
      errs.push(...podAffinityTerm(t, `${p}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`));
    });
    arr(pa['preferredDuringSchedulingIgnoredDuringExecution']).forEach((raw, i) => {
      const pp = `${p}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
      errs.push(...weight(obj(raw)['weight'], `${pp}.weight`), ...podAffinityTerm(obj(raw)['podAffinityTerm'], `${pp}.podAffinityTerm`));
    });
  }
  return errs;
}

const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];

/** validateTopologySpreadConstraints */
export function validateTopologySpreadConstraints(constraints: unknown, path: string): FieldError[] {
  const list = arr(constraints).map(obj);
  const errs: FieldError[] = [];
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    const maxSkew = typeof c['maxSkew'] === 'number' ? c['maxSkew'] : 0;
    if (maxSkew <= 0) errs.push(field.invalid(`${p}.maxSkew`, maxSkew, 'must be greater than zero'));
    const tk = str(c['topologyKey']);
    if (!tk) errs.push(field.required(`${p}.topologyKey`, 'can not be empty'));
    const action = str(c['whenUnsatisfiable']);
    if (!SCHEDULE_ACTIONS.includes(action)) errs.push(field.notSupported(`${p}.whenUnsatisfiable`, action, SCHEDULE_ACTIONS));
    if (list.slice(i + 1).some((o) => str(o['topologyKey']) === tk && str(o['whenUnsatisfiable']) === action)) {
      errs.push(field.duplicate(`${p}.{topologyKey, whenUnsatisfiable}`, `{${tk}, ${action}}`));
    }
    const md = c['minDomains'];
    if (isSet(md)) {
      if (Number(md) <= 0) errs.push(field.invalid(`${p}.minDomains`, md, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(field.invalid(`${p}.minDomains`, md, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (isSet(c[k]) && c[k] !== 'Honor' && c[k] !== 'Ignore') errs.push(field.notSupported(`${p}.${k}`, c[k], ['Honor', 'Ignore']));
    }
    const mlk = arr(c['matchLabelKeys']).map(str);
    if (mlk.length > 0) {
      const sel = obj(c['labelSelector']);
      const selKeys = new Set([...Object.keys(obj(sel['matchLabels'])), ...arr(sel['matchExpressions']).map((e) => str(obj(e)['key']))]);
      if (!isSet(c['labelSelector'])) errs.push(field.forbidden(`${p}.matchLabelKeys`, 'must not be specified when labelSelector is not set'));
      mlk.forEach((k, j) => {
        errs.push(...validateLabelName(k, `${p}.matchLabelKeys[${j}]`));
        if (selKeys.has(k)) errs.push(field.invalid(`${p}.matchLabelKeys[${j}]`, k, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errs.push(...validateLabelSelector(c['labelSelector'], `${p}.labelSelector`));
  });
  return errs;
}
