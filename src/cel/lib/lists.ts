/**
 * kube's lists library (apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max, indexOf, lastIndexOf;
 * and cel-go's ext.Sets: sets.contains, sets.equivalent, sets.intersects (CEL equality, so 1 == 1.0).
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { charge } from '../runtime-cost.ts';
import { celEquals } from '../values.ts';
import { celError, fn, type CelJsEnv } from './register.ts';

const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;
const MAX_UINT = 18446744073709551615n;

/** Compare two comparable CEL values of one type (<0, 0, >0). */
function compare(a: unknown, b: unknown): number {
  if (a instanceof UnsignedInt) a = a.valueOf();
  if (b instanceof UnsignedInt) b = b.valueOf();
  if (a instanceof Duration && b instanceof Duration) {
    return a.seconds === b.seconds ? a.nanos - b.nanos : a.seconds < b.seconds ? -1 : 1;
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  throw celError('no such overload');
}

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'];

function items(l: unknown): unknown[] {
  return Array.isArray(l) ? l : [...(l as Iterable<unknown>)];
}

function sumOf(type: string, l: unknown[]): unknown {
  switch (type) {
    case 'int': {
      let s = 0n;
      for (const v of l) {
        s += v as bigint;
        if (s > MAX_INT || s < MIN_INT) throw celError('integer overflow');
      }
      return s;
    }
    case 'uint': {
      let s = 0n;
      for (const v of l) {
        s += (v as UnsignedInt).valueOf();
        if (s > MAX_UINT) throw celError('unsigned integer overflow');
      }
      return new UnsignedInt(s);
    }
    case 'double':
      return l.reduce<number>((s, v) => s + Number(v), 0);
    default: {
      let nanos = 0n;
      for (const v of l) nanos += (v as Duration).seconds * 1_000_000_000n + BigInt((v as Duration).nanos);
      return new Duration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
    }
  }
}

function extreme(l: unknown[], sign: 1 | -1, name: string): unknown {
  if (l.length === 0) throw celError(`${name}(list) argument must not be empty`);
  let best = l[0];
  for (const v of l) if (compare(v, best) * sign > 0) best = v;
  return best;
}

export function registerLists(env: CelJsEnv): void {
  for (const t of COMPARABLE) {
    fn(env, `list<${t}>.isSorted(): bool`, (l: unknown) => {
      const a = items(l);
      charge(a.length);
      for (let i = 1; i < a.length; i++) if (compare(a[i - 1], a[i]) > 0) return false;
      return true;
    });
    fn(env, `list<${t}>.min(): ${t}`, (l: unknown) => (charge(items(l).length), extreme(items(l), -1, 'min')));
    fn(env, `list<${t}>.max(): ${t}`, (l: unknown) => (charge(items(l).length), extreme(items(l), 1, 'max')));
  }
  for (const t of ['int', 'uint', 'double', 'google.protobuf.Duration']) {
    fn(env, `list<${t}>.sum(): ${t}`, (l: unknown) => (charge(items(l).length), sumOf(t, items(l))));
  }
  fn(env, 'list<A>.indexOf(A): int', (l: unknown, v: unknown) => {
    const a = items(l);
    charge(a.length);
    return BigInt(a.findIndex((e) => celEquals(e, v)));
  });
  fn(env, 'list<A>.lastIndexOf(A): int', (l: unknown, v: unknown) => {
    const a = items(l);
    charge(a.length);
    return BigInt(a.findLastIndex((e) => celEquals(e, v)));
  });

  env.registerType('SetsNamespace', SetsNamespace);
  env.registerConstant('sets', 'SetsNamespace', new SetsNamespace());
  const has = (l: unknown[], v: unknown): boolean => l.some((e) => celEquals(e, v));
  fn(env, 'SetsNamespace.contains(list<A>, list<A>): bool', (_n: unknown, a: unknown, b: unknown) => {
    const x = items(a);
    const y = items(b);
    charge(x.length * y.length);
    return y.every((v) => has(x, v));
  });
  fn(env, 'SetsNamespace.equivalent(list<A>, list<A>): bool', (_n: unknown, a: unknown, b: unknown) => {
    const x = items(a);
    const y = items(b);
    charge(x.length * y.length);
    return y.every((v) => has(x, v)) && x.every((v) => has(y, v));
  });
  fn(env, 'SetsNamespace.intersects(list<A>, list<A>): bool', (_n: unknown, a: unknown, b: unknown) => {
    const x = items(a);
    const y = items(b);
    charge(x.length * y.length);
    return y.some((v) => has(x, v));
  });
}

class SetsNamespace {}
