/**
 * apps/v1 workloads (pkg/apis/apps/validation/validation.go: ValidateDeploymentSpec, ValidateReplicaSetSpec,
 * ValidateStatefulSetSpec, ValidateDaemonSetSpec, ValidatePodTemplateSpecForReplicaSet, ValidateDeploymentStrategy,
 * ValidateRollingUpdateDeployment, ValidateRollingUpdateDaemonSet, ValidatePositiveIntOrPercent,
 * IsNotMoreThan100Percent, ValidateStatefulSetUpdate) and the strategies' immutable selector
 * (pkg/registry/apps/*\/strategy.go ValidateUpdate).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isValidPercent } from '../../machinery/validation/names.ts';
import { validateDeletionCost, validatePodTemplateSpec } from './core-pod.ts';
import { validateAnnotations } from './object-meta.ts';
import { GO_NULL, goImmutable, goIntOrString, goInvalid, goLabelSelector, goMap, goNotSupported, goPtr, goQuote } from './go-render.ts';
import {
  type J, immutable, intOrString, isSet, nonNegative, obj, selectorIsEmpty, selectorMatches, selectorParses,
  semanticEqual, str, strMap, validateLabelSelector, validateLabels,
} from './util.ts';

/** ValidatePositiveIntOrPercent */
export function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  const x = intOrString(v);
  if (x.type === 'string') return isValidPercent(x.str).map((m) => goInvalid(path, goIntOrString(x.str), m));
  if (x.type === 'int') return nonNegative(x.int, path);
  return [goInvalid(path, goIntOrString(v), "must be an integer or percentage (e.g '5%')")];
}

/** getIntOrPercentValue: the number of a percent string, or the integer. */
function intOrPercentValue(v: unknown): number {
  const x = intOrString(v);
  if (x.type === 'int') return x.int;
  if (x.type === 'string' && /^[0-9]+%$/.test(x.str)) return Number(x.str.slice(0, -1));
  return 0;
}

/** IsNotMoreThan100Percent */
export function notMoreThan100Percent(v: unknown, path: string): FieldError[] {
  const x = intOrString(v);
  if (x.type !== 'string' || !/^[0-9]+%$/.test(x.str)) return [];
  return intOrPercentValue(v) > 100 ? [goInvalid(path, goIntOrString(x.str), 'must not be greater than 100%')] : [];
}

/** ValidatePodTemplateSpecForReplicaSet (and the StatefulSet/DaemonSet variants): labels match, restartPolicy Always. */
function templateForController(spec: J, kindWord: string, checkMatch: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!isSet(spec['template'])) return [field.required('spec.template')];
  const template = obj(spec['template']);
  const labels = strMap(obj(template['metadata'])['labels']);
  const selector = spec['selector'];
  // A nil selector converts to labels.Nothing, which is not Empty and matches nothing.
  if (checkMatch && (!isSet(selector) || !selectorIsEmpty(selector)) && !selectorMatches(selector, labels)) {
    errs.push(goInvalid('spec.template.metadata.labels', goMap(obj(template['metadata'])['labels']), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const tspec = obj(template['spec']);
  const rp = str(tspec['restartPolicy']) || 'Always';
  if (rp !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', rp, ['Always']));
  if (isSet(tspec['activeDeadlineSeconds'])) {
    errs.push(field.forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${kindWord} is not Supported`));
  }
  return errs;
}

/**
 * ValidatePodTemplateSpecForStatefulSet as of v1.33: the selector matches the template labels, the template's
 * labels and annotations are valid (at `spec.template.labels` / `.annotations`). The pod spec itself is not validated (its volumeMounts may name claim
 * templates); kube started validating it, with the claim templates as volumes, in v1.34.
 */
function statefulSetTemplateChecks(spec: J): FieldError[] {
  const errs: FieldError[] = [];
  const template = obj(spec['template']);
  const meta = obj(template['metadata']);
  const selector = spec['selector'];
  if ((!isSet(selector) || !selectorIsEmpty(selector)) && !selectorMatches(selector, strMap(meta['labels']))) {
    errs.push(goInvalid('spec.template.metadata.labels', goMap(meta['labels']), '`selector` does not match template `labels`'));
  }
  errs.push(...validateLabels(meta['labels'], 'spec.template.labels'));
  errs.push(...validateAnnotations(meta['annotations'], 'spec.template.annotations'));
  errs.push(...validateDeletionCost(meta['annotations'], 'spec.template.annotations'));
  return errs;
}

function selectorChecks(spec: J, kindWord: string): FieldError[] {
  const selector = spec['selector'];
  if (!isSet(selector)) return [field.required('spec.selector')];
  const errs = validateLabelSelector(selector, 'spec.selector');
  if (selectorIsEmpty(selector)) errs.push(goInvalid('spec.selector', goLabelSelector(selector), `empty selector is invalid for ${kindWord}`));
  return errs;
}

/**
 * The internal strategy struct as kube's %#v prints it; a set RollingUpdate pointer prints as an address,
 * which cannot be reproduced (a placeholder address stands in).
 */
function renderStrategy(s: J, goType: string, ruType: string): string {
  const ru = isSet(s['rollingUpdate']) ? `(*apps.${ruType})(0xc000000000)` : `(*apps.${ruType})(nil)`;
  return `apps.${goType}{Type:${goQuote(str(s['type']))}, RollingUpdate:${ru}}`;
}

function validateDeploymentStrategy(strategy: unknown): FieldError[] {
  const s = obj(strategy);
  const type = str(s['type']) || 'RollingUpdate';
  const p = 'spec.strategy';
  if (type === 'Recreate') {
    return isSet(s['rollingUpdate']) ? [field.forbidden(`${p}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type === 'RollingUpdate') {
    if (!isSet(s['rollingUpdate'])) return [];
    const ru = obj(s['rollingUpdate']);
    // Defaults (25%) apply to absent members.
    const mu = ru['maxUnavailable'] ?? '25%';
    const ms = ru['maxSurge'] ?? '25%';
    const errs = [
      ...validatePositiveIntOrPercent(mu, `${p}.rollingUpdate.maxUnavailable`),
      ...validatePositiveIntOrPercent(ms, `${p}.rollingUpdate.maxSurge`),
    ];
    if (intOrPercentValue(mu) === 0 && intOrPercentValue(ms) === 0) {
      errs.push(goInvalid(`${p}.rollingUpdate.maxUnavailable`, goIntOrString(mu), 'may not be 0 when `maxSurge` is 0'));
    }
    errs.push(...notMoreThan100Percent(mu, `${p}.rollingUpdate.maxUnavailable`));
    return errs;
  }
  return [goNotSupported(p, renderStrategy(s, 'DeploymentStrategy', 'RollingUpdateDeployment'), ['Recreate', 'RollingUpdate'])];
}

/** ValidateDeploymentSpec */
export function validateDeployment(d: J): FieldError[] {
  const spec = obj(d['spec']);
  const errs = [...nonNegative(spec['replicas'], 'spec.replicas'), ...selectorChecks(spec, 'deployment')];
  if (isSet(spec['selector']) && !selectorParses(spec['selector'])) errs.push(goInvalid('spec.selector', goLabelSelector(spec['selector']), 'invalid label selector'));
  else errs.push(...templateForController(spec, 'ReplicaSet', true));
  errs.push(...validateDeploymentStrategy(spec['strategy']));
  errs.push(...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec['revisionHistoryLimit'], 'spec.revisionHistoryLimit'));
  const pds = spec['progressDeadlineSeconds'];
  if (typeof pds === 'number') {
    errs.push(...nonNegative(pds, 'spec.progressDeadlineSeconds'));
    const mrs = typeof spec['minReadySeconds'] === 'number' ? spec['minReadySeconds'] : 0;
    if (pds <= mrs) errs.push(field.invalid('spec.progressDeadlineSeconds', pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** ValidateReplicaSetSpec */
export function validateReplicaSet(rs: J): FieldError[] {
  const spec = obj(rs['spec']);
  const errs = [
    ...nonNegative(spec['replicas'], 'spec.replicas'),
    ...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'),
    ...selectorChecks(spec, 'deployment'),
  ];
  if (isSet(spec['selector']) && !selectorParses(spec['selector'])) errs.push(goInvalid('spec.selector', goLabelSelector(spec['selector']), 'invalid label selector'));
  else errs.push(...templateForController(spec, 'ReplicaSet', true));
  return errs;
}

/** ValidateStatefulSetSpec */
export function validateStatefulSet(ss: J): FieldError[] {
  const spec = obj(ss['spec']);
  const errs: FieldError[] = [];
  const pmp = str(spec['podManagementPolicy']);
  if (pmp && pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(field.invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us = obj(spec['updateStrategy']);
  const usType = str(us['type']);
  if (usType === 'OnDelete') {
    if (isSet(us['rollingUpdate'])) {
      const ru = obj(us['rollingUpdate']);
      const rendered = `apps.RollingUpdateStatefulSetStrategy{Partition:${goPtr(ru['partition'], 'int32')}, MaxUnavailable:${goPtr(ru['maxUnavailable'], 'intstr.IntOrString')}}`;
      errs.push(goInvalid('spec.updateStrategy.rollingUpdate', rendered, "only allowed for updateStrategy 'RollingUpdate'"));
    }
  } else if (usType === 'RollingUpdate') {
    const ru = obj(us['rollingUpdate']);
    if (isSet(ru['partition'])) errs.push(...nonNegative(ru['partition'], 'spec.updateStrategy.rollingUpdate.partition'));
    if (isSet(ru['maxUnavailable'])) {
      const p = 'spec.updateStrategy.rollingUpdate.maxUnavailable';
      errs.push(...validatePositiveIntOrPercent(ru['maxUnavailable'], p));
      if (intOrPercentValue(ru['maxUnavailable']) === 0) errs.push(goInvalid(p, goIntOrString(ru['maxUnavailable']), 'cannot be 0'));
      errs.push(...notMoreThan100Percent(ru['maxUnavailable'], p));
    }
  } else if (usType) {
    errs.push(goInvalid('spec.updateStrategy', renderStrategy(us, 'StatefulSetUpdateStrategy', 'RollingUpdateStatefulSetStrategy'), "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const policy = obj(spec['persistentVolumeClaimRetentionPolicy']);
  for (const k of ['whenDeleted', 'whenScaled']) {
    const v = policy[k];
    if (isSet(v) && v !== 'Retain' && v !== 'Delete') {
      errs.push(field.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${k}`, v, ['Retain', 'Delete']));
    }
  }
  errs.push(...nonNegative(spec['replicas'], 'spec.replicas'));
  errs.push(...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'));
  if (isSet(spec['ordinals'])) errs.push(...nonNegative(obj(spec['ordinals'])['start'], 'spec.ordinals.start'));
  errs.push(...selectorChecks(spec, 'statefulset'));
  if (isSet(spec['selector']) && !selectorParses(spec['selector'])) errs.push(goInvalid('spec.selector', goLabelSelector(spec['selector']), ''));
  else errs.push(...statefulSetTemplateChecks(spec));
  // Checked whether or not the selector parses.
  const tspec = obj(obj(spec['template'])['spec']);
  const rp = str(tspec['restartPolicy']) || 'Always';
  if (rp !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', rp, ['Always']));
  if (isSet(tspec['activeDeadlineSeconds'])) errs.push(field.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

/** ValidateDaemonSetSpec */
export function validateDaemonSet(ds: J): FieldError[] {
  const spec = obj(ds['spec']);
  const errs: FieldError[] = [];
  const selector = spec['selector'];
  // No Required check here (unlike Deployments): a missing selector matches nothing and fails the label match.
  errs.push(...validateLabelSelector(selector, 'spec.selector'));
  const labels = strMap(obj(obj(spec['template'])['metadata'])['labels']);
  if (selectorParses(selector) && !selectorMatches(selector, labels)) {
    errs.push(goInvalid('spec.template.metadata.labels', goMap(obj(obj(spec['template'])['metadata'])['labels']), '`selector` does not match template `labels`'));
  }
  if (isSet(selector) && selectorIsEmpty(selector)) errs.push(goInvalid('spec.selector', goLabelSelector(selector), 'empty selector is invalid for daemonset'));
  errs.push(...templateForController(spec, 'DaemonSet', false));
  errs.push(...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec['templateGeneration'], 'spec.templateGeneration'));
  const us = obj(spec['updateStrategy']);
  const type = str(us['type']) || 'RollingUpdate';
  const p = 'spec.updateStrategy';
  if (type === 'RollingUpdate') {
    if (isSet(spec['updateStrategy']) && !isSet(us['rollingUpdate'])) {
      errs.push(field.required(`${p}.rollingUpdate`));
    } else if (isSet(us['rollingUpdate'])) {
      const ru = obj(us['rollingUpdate']);
      const mu = ru['maxUnavailable'] ?? 1;
      errs.push(...validatePositiveIntOrPercent(mu, `${p}.rollingUpdate.maxUnavailable`));
      if (isSet(ru['maxSurge'])) errs.push(...validatePositiveIntOrPercent(ru['maxSurge'], `${p}.rollingUpdate.maxSurge`));
      const hasUnavailable = intOrPercentValue(mu) !== 0;
      const hasSurge = isSet(ru['maxSurge']) && intOrPercentValue(ru['maxSurge']) !== 0;
      if (hasUnavailable && hasSurge) errs.push(goInvalid(`${p}.rollingUpdate.maxSurge`, goIntOrString(ru['maxSurge']), 'may not be set when maxUnavailable is non-zero'));
      if (!hasUnavailable && !hasSurge) errs.push(field.required(`${p}.rollingUpdate.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      errs.push(...notMoreThan100Percent(mu, `${p}.rollingUpdate.maxUnavailable`));
      if (isSet(ru['maxSurge'])) errs.push(...notMoreThan100Percent(ru['maxSurge'], `${p}.rollingUpdate.maxSurge`));
    }
  } else if (type !== 'OnDelete') {
    errs.push(goNotSupported(p, renderStrategy(us, 'DaemonSetUpdateStrategy', 'RollingUpdateDaemonSet'), ['RollingUpdate', 'OnDelete']));
  }
  errs.push(...nonNegative(spec['revisionHistoryLimit'], 'spec.revisionHistoryLimit'));
  return errs;
}

/** Deployments, ReplicaSets and DaemonSets in apps/v1: the selector may not change. */
export function immutableSelector(o: J, old: J): FieldError[] {
  const next = obj(o['spec'])['selector'];
  const changed = !semanticEqual(next, obj(old['spec'])['selector']);
  return goImmutable(changed, 'spec.selector', isSet(next) ? goLabelSelector(next) : GO_NULL);
}

const STS_MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

/** ValidateStatefulSetUpdate: only some spec fields may change. */
export function validateStatefulSetUpdate(ss: J, old: J): FieldError[] {
  const a = { ...obj(ss['spec']) };
  const b = { ...obj(old['spec']) };
  for (const k of STS_MUTABLE) {
    delete a[k];
    delete b[k];
  }
  const errs = semanticEqual(a, b) ? [] : [field.forbidden('spec',
    "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
  return [...errs, ...validateStatefulSet(ss)];
}

/** ValidateControllerRevision: data required-ish, revision non-negative, immutable data on update. */
export function validateControllerRevision(cr: J): FieldError[] {
  return nonNegative(cr['revision'], 'revision');
}

export function validateControllerRevisionUpdate(cr: J, old: J): FieldError[] {
  return [...validateControllerRevision(cr), ...immutable(cr['data'], old['data'], 'data')];
}
