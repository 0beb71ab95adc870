/**
 * A first slice of kube's pod validation (pkg/apis/core/validation): the mistakes people make by hand —
 * no containers, a container without name or image, duplicate container names — with kube's field paths
 * and wording. The full validation comes with the schema catalog.
 */
import type { FieldError } from '../../../endpoints/status.ts';
import { field } from '../../../endpoints/status.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);

function validateContainers(list: unknown, path: string, required: boolean, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const items = Array.isArray(list) ? list : [];
  if (required && items.length === 0) errs.push(field.required(path));
  items.forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!isObj(c)) return;
    const name = c['name'];
    if (typeof name !== 'string' || name === '') errs.push(field.required(`${p}.name`));
    else if (seen.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else seen.add(name);
    if (typeof c['image'] !== 'string' || c['image'] === '') errs.push(field.required(`${p}.image`));
  });
  return errs;
}

/** Validates a PodSpec found at `path` (`spec`, `spec.template.spec`, …). */
export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  if (!isObj(spec)) return [field.required(`${path}.containers`)];
  const seen = new Set<string>();
  return [
    ...validateContainers(spec['initContainers'], `${path}.initContainers`, false, seen),
    ...validateContainers(spec['containers'], `${path}.containers`, true, seen),
  ];
}

/** Job pods must not restart in place: kube allows OnFailure and Never only. */
export function validateJobTemplate(spec: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = isObj(spec) && isObj(spec['template']) ? spec['template']['spec'] : undefined;
  const restart = isObj(podSpec) ? podSpec['restartPolicy'] : undefined;
  if (restart !== 'OnFailure' && restart !== 'Never') {
    errs.push(restart === undefined || restart === ''
      ? field.required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"')
      : field.notSupported(`${path}.template.spec.restartPolicy`, restart, ['OnFailure', 'Never']));
  }
  return [...errs, ...validatePodSpec(podSpec, `${path}.template.spec`)];
}
