/**
 * Go's `time.Duration` text (`1h2m3.5s`, `300ms`, `-1.5h`): the form kube's flags (`--shutdown-delay-duration=30s`),
 * configuration files and CEL duration values take. Exact in nanoseconds (bigint), with millisecond helpers for
 * the flags and timers that work in ms.
 */

const UNIT_NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n, us: 1_000n, 'µs': 1_000n, 'μs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};
const PART = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
const MAX_NANOS = 9_223_372_036_854_775_807n;

/** Parse as Go's time.ParseDuration; undefined when invalid or out of int64 nanoseconds range. */
export function parseGoDuration(text: string): { seconds: bigint; nanos: number } | undefined {
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { seconds: 0n, nanos: 0 };
  if (s === '') return undefined;
  let total = 0n;
  while (s !== '') {
    const m = PART.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = UNIT_NANOS[m[3]!]!;
    total += BigInt(m[1] || '0') * unit;
    const frac = m[2] ?? '';
    if (frac !== '') total += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    if (total > MAX_NANOS) return undefined;
    s = s.slice(m[0].length);
  }
  if (neg) total = -total;
  return { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) };
}

/** Format as Go's Duration.String(). */
export function formatGoDuration(seconds: bigint, nanos: number): string {
  let total = seconds * 1_000_000_000n + BigInt(nanos);
  if (total === 0n) return '0s';
  const neg = total < 0n;
  if (neg) total = -total;
  let out: string;
  if (total < 1_000_000_000n) {
    // Sub-second values use the largest unit that keeps an integer part, as Go does.
    const [unit, size] = total < 1_000n ? ['ns', 1n] : total < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    out = fraction(total, size) + unit;
  } else {
    const h = total / 3_600_000_000_000n;
    const rest = total % 3_600_000_000_000n;
    const m = rest / 60_000_000_000n;
    const sec = rest % 60_000_000_000n;
    out = (h > 0n ? `${h}h` : '') + (h > 0n || m > 0n ? `${m}m` : '') + fraction(sec, 1_000_000_000n) + 's';
  }
  return neg ? `-${out}` : out;
}

function fraction(v: bigint, unit: bigint): string {
  const whole = v / unit;
  const frac = v % unit;
  if (frac === 0n) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** `1h2m3.5s` → milliseconds (sub-millisecond parts kept as fractions); undefined when Go would fail. */
export function parseDuration(text: string): number | undefined {
  const d = parseGoDuration(text);
  return d === undefined ? undefined : Number(d.seconds) * 1000 + d.nanos / 1e6;
}

/** Go's Duration.String of a millisecond count: `0s`, `500ms`, `30s`, `1m0s`, `1h30m0s`. */
export function formatDuration(ms: number): string {
  const nanos = BigInt(Math.round(ms * 1e6));
  return formatGoDuration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
}
