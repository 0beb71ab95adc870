/**
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource/quantity.go): parse `100m`, `1Gi`, `2e3`,
 * compare them, and print them canonically as Quantity.String() does (kube's messages quote canonical values,
 * e.g. `must be less than or equal to cpu limit of 1`).
 *
 * Invariant: a parsed quantity is held exactly as a BigInt count of nano-units, rounded away from zero as kube
 * rounds anything finer than 1n; the suffix family (binary, decimal, exponent) is kept for printing.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value × 10^9, exact. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

export const ERR_FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

const NANO = 1_000_000_000n;
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const DECIMAL_SUFFIX: Record<number, string> = { [-9]: 'n', [-6]: 'u', [-3]: 'm', 0: '', 3: 'k', 6: 'M', 9: 'G', 12: 'T', 15: 'P', 18: 'E' };
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
/** Exponents beyond this are refused rather than expanded (a guard against absurd allocations). */
const MAX_EXPONENT = 4096;

export class QuantityParseError extends Error {}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** `a / b` rounded away from zero (inf.RoundUp). */
function divAway(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b === 0n ? q : q + (a < 0n ? -1n : 1n);
}

/** resource.ParseQuantity; throws QuantityParseError with kube's message. */
export function parseQuantity(input: string | number): Quantity {
  const str = typeof input === 'number' ? String(input) : input;
  if (str.length === 0) throw new QuantityParseError(ERR_FORMAT_WRONG);
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(str);
  if (!m) throw new QuantityParseError(ERR_FORMAT_WRONG);
  const [, sign, whole = '', frac = '', suffix = ''] = m;
  if (whole.length === 0 && frac.length === 0) throw new QuantityParseError(str.includes('.') ? ERR_NUMERIC : ERR_FORMAT_WRONG);
  let format: QuantityFormat;
  let mult = 1n; // binary multiplier
  let exp10: number;
  if (suffix in BINARY) {
    format = 'BinarySI';
    mult = 1n << BigInt(BINARY[suffix]!);
    exp10 = 0;
  } else if (suffix in DECIMAL) {
    format = 'DecimalSI';
    exp10 = DECIMAL[suffix]!;
  } else if (/^[eE][-+]?[0-9]+$/.test(suffix)) {
    format = 'DecimalExponent';
    exp10 = Number(suffix.slice(1));
    if (Math.abs(exp10) > MAX_EXPONENT) throw new QuantityParseError(ERR_NUMERIC);
  } else if (/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) {
    throw new QuantityParseError(ERR_SUFFIX);
  } else {
    throw new QuantityParseError(ERR_FORMAT_WRONG);
  }
  // value = digits × 10^(exp10 − frac.length) × mult; held in nano-units.
  let digits = BigInt(`${whole}${frac}` || '0') * mult;
  if (sign === '-') digits = -digits;
  const shift = exp10 - frac.length + 9;
  const nanos = shift >= 0 ? digits * pow10(shift) : divAway(digits, pow10(-shift));
  return { nanos, format: nanos === 0n ? 'DecimalSI' : format };
}

/** Parses without throwing: the quantity or the error message. */
export function tryParseQuantity(input: unknown): Quantity | string {
  if (typeof input !== 'string' && typeof input !== 'number') return ERR_FORMAT_WRONG;
  try {
    return parseQuantity(input);
  } catch (e) {
    return e instanceof QuantityParseError ? e.message : ERR_FORMAT_WRONG;
  }
}

export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

export function sign(q: Quantity): -1 | 0 | 1 {
  return q.nanos < 0n ? -1 : q.nanos > 0n ? 1 : 0;
}

/** The value in milli-units, rounded up (Quantity.MilliValue). */
export function milliValue(q: Quantity): bigint {
  return divAway(q.nanos, 1_000_000n);
}

/** Quantity.String(): the canonical form (`1500m` → `1500m`, `1000m` → `1`, `2048Ki` → `2Mi`, `1000` → `1k`). */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  const neg = q.nanos < 0n;
  const abs = neg ? -q.nanos : q.nanos;
  let format = q.format;
  if (format === 'BinarySI' && (abs < 1024n * NANO || abs % NANO !== 0n)) format = 'DecimalSI';
  let out: string;
  if (format === 'BinarySI') {
    let v = abs / NANO;
    let k = 0;
    while (k < 6 && v % 1024n === 0n) {
      v /= 1024n;
      k++;
    }
    out = `${v}${BINARY_SUFFIX[k]}`;
  } else {
    let v = abs;
    let exp = -9;
    // DecimalSI has suffixes up to E (10^18); the exponent form has no such bound.
    while ((exp < 18 || format === 'DecimalExponent') && v % 1000n === 0n) {
      v /= 1000n;
      exp += 3;
    }
    if (format === 'DecimalExponent') out = exp === 0 ? `${v}` : `${v}e${exp}`;
    else out = `${v}${DECIMAL_SUFFIX[exp]}`;
  }
  return neg ? `-${out}` : out;
}

const MAX_INT64 = (1n << 63n) - 1n;
const BINARY_EXP: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * A quantity's JSON form as kube-apiserver writes it after decoding (Quantity.UnmarshalJSON then MarshalJSON):
 * the canonical string, except that ParseQuantity keeps the input text verbatim when its fast path judges it
 * canonical already (int64 fast path; binary: a power-of-1024 suffix and a mantissa not divisible by 8; decimal:
 * a scale that is a multiple of 3, digits not ending in `000` and not starting with `0`) — so `+1`, `0100` and
 * `1.500` come back as sent while `0.5` → `500m`, `1000m` → `1`, `0.5Gi` → `512Mi`, `1e3` stays `1e3`.
 * Returns undefined for text that does not parse (validation reports it).
 */
export function canonicalQuantity(input: string | number): string | undefined {
  const str = (typeof input === 'number' ? String(input) : input).trim();
  if (str === '0') return str;
  let q: Quantity;
  try {
    q = parseQuantity(str);
  } catch {
    return undefined;
  }
  if (keepsInputText(str)) return str;
  // ParseQuantity caps binary quantities at MaxInt64 (its slow path).
  if (q.format === 'BinarySI' && q.nanos > MAX_INT64 * NANO) q = { nanos: MAX_INT64 * NANO, format: q.format };
  return formatQuantity(q);
}

/** ParseQuantity's fast path: does it keep the input string as the quantity's cached canonical form? */
function keepsInputText(str: string): boolean {
  const m = /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?(.*)$/.exec(str);
  if (!m) return false;
  const num = m[2] || '0';
  const denom = m[3] ?? '';
  const suffix = m[4] ?? '';
  let scale: number;
  let binaryExp = -1;
  let precision: number;
  if (suffix in BINARY_EXP) {
    binaryExp = BINARY_EXP[suffix]!;
    scale = 0;
    precision = denom.length === 0 ? 15 - num.length - Math.trunc(Math.fround(binaryExp * 3 / 10)) - 1 : -1;
  } else {
    if (suffix in DECIMAL) scale = DECIMAL[suffix]!;
    else if (/^[eE][-+]?[0-9]+$/.test(suffix)) scale = Number(suffix.slice(1));
    else return false;
    precision = 18 - (num.length + denom.length);
  }
  if (precision < 0) return false;
  scale -= denom.length;
  if (scale < -9) return false;
  const shifted = num + denom;
  const value = BigInt(shifted);
  if (value > MAX_INT64) return false;
  if (binaryExp >= 0) {
    if (value << BigInt(binaryExp) > MAX_INT64) return false;
    return binaryExp % 10 === 0 && (value & 7n) !== 0n;
  }
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
}

/** A whole number as a DecimalSI quantity (resource.NewQuantity(n, DecimalSI)). */
export function quantityOf(n: number | bigint): Quantity {
  return { nanos: BigInt(n) * NANO, format: 'DecimalSI' };
}

/** Quantity.Add: the sum keeps the format of `a`, or takes `b`'s when `a` is zero. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const nanos = a.nanos + b.nanos;
  return { nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** Quantity.Sub: as `addQuantity` with `b` negated. */
export function subtractQuantity(a: Quantity, b: Quantity): Quantity {
  const nanos = a.nanos - b.nanos;
  return { nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** Quantity.Value: the value rounded up to a whole unit. */
export function wholeValue(q: Quantity): bigint {
  return divAway(q.nanos, NANO);
}

/** Quantity.RoundUp(0): the quantity rounded up to whole units, format kept. */
export function roundUpWhole(q: Quantity): Quantity {
  return { nanos: wholeValue(q) * NANO, format: q.format };
}
