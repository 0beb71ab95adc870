/**
 * Resource lists as quota reasons about them (kube's apiserver/pkg/quota/v1 resources helpers): a map from
 * resource name to quantity, read from and written to the `{name: "quantity"}` objects of ResourceQuota status.
 * Arithmetic keeps kube's formats (a sum takes the format of its first non-zero operand), so printed values
 * match what kube prints.
 */
import { addQuantity, compareQuantity, formatQuantity, sign, subtractQuantity, tryParseQuantity, type Quantity } from '../../../machinery/quantity.ts';

export type ResourceList = Map<string, Quantity>;

const ZERO: Quantity = Object.freeze({ nanos: 0n, format: 'DecimalSI' });

/** Parses `{ name: "1Gi" }`; entries that do not parse are left out. */
export function parseResourceList(raw: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!raw || typeof raw !== 'object') return out;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const q = tryParseQuantity(v);
    if (typeof q !== 'string') out.set(k, q);
  }
  return out;
}

/** `{ name: "1Gi" }` in name order. */
export function formatResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = formatQuantity(list.get(k)!);
  return out;
}

export function zero(): Quantity {
  return ZERO;
}

/** quota.Add */
export function add(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const o = b.get(k);
    out.set(k, o ? addQuantity(v, o) : v);
  }
  for (const [k, v] of b) if (!out.has(k)) out.set(k, v);
  return out;
}

/** quota.SubtractWithNonNegativeResult */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const o = b.get(k);
    let d = o ? subtractQuantity(v, o) : v;
    if (sign(d) < 0) d = ZERO;
    out.set(k, d);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, ZERO);
  return out;
}

/** quota.Mask: only the named resources. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

/** quota.RemoveZeros */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => v.nanos !== 0n));
}

/** quota.IsNegative: the names whose quantity is below zero. */
export function negatives(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.nanos < 0n).map(([k]) => k);
}

/** quota.Equals: same names, equal quantities. */
export function equals(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const o = b.get(k);
    if (!o || compareQuantity(v, o) !== 0) return false;
  }
  return true;
}

/** quota.LessThanOrEqual: whether every value of `a` is within `b` (names absent from `b` are unbounded), and the names that are not. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of a) {
    const o = b.get(k);
    if (o && compareQuantity(v, o) > 0) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** kube's prettyPrint: `name=value` pairs in name order, comma separated. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${formatQuantity(list.get(k)!)}`).join(',');
}

/** prettyPrintResourceNames */
export function prettyPrintNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}

/** A list with a zero for each name (CalculateUsageStats' starting point). */
export function zeros(names: Iterable<string>): ResourceList {
  return new Map([...names].map((n) => [n, ZERO]));
}
