/**
 * Nodes (pkg/apis/core/validation/validation.go: ValidateNode, ValidateNodeUpdate, validateNodeTaints,
 * validateTaintEffect, ValidateNodeResources). Kube validates spec taints under the path `metadata.taints`
 * (its field path starts from "metadata"); clients see that path, so we keep it.
 * spec.configSource is dropped by the strategy in v1.33 (DynamicKubeletConfig is gone), so it is not checked.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { CIDR_ERROR, isValidLabelValue, parseCIDR } from '../../machinery/validation/names.ts';
import { tryParseQuantity, formatQuantity } from '../../machinery/quantity.ts';
import { goDuplicate, goQuote, goStrings, goInvalid } from './go-render.ts';
import { type J, IS_NEGATIVE, RenderedFieldError, arr, isSet, obj, str, validateLabelName } from './util.ts';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const CIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid';
const PROVIDER_CHANGE = 'node updates may not change providerID except from "" to valid';

/** `%#v` of a core.Taint (TimeAdded is a *metav1.Time). */
function goTaint(t: J): string {
  const added = isSet(t['timeAdded']) ? '(*v1.Time)(0xc000000000)' : '(*v1.Time)(nil)';
  return `core.Taint{Key:${goQuote(str(t['key']))}, Value:${goQuote(str(t['value']))}, Effect:${goQuote(str(t['effect']))}, TimeAdded:${added}}`;
}

/** validateTaintEffect (allowEmpty=false). */
export function validateTaintEffect(effect: unknown, path: string): FieldError[] {
  const e = str(effect);
  if (!e) return [field.required(path)];
  return TAINT_EFFECTS.includes(e) ? [] : [field.notSupported(path, e, TAINT_EFFECTS)];
}

/** validateNodeTaints: key a label name, value a label value, effect enum, unique by (key, effect). */
export function validateNodeTaints(taints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arr(taints).forEach((raw, i) => {
    const t = obj(raw);
    const p = `${path}[${i}]`;
    const key = str(t['key']);
    errs.push(...validateLabelName(key, `${p}.key`));
    const vm = isValidLabelValue(str(t['value']));
    if (vm.length) errs.push(field.invalid(`${p}.value`, str(t['value']), vm.join(';')));
    errs.push(...validateTaintEffect(t['effect'], `${p}.effect`));
    const id = `${str(t['effect'])}\u0000${key}`;
    if (seen.has(id)) errs.push(new RenderedFieldError('FieldValueDuplicate', p, goTaint(t), 'taints must be unique by key and effect pair'));
    seen.add(id);
  });
  return errs;
}

/** ValidateNodeResources: capacity/allocatable quantities, at most one pre-allocated hugepage size. */
function validateNodeResources(node: J): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['capacity', 'allocatable']) {
    const huge = new Set<string>();
    for (const [name, raw] of Object.entries(obj(obj(node['status'])[k]))) {
      const p = `status.${k}.${name}`;
      const q = tryParseQuantity(raw);
      if (typeof q === 'string') { errs.push(field.invalid(p, raw ?? null, q)); continue; }
      if (q.nanos < 0n) errs.push(field.invalid(p, formatQuantity(q), IS_NEGATIVE));
      if (name.startsWith('hugepages-') && q.nanos >= 1_000_000_000n) huge.add(name);
      if (huge.size > 1) errs.push(field.invalid(p, formatQuantity(q), 'may not have pre-allocated hugepages for multiple page sizes'));
    }
  }
  return errs;
}

export function validateNode(node: J): FieldError[] {
  const spec = obj(node['spec']);
  const errs: FieldError[] = [];
  if (arr(spec['taints']).length > 0) errs.push(...validateNodeTaints(spec['taints'], 'metadata.taints'));
  errs.push(...validateNodeResources(node));
  const cidrs = arr(spec['podCIDRs']).map(str);
  if (cidrs.length > 0) {
    const parsed = cidrs.map((c, i) => {
      const p = parseCIDR(c);
      if (!p) errs.push(field.invalid(`spec.podCIDRs[${i}]`, c, CIDR_ERROR));
      return p;
    });
    if (cidrs.length > 1) {
      const dual = cidrs.length === 2 && parsed.every(Boolean) && parsed[0]!.family !== parsed[1]!.family;
      if (!dual) errs.push(goInvalid('spec.podCIDRs', goStrings(cidrs), 'may specify no more than one CIDR for each IP family'));
    }
  }
  return errs;
}

/** `%#v` of a core.NodeAddress, for duplicate addresses. */
const goAddress = (a: J): string => `core.NodeAddress{Type:${goQuote(str(a['type']))}, Address:${goQuote(str(a['address']))}}`;

/** The strategy runs ValidateNode then ValidateNodeUpdate, so some causes repeat, as in kube. */
export function validateNodeUpdate(node: J, old: J): FieldError[] {
  return [...validateNode(node), ...validateNodeUpdateRules(node, old)];
}

/** ValidateNodeUpdate alone: what the /status strategy runs. */
export function validateNodeUpdateRules(node: J, old: J): FieldError[] {
  const spec = obj(node['spec']);
  const oldSpec = obj(old['spec']);
  const errs = validateNodeResources(node);
  const seen = new Set<string>();
  arr(obj(node['status'])['addresses']).forEach((raw, i) => {
    const a = obj(raw);
    const id = `${str(a['type'])}\u0000${str(a['address'])}`;
    if (seen.has(id)) errs.push(goDuplicate(`status.addresses[${i}]`, goAddress(a)));
    seen.add(id);
  });
  const oldCidrs = arr(oldSpec['podCIDRs']).map(str);
  const cidrs = arr(spec['podCIDRs']).map(str);
  if (oldCidrs.length > 0) {
    if (oldCidrs.length !== cidrs.length) errs.push(field.forbidden('spec.podCIDRs', CIDR_CHANGE));
    else oldCidrs.forEach((c, i) => { if (c !== cidrs[i]) errs.push(field.forbidden('spec.podCIDRs', CIDR_CHANGE)); });
  }
  const oldProvider = str(oldSpec['providerID']);
  if (oldProvider && oldProvider !== str(spec['providerID'])) errs.push(field.forbidden('spec.providerID', PROVIDER_CHANGE));
  if (arr(spec['taints']).length > 0) errs.push(...validateNodeTaints(spec['taints'], 'metadata.taints'));
  if (str(spec['externalID']) !== str(oldSpec['externalID'])) errs.push(field.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
