/** cel-go's `string.format(list)` (ext strings v1+): %s %d %f %e %x %X %o %b with optional `.N` precision. */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celError } from './register.ts';

function fail(msg: string): never {
  throw celError(`error during formatting: ${msg}`);
}

function isInt(v: unknown): v is bigint | UnsignedInt {
  return typeof v === 'bigint' || v instanceof UnsignedInt;
}

function fmtDouble(v: number, prec: number, exp: boolean): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (!exp) {
    // Go rounds exact ties to even (2.5 → "2"); toFixed rounds them away from zero.
    const scaled = v * 10 ** prec;
    if (Number.isFinite(scaled) && Math.abs(scaled % 1) === 0.5) {
      const down = Math.trunc(scaled);
      const even = down % 2 === 0 ? down : down + Math.sign(scaled);
      return (even / 10 ** prec).toFixed(prec);
    }
    return v.toFixed(prec);
  }
  const [m, e] = v.toExponential(prec).split('e') as [string, string];
  const sign = e.startsWith('-') ? '-' : '+';
  return `${m}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
}

/** %s of any CEL value as cel-go prints it (nested strings unquoted, map entries sorted by key text). */
export function stringOf(v: unknown, top = true): string {
  void top;
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof UnsignedInt) return String(v.valueOf());
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
    return String(v);
  }
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Duration) {
    const total = Number(v.seconds) + v.nanos / 1e9;
    return `${total}s`;
  }
  if (Array.isArray(v)) return `[${v.map((e) => stringOf(e, false)).join(', ')}]`;
  if (v instanceof Map) {
    const entries = [...v.entries()].map(([k, e]) => [stringOf(k, false), stringOf(e, false)] as const);
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `{${entries.map(([k, e]) => `${k}: ${e}`).join(', ')}}`;
  }
  if (typeof v === 'object' && v.constructor === Object) return stringOf(new Map(Object.entries(v)), top);
  return String(v);
}

export function formatString(fmt: string, args: readonly unknown[]): string {
  let out = '';
  let argi = 0;
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch !== '%') {
      out += ch;
      continue;
    }
    if (fmt[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    let j = i + 1;
    let prec: number | undefined;
    const m = /^\.(\d+)/.exec(fmt.slice(j));
    if (m) {
      prec = Number(m[1]);
      j += m[0].length;
    }
    const verb = fmt[j];
    if (verb === undefined) fail('could not parse formatting clause: unexpected end of string');
    if (argi >= args.length) fail(`index ${argi} out of range`);
    const arg = args[argi++];
    out += clause(verb, arg, prec);
    i = j;
  }
  return out;
}

function clause(verb: string, arg: unknown, prec: number | undefined): string {
  switch (verb) {
    case 's':
      return stringOf(arg);
    case 'd':
      if (isInt(arg)) return String(arg.valueOf());
      if (typeof arg === 'number' && !Number.isFinite(arg)) return stringOf(arg);
      return fail(`decimal clause can only be used on integers, was given ${typeName(arg)}`);
    case 'f': case 'e': {
      const n = typeof arg === 'number' ? arg : isInt(arg) ? Number(arg.valueOf()) : typeof arg === 'string' && /^(NaN|-?Infinity)$/.test(arg) ? Number(arg) : undefined;
      if (n === undefined) return fail(`${verb === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${typeName(arg)}`);
      return fmtDouble(n, prec ?? 6, verb === 'e');
    }
    case 'x': case 'X': {
      let s: string;
      if (isInt(arg)) {
        const n = BigInt(arg.valueOf());
        s = n < 0n ? `-${(-n).toString(16)}` : n.toString(16);
      } else if (typeof arg === 'string') s = Buffer.from(arg, 'utf8').toString('hex');
      else if (arg instanceof Uint8Array) s = Buffer.from(arg).toString('hex');
      else return fail(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(arg)}`);
      return verb === 'X' ? s.toUpperCase() : s;
    }
    case 'o':
      if (isInt(arg)) return BigInt(arg.valueOf()).toString(8);
      return fail(`octal clause can only be used on integers, was given ${typeName(arg)}`);
    case 'b':
      if (isInt(arg)) return BigInt(arg.valueOf()).toString(2);
      if (typeof arg === 'boolean') return arg ? '1' : '0';
      return fail(`only integers and bools can be formatted as binary, was given ${typeName(arg)}`);
    default:
      return fail(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
  }
}

function typeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'null_type';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  if (v instanceof Uint8Array) return 'bytes';
  return typeof v;
}
