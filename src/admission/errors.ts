/** kube's admission.NewForbidden: 403 naming the resource and the object (its generateName or `Unknown` before naming). */
import { errors, type StatusError } from '../machinery/errors.ts';
import type { AdmissionAttributes } from './types.ts';

export function admissionForbidden(a: AdmissionAttributes, message: string): StatusError {
  const meta = a.object?.metadata;
  const name = a.name || meta?.name || meta?.generateName || 'Unknown';
  const r = a.resource;
  return errors.forbidden({ kind: r.resource, group: r.group, name }, message);
}
