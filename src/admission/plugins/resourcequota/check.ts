/**
 * One admission request against the quotas of its namespace (kube's CheckRequest): which quotas apply, whether
 * the object states what they require, what it would add to each (on update only the growth over the old
 * object), and whether that stays within every hard limit. Returns the quotas as they would be after the
 * request; throws the 403 kube answers with otherwise.
 */
import { errors } from '../../../machinery/errors.ts';
import type { KObject } from '../../../machinery/objects.ts';
import type { AdmissionAttributes } from '../../../registry/admission.ts';
import { admissionForbidden } from '../../errors.ts';
import type { LimitedResource } from './config.ts';
import { evaluatorFor, matchingScopes, quotaMatches, quotaScopeSelectors, uncoveredScopes, type ScopeSelector } from './evaluators.ts';
import {
  add, lessThanOrEqual, mask, negatives, prettyPrint, prettyPrintNames, removeZeros, subtractNonNegative, type ResourceList,
} from './resource-list.ts';

/** A quota as admission reads and changes it. */
export interface QuotaState {
  readonly obj: KObject;
  readonly name: string;
  readonly hard: ResourceList;
  readonly used: ResourceList;
}

/** limitedByDefault: the consumed names (positive usage) that a limited resource's matchContains names. */
function limitedByDefault(usage: ResourceList, limited: readonly LimitedResource[]): string[] {
  const out: string[] = [];
  for (const l of limited) {
    for (const [k, v] of usage) if (v.nanos > 0n && l.matchContains.some((m) => k.includes(m))) out.push(k);
  }
  return out;
}

/** Go's %v of a []ScopedResourceSelectorRequirement. */
function formatScopes(scopes: readonly ScopeSelector[]): string {
  return `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`).join(' ')}]`;
}

export function checkRequest(quotas: readonly QuotaState[], a: AdmissionAttributes, limited: readonly LimitedResource[], now: Date): readonly QuotaState[] {
  const ev = evaluatorFor(a.resource.group, a.resource.resource);
  if (!ev.handles(a)) return quotas;
  const input = a.object;
  if (!input) return quotas;

  const limitedScopes = limited.flatMap((l) => matchingScopes(ev, input, l.matchScopes));
  const limitedHere = limited.filter((l) => l.apiGroup === a.resource.group && l.resource === a.resource.resource);
  const limitedNames = limitedHere.length ? limitedByDefault(ev.usage(input, now), limitedHere) : [];

  const interesting: number[] = [];
  const restricted = new Set<string>();
  const restrictedScopes: ScopeSelector[] = [];
  quotas.forEach((q, i) => {
    restrictedScopes.push(...matchingScopes(ev, input, quotaScopeSelectors(q.obj)));
    if (!quotaMatches(ev, q.obj, input)) return;
    const names = ev.matchingResources([...q.hard.keys()]);
    const missing = ev.constraints(names, input);
    if (missing) throw admissionForbidden(a, `failed quota: ${q.name}: ${missing}`);
    if (!names.every((n) => !q.hard.has(n) || q.used.has(n))) {
      throw admissionForbidden(a, `status unknown for quota: ${q.name}, resources: ${prettyPrintNames(names)}`);
    }
    interesting.push(i);
    for (const n of names) restricted.add(n);
  });

  const inputUsage = ev.usage(input, now);
  const negative = negatives(inputUsage);
  if (negative.length) throw admissionForbidden(a, `quota usage is negative for resource(s): ${prettyPrintNames(negative)}`);

  const deltas = new Map<number, ResourceList>(interesting.map((i) => [i, inputUsage]));
  let deltaWithoutQuota: ResourceList | undefined = a.operation === 'CREATE' && interesting.length === 0 ? inputUsage : undefined;
  if (a.operation === 'UPDATE') {
    const prev = a.oldObject;
    if (!prev) throw admissionForbidden(a, 'unable to get previous usage since prior version of object was not found');
    if (prev.metadata.resourceVersion) {
      const delta = subtractNonNegative(inputUsage, ev.usage(prev, now));
      if (interesting.length === 0) deltaWithoutQuota = delta;
      for (const i of interesting) if (quotaMatches(ev, quotas[i]!.obj, prev)) deltas.set(i, delta);
    } else if (interesting.length === 0) {
      deltaWithoutQuota = inputUsage;
    }
  }
  for (const [i, d] of deltas) {
    const nz = removeZeros(d);
    if (nz.size) deltas.set(i, nz);
    else deltas.delete(i);
  }
  if (interesting.length) {
    if (deltas.size === 0) return quotas;
  } else if (removeZeros(deltaWithoutQuota ?? new Map()).size === 0) {
    return quotas;
  }

  const uncovered = [...new Set(limitedNames.filter((n) => !restricted.has(n)))].sort();
  if (uncovered.length) throw admissionForbidden(a, `insufficient quota to consume: ${uncovered.join(',')}`);
  const uncoveredSel = uncoveredScopes(ev, limitedScopes, restrictedScopes);
  if (uncoveredSel.length) throw errors.internal(`insufficient quota to match these scopes: ${formatScopes(uncoveredSel)}`);
  if (interesting.length === 0) return quotas;

  const out = quotas.slice();
  for (const i of interesting) {
    const delta = deltas.get(i);
    if (!delta) continue;
    const q = out[i]!;
    const requested = mask(delta, q.hard.keys());
    const newUsage = add(q.used, requested);
    if (a.subresource !== 'status') {
      const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, requested.keys()), q.hard);
      if (!allowed) {
        throw admissionForbidden(a, `exceeded quota: ${q.name}, requested: ${prettyPrint(mask(requested, exceeded))}, `
          + `used: ${prettyPrint(mask(q.used, exceeded))}, limited: ${prettyPrint(mask(q.hard, exceeded))}`);
      }
    }
    out[i] = { ...q, used: newUsage };
  }
  return out;
}
