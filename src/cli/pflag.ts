/**
 * A command-line parser with Go pflag's rules, because kube-apiserver users bring their flags along:
 *   `--f=v` and `--f v`; bool flags take no separate value (`--b`, `--b=false`; `--b false` leaves `false` as
 *   an argument); `--` ends flags; `_` in names is read as `-` (kube's WordSepNormalizeFunc); comma lists and
 *   `k=v,k2=v2` maps accumulate over repeats (the first use replaces the default); one-letter shorthands `-h`.
 * Errors carry pflag's wording (`unknown flag: --x`, `flag needs an argument: --x`,
 * `invalid argument "x" for "--f" flag: ...`) because scripts and people grep for them.
 */
import { parseDuration } from '../machinery/duration.ts';

export type FlagKind = 'string' | 'bool' | 'int' | 'float' | 'duration' | 'stringSlice' | 'stringArray' | 'map' | 'boolMap';

export type FlagValue = string | boolean | number | string[] | Record<string, string> | Record<string, boolean>;

export interface FlagDef {
  readonly name: string;
  readonly kind: FlagKind;
  readonly usage: string;
  /** Typed default; a duration default is milliseconds. */
  readonly default?: FlagValue;
  readonly shorthand?: string;
  /** Shown in usage; kube prints deprecated flags only with a note. */
  readonly deprecated?: string;
}

export class FlagError extends Error {
  override name = 'FlagError';
}

export interface ParsedFlags {
  /** Every declared flag's value (default when not given). */
  readonly values: ReadonlyMap<string, FlagValue>;
  /** Names given on the command line. */
  readonly changed: ReadonlySet<string>;
  /** Positional arguments. */
  readonly args: readonly string[];
  readonly help: boolean;
}

/** `--foo_bar` is `--foo-bar` (kube-apiserver normalizes word separators). */
export function normalizeFlagName(name: string): string {
  return name.replace(/_/g, '-');
}

/** Splits a comma list as pflag does (Go's CSV reader: quotes allowed around items). */
export function splitCsv(value: string): string[] {
  if (value === '') return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted) {
      if (c === '"') {
        if (value[i + 1] === '"') { cur += '"'; i++; } else quoted = false;
      } else cur += c;
    } else if (c === '"' && cur === '' && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
      wasQuoted = false;
    } else cur += c;
  }
  if (quoted) throw new FlagError('extraneous or missing " in quoted-field');
  out.push(cur);
  return out;
}

function parseBool(s: string): boolean | undefined {
  // strconv.ParseBool
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

function parseGoInt(s: string): number | undefined {
  // strconv.ParseInt(s, 0, 64): sign, 0x/0o/0b prefixes, underscores only with a prefix.
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|[1-9][0-9]*|0)$/.exec(s);
  if (!m) return undefined;
  let body = m[2]!;
  let n: number;
  if (/^0[xX]/.test(body)) n = parseInt(body.slice(2).replace(/_/g, ''), 16);
  else if (/^0[bB]/.test(body)) n = parseInt(body.slice(2).replace(/_/g, ''), 2);
  else if (/^0[oO]?[0-7_]+$/.test(body) && body.length > 1) { body = body.replace(/^0[oO]?/, ''); n = parseInt(body.replace(/_/g, ''), 8); }
  else n = Number(body);
  if (!Number.isSafeInteger(n)) return undefined;
  return m[1] === '-' ? -n : n;
}

function invalid(def: FlagDef, value: string, why: string): FlagError {
  return new FlagError(`invalid argument ${JSON.stringify(value)} for "${def.shorthand ? `-${def.shorthand}, ` : ''}--${def.name}" flag: ${why}`);
}

/** Applies one occurrence of a flag to the accumulated value. */
function applyValue(def: FlagDef, raw: string, prev: FlagValue | undefined, first: boolean): FlagValue {
  switch (def.kind) {
    case 'string': return raw;
    case 'bool': {
      const b = parseBool(raw);
      if (b === undefined) throw invalid(def, raw, `strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
      return b;
    }
    case 'int': {
      const n = parseGoInt(raw);
      if (n === undefined) throw invalid(def, raw, `strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
      return n;
    }
    case 'float': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw invalid(def, raw, `strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
      return n;
    }
    case 'duration': {
      const ms = parseDuration(raw);
      if (ms === undefined) throw invalid(def, raw, `time: invalid duration ${JSON.stringify(raw)}`);
      return ms;
    }
    case 'stringSlice': {
      const items = splitCsv(raw);
      return first ? items : [...(prev as string[]), ...items];
    }
    case 'stringArray': return first ? [raw] : [...(prev as string[]), raw];
    case 'map': {
      // cliflag.ConfigurationMap / MapStringString: `k=v,k2=v2`, later keys win.
      const out: Record<string, string> = first ? {} : { ...(prev as Record<string, string>) };
      for (const item of raw.split(',')) {
        if (item.trim() === '') continue;
        const eq = item.indexOf('=');
        const k = (eq < 0 ? item : item.slice(0, eq)).trim();
        out[k] = eq < 0 ? '' : item.slice(eq + 1).trim();
      }
      return out;
    }
    case 'boolMap': {
      // cliflag.MapStringBool (feature gates): `Name=true,Other=false`.
      const out: Record<string, boolean> = first ? {} : { ...(prev as Record<string, boolean>) };
      for (const item of raw.split(',')) {
        if (item.trim() === '') continue;
        const eq = item.indexOf('=');
        if (eq < 0) throw invalid(def, raw, `missing bool value for ${item.trim()}`);
        const k = item.slice(0, eq).trim();
        const b = parseBool(item.slice(eq + 1).trim());
        if (b === undefined) throw invalid(def, raw, `invalid value of ${k}=${item.slice(eq + 1).trim()}, err: strconv.ParseBool: parsing ${JSON.stringify(item.slice(eq + 1).trim())}: invalid syntax`);
        out[k] = b;
      }
      return out;
    }
  }
}

/**
 * Parses `argv` (without node and script) against `defs`. `-h`/`--help` sets `help` and stops nothing else.
 * Throws FlagError on unknown flags, missing arguments and values of the wrong type.
 */
export function parseFlags(defs: readonly FlagDef[], argv: readonly string[]): ParsedFlags {
  const byName = new Map<string, FlagDef>();
  const byShort = new Map<string, FlagDef>();
  for (const d of defs) {
    byName.set(d.name, d);
    if (d.shorthand) byShort.set(d.shorthand, d);
  }
  const values = new Map<string, FlagValue>();
  for (const d of defs) if (d.default !== undefined) values.set(d.name, d.default);
  const changed = new Set<string>();
  const args: string[] = [];
  let help = false;

  const set = (def: FlagDef, raw: string): void => {
    const first = !changed.has(def.name);
    values.set(def.name, applyValue(def, raw, values.get(def.name), first));
    changed.add(def.name);
  };

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const body = a.slice(2);
      if (body.startsWith('-') || body.startsWith('=')) throw new FlagError(`bad flag syntax: ${a}`);
      const eq = body.indexOf('=');
      const name = normalizeFlagName(eq < 0 ? body : body.slice(0, eq));
      if (name === 'help' && !byName.has('help')) { help = true; continue; }
      const def = byName.get(name);
      if (!def) throw new FlagError(`unknown flag: --${name}`);
      if (eq >= 0) set(def, body.slice(eq + 1));
      else if (def.kind === 'bool') set(def, 'true');
      else if (i + 1 < argv.length) set(def, argv[++i]!);
      else throw new FlagError(`flag needs an argument: --${name}`);
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && a !== '-') {
      // Shorthands: `-h`, `-v=2`, `-v 2`, `-v2`; several bool shorthands may be grouped.
      let rest = a.slice(1);
      while (rest.length) {
        const c = rest[0]!;
        const def = byShort.get(c);
        if (!def) {
          if (c === 'h') { help = true; rest = rest.slice(1); continue; }
          throw new FlagError(`unknown shorthand flag: '${c}' in ${a}`);
        }
        if (rest[1] === '=') { set(def, rest.slice(2)); break; }
        if (def.kind === 'bool') { set(def, 'true'); rest = rest.slice(1); continue; }
        if (rest.length > 1) { set(def, rest.slice(1)); break; }
        if (i + 1 < argv.length) { set(def, argv[++i]!); break; }
        throw new FlagError(`flag needs an argument: '${c}' in ${a}`);
      }
      continue;
    }
    args.push(a);
  }
  return { values, changed, args, help };
}

function kindLabel(kind: FlagKind): string {
  switch (kind) {
    case 'bool': return '';
    case 'stringSlice': return ' strings';
    case 'stringArray': return ' stringArray';
    case 'map': return ' mapStringString';
    case 'boolMap': return ' mapStringBool';
    default: return ` ${kind}`;
  }
}

/** pflag's FlagUsages layout: `  -h, --name type   usage (default x)`. */
export function formatUsage(defs: readonly FlagDef[], formatDefault: (d: FlagDef) => string | undefined): string {
  const rows = defs.filter((d) => !d.deprecated).map((d) => {
    const left = `${d.shorthand ? `-${d.shorthand}, ` : '    '}--${d.name}${kindLabel(d.kind)}`;
    const def = formatDefault(d);
    return { left, right: d.usage + (def ? ` (default ${def})` : '') };
  });
  const width = Math.max(...rows.map((r) => r.left.length)) + 3;
  // Like pflag, continuation lines of a multi-line usage start under the usage column.
  return rows.map((r) => `      ${r.left.padEnd(width)}${r.right.replace(/\n/g, `\n${' '.repeat(6 + width)}`)}`).join('\n');
}
