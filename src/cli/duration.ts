/**
 * Go's time.ParseDuration and Duration.String, since kube flags (`--shutdown-delay-duration=30s`,
 * `--livez-grace-period=1m0s`) use them. Values are milliseconds; sub-millisecond parts are kept as fractions.
 */
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `1h2m3.5s` → ms; `0` alone is allowed; returns undefined when Go would fail. */
export function parseDuration(s: string): number | undefined {
  let rest = s;
  let sign = 1;
  if (rest[0] === '-' || rest[0] === '+') {
    if (rest[0] === '-') sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  const re = /^(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest.length) {
    const m = re.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** Go's Duration.String for whole milliseconds and up: `0s`, `500ms`, `30s`, `1m0s`, `1h30m0s`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let v = Math.abs(ms);
  let out: string;
  if (v < 1000) out = `${v}ms`;
  else {
    const h = Math.floor(v / 3_600_000);
    v -= h * 3_600_000;
    const m = Math.floor(v / 60_000);
    v -= m * 60_000;
    const s = v / 1000;
    out = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
  }
  return neg ? `-${out}` : out;
}
