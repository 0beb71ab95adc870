/**
 * Reset fields (a strategy's GetResetFields): parts of the object a write through an endpoint cannot change, so
 * its writer neither owns nor conflicts on them. kube's strategies follow one pattern for kinds with a status:
 * the main resource resets `status`; the status subresource resets everything but `status` (spec, and the
 * metadata a status writer may not touch); kinds without a status reset nothing.
 */
import { FieldSet } from '../fieldpath/set.ts';

const MAIN = FieldSet.fromFieldsV1({ 'f:status': {} });
const STATUS = FieldSet.fromFieldsV1({ 'f:spec': {}, 'f:metadata': { 'f:labels': {}, 'f:annotations': {}, 'f:finalizers': {}, 'f:ownerReferences': {} } });
const NONE = new FieldSet();

/** The usual reset fields for a write through `subresource` ('' for the main resource) of a kind with/without status. */
export function resetFields(o: { subresource?: string; hasStatus: boolean }): FieldSet {
  if (!o.hasStatus) return NONE;
  if (!o.subresource) return MAIN;
  return o.subresource === 'status' ? STATUS : NONE;
}
