/**
 * Standard CEL overloads cel-js lacks that kube users can write: string()/int() of timestamps and durations,
 * int(uint), identity duration()/timestamp(), ordering of bytes, and optional.ofNonZeroValue.
 */
import { Optional } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celError, fn, type CelJsEnv } from './register.ts';

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';
const MAX_INT = 9223372036854775807n;

/** RFC 3339 with nanosecond precision trimmed as Go's time.Format(time.RFC3339Nano). */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.?0+Z$/, 'Z').replace(/\.Z$/, 'Z');
}

/** cel-go prints durations in seconds (`1000000s`, `1.5s`). */
function durationSeconds(d: Duration): string {
  const nanos = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const whole = abs / 1_000_000_000n;
  const frac = abs % 1_000_000_000n;
  const fracText = frac === 0n ? '' : `.${frac.toString().padStart(9, '0').replace(/0+$/, '')}`;
  return `${neg ? '-' : ''}${whole}${fracText}s`;
}

function isZero(v: unknown): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return true;
  if (v instanceof UnsignedInt) return v.valueOf() === 0n;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (v instanceof Map || v instanceof Set) return v.size === 0;
  if (v instanceof Duration) return v.seconds === 0n && v.nanos === 0;
  if (v instanceof Date) return v.getTime() === 0;
  if (v && typeof v === 'object' && v.constructor === Object) return Object.keys(v).length === 0;
  return false;
}

export function registerConversions(env: CelJsEnv): void {
  fn(env, `string(${TS}): string`, rfc3339);
  fn(env, `string(${DUR}): string`, durationSeconds);
  fn(env, `int(${TS}): int`, (d: Date) => BigInt(Math.floor(d.getTime() / 1000)));
  fn(env, 'int(uint): int', (u: UnsignedInt) => {
    if (u.valueOf() > MAX_INT) throw celError('integer overflow');
    return u.valueOf();
  });
  fn(env, `duration(${DUR}): ${DUR}`, (d: Duration) => d);
  fn(env, `timestamp(${TS}): ${TS}`, (d: Date) => d);
  const cmp = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);
  env.registerOperator('bytes < bytes', ((a: Uint8Array, b: Uint8Array) => cmp(a, b) < 0) as never);
  env.registerOperator('bytes <= bytes', ((a: Uint8Array, b: Uint8Array) => cmp(a, b) <= 0) as never);
  env.registerOperator('bytes > bytes', ((a: Uint8Array, b: Uint8Array) => cmp(a, b) > 0) as never);
  env.registerOperator('bytes >= bytes', ((a: Uint8Array, b: Uint8Array) => cmp(a, b) >= 0) as never);
  fn(env, 'OptionalNamespace.ofNonZeroValue(A): optional<A>', (_n: unknown, v: unknown) => (isZero(v) ? Optional.none() : Optional.of(v)));
}
