/**
 * scheduling.k8s.io/v1 PriorityClass (pkg/apis/scheduling/validation/validation.go: ValidatePriorityClass,
 * ValidatePriorityClassUpdate; pkg/apis/scheduling: IsKnownSystemPriorityClass).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { type J, immutable, isSet, obj, str } from './util.ts';

export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_CRITICAL = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
const SYSTEM_CLASSES: Record<string, number> = { 'system-node-critical': SYSTEM_CRITICAL + 1000, 'system-cluster-critical': SYSTEM_CRITICAL };

function knownSystemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const want = SYSTEM_CLASSES[name];
  if (want === undefined) return `${name} is not a known system priority class`;
  if (want !== value) return `value of ${name} PriorityClass must be ${want}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export function validatePriorityClass(pc: J): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(obj(pc['metadata'])['name']);
  const value = typeof pc['value'] === 'number' ? pc['value'] : 0;
  if (name.startsWith('system-')) {
    const e = knownSystemClassError(name, value, pc['globalDefault'] === true);
    if (e) errs.push(field.forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${e}`));
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(field.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const pp = pc['preemptionPolicy'];
  if (isSet(pp) && pp !== 'PreemptLowerPriority' && pp !== 'Never') {
    errs.push(pp === '' ? field.required('preemptionPolicy') : field.notSupported('preemptionPolicy', pp, ['PreemptLowerPriority', 'Never']));
  }
  return errs;
}

/** Only the update rules: kube's strategy does not re-run the create checks on update. */
export function validatePriorityClassUpdate(pc: J, old: J): FieldError[] {
  const errs: FieldError[] = [];
  if (pc['value'] !== old['value']) errs.push(field.forbidden('value', 'may not be changed in an update.'));
  errs.push(...immutable(pc['preemptionPolicy'], old['preemptionPolicy'], 'preemptionPolicy'));
  return errs;
}
