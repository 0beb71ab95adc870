/**
 * Cron schedule parsing as CronJobs are validated (github.com/robfig/cron/v3 ParseStandard, which kube calls):
 * five fields or a descriptor (@hourly, @daily, @every 1h, ...), with robfig's error texts.
 */

interface Bounds { min: number; max: number; names?: Record<string, number> }

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** strconv.Atoi's error text. */
function atoi(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new Error(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63) throw new Error(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, b: Bounds): number {
  const named = b.names?.[expr.toLowerCase()];
  return named ?? atoi(expr);
}

function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, b);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = atoi(rangeAndStep[1]!);
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/** time.ParseDuration acceptance, for `@every`. */
function isGoDuration(s: string): boolean {
  return /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s) || s === '0';
}

/** Whether a time zone name loads (time.LoadLocation). */
export function timeZoneExists(tz: string): boolean {
  if (tz === 'UTC' || tz === '') return true;
  if (tz === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** cron.ParseStandard: undefined when valid, else robfig's error message. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    let s = spec;
    if (s.length === 0) return 'empty spec string';
    if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
      const i = s.indexOf(' ');
      const eq = s.indexOf('=');
      const loc = i < 0 ? s.slice(eq + 1) : s.slice(eq + 1, i);
      if (!timeZoneExists(loc)) return `provided bad location ${loc}: unknown time zone ${loc}`;
      s = i < 0 ? '' : s.slice(i).trim();
    }
    if (s.startsWith('@')) {
      if (DESCRIPTORS.has(s)) return undefined;
      if (s.startsWith('@every ')) {
        const d = s.slice('@every '.length);
        return isGoDuration(d) ? undefined : `failed to parse duration ${s}: time: invalid duration ${JSON.stringify(d)}`;
      }
      return `unrecognized descriptor: ${s}`;
    }
    const fields = s.split(/\s+/).filter((f) => f.length > 0);
    if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
    const bounds = [MINUTES, HOURS, DOM, MONTHS, DOW];
    fields.forEach((f, i) => { for (const expr of f.split(',')) checkRange(expr, bounds[i]!); });
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
