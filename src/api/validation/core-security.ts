/**
 * Security contexts (pkg/apis/core/validation/validation.go: validatePodSpecSecurityContext, validateSysctls,
 * validateFSGroupChangePolicy, validateSeccompProfileField, ValidateSecurityContext). Kube validates the
 * internal PodSecurityContext, so `shareProcessNamespace` is reported under `securityContext`.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { inclusiveRangeError } from '../../machinery/validation/names.ts';
import { type J, arr, isSet, obj, str, validateLocalDescendingPath } from './util.ts';

const MAX_ID = 2147483647;
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_FMT = `(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}`;
const SYSCTL_RE = new RegExp(`^${SYSCTL_FMT}$`);
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

function id(v: unknown, path: string): FieldError[] {
  return typeof v === 'number' && (v < 0 || v > MAX_ID) ? [field.invalid(path, v, inclusiveRangeError(0, MAX_ID))] : [];
}

/** validateSeccompProfileField */
export function validateSeccompProfile(sp: unknown, path: string): FieldError[] {
  if (!isSet(sp)) return [];
  const p = obj(sp);
  const errs: FieldError[] = [];
  const type = str(p['type']);
  if (!type) errs.push(field.required(`${path}.type`));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(field.notSupported(`${path}.type`, type, SECCOMP_TYPES));
  if (type === 'Localhost') {
    if (!isSet(p['localhostProfile'])) errs.push(field.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...validateLocalDescendingPath(str(p['localhostProfile']), `${path}.localhostProfile`));
  } else if (isSet(p['localhostProfile'])) {
    errs.push(field.invalid(`${path}.localhostProfile`, p, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** validatePodSpecSecurityContext (the parts that do not depend on the node OS). */
export function validatePodSecurityContext(spec: J, path: string): FieldError[] {
  if (!isSet(spec['securityContext'])) return [];
  const sc = obj(spec['securityContext']);
  const errs = [...id(sc['fsGroup'], `${path}.fsGroup`), ...id(sc['runAsUser'], `${path}.runAsUser`), ...id(sc['runAsGroup'], `${path}.runAsGroup`)];
  arr(sc['supplementalGroups']).forEach((g, i) => errs.push(...id(g, `${path}.supplementalGroups[${i}]`)));
  if (spec['hostPID'] === true && spec['shareProcessNamespace'] === true) {
    errs.push(field.invalid(`${path}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  const names = new Set<string>();
  arr(sc['sysctls']).forEach((raw, i) => {
    const name = str(obj(raw)['name']);
    const p = `${path}.sysctls[${i}].name`;
    if (!name) errs.push(field.required(p));
    else if (name.length > 253 || !SYSCTL_RE.test(name)) errs.push(field.invalid(p, name, `must have at most 253 characters and match regex ${SYSCTL_FMT}`));
    else if (names.has(name)) errs.push(field.duplicate(p, name));
    names.add(name);
  });
  const fgcp = sc['fsGroupChangePolicy'];
  if (isSet(fgcp) && fgcp !== 'OnRootMismatch' && fgcp !== 'Always') errs.push(field.notSupported(`${path}.fsGroupChangePolicy`, fgcp, ['Always', 'OnRootMismatch']));
  errs.push(...validateSeccompProfile(sc['seccompProfile'], `${path}.seccompProfile`));
  const sgp = sc['supplementalGroupsPolicy'];
  if (isSet(sgp) && sgp !== 'Merge' && sgp !== 'Strict') errs.push(field.notSupported(`${path}.supplementalGroupsPolicy`, sgp, ['Merge', 'Strict']));
  return errs;
}
