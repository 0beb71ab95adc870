/**
 * kube's quantity library (apiserver/pkg/cel/library/quantity.go) over the project's exact resource.Quantity
 * (src/machinery/quantity.ts): quantity, isQuantity, sign, isInteger, asInteger, asApproximateFloat,
 * add, sub, isGreaterThan, isLessThan, compareTo, and equality.
 */
import { formatQuantity, parseQuantity, QuantityParseError, type Quantity } from '../../machinery/quantity.ts';
import { chargeTraversal } from '../runtime-cost.ts';
import { celError, fn, opaqueType, type CelJsEnv } from './register.ts';

const NANO = 1_000_000_000n;
const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;

export class CelQuantity {
  constructor(readonly q: Quantity) {}
  equals(o: unknown): boolean {
    return o instanceof CelQuantity && o.q.nanos === this.q.nanos;
  }
  toString(): string {
    return formatQuantity(this.q);
  }
}

function parse(s: string): CelQuantity | string {
  try {
    return new CelQuantity(parseQuantity(s));
  } catch (e) {
    if (e instanceof QuantityParseError) return e.message;
    throw e;
  }
}

function quantity(s: string): CelQuantity {
  chargeTraversal(s.length);
  const r = parse(s);
  if (typeof r === 'string') throw celError(r);
  return r;
}

const cmp = (a: CelQuantity, b: CelQuantity): bigint => (a.q.nanos < b.q.nanos ? -1n : a.q.nanos > b.q.nanos ? 1n : 0n);
const isInteger = (a: CelQuantity): boolean => a.q.nanos % NANO === 0n && a.q.nanos / NANO <= MAX_INT && a.q.nanos / NANO >= MIN_INT;
const plus = (a: CelQuantity, nanos: bigint): CelQuantity => new CelQuantity({ nanos: a.q.nanos + nanos, format: a.q.format });

export function registerQuantity(env: CelJsEnv): void {
  opaqueType(env, 'kubernetes.Quantity', CelQuantity, true);
  fn(env, 'quantity(string): kubernetes.Quantity', quantity);
  fn(env, 'isQuantity(string): bool', (s: string) => (chargeTraversal(s.length), typeof parse(s) !== 'string'));
  fn(env, 'kubernetes.Quantity.sign(): int', (a: CelQuantity) => (a.q.nanos < 0n ? -1n : a.q.nanos > 0n ? 1n : 0n));
  fn(env, 'kubernetes.Quantity.isInteger(): bool', isInteger);
  fn(env, 'kubernetes.Quantity.asInteger(): int', (a: CelQuantity) => {
    if (!isInteger(a)) throw celError('cannot convert value to integer');
    return a.q.nanos / NANO;
  });
  fn(env, 'kubernetes.Quantity.asApproximateFloat(): double', (a: CelQuantity) => Number(a.q.nanos) / 1e9);
  fn(env, 'kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', (a: CelQuantity, b: CelQuantity) => plus(a, b.q.nanos));
  fn(env, 'kubernetes.Quantity.add(int): kubernetes.Quantity', (a: CelQuantity, b: bigint) => plus(a, b * NANO));
  fn(env, 'kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', (a: CelQuantity, b: CelQuantity) => plus(a, -b.q.nanos));
  fn(env, 'kubernetes.Quantity.sub(int): kubernetes.Quantity', (a: CelQuantity, b: bigint) => plus(a, -b * NANO));
  fn(env, 'kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) > 0n);
  fn(env, 'kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) < 0n);
  fn(env, 'kubernetes.Quantity.compareTo(kubernetes.Quantity): int', cmp);
}
