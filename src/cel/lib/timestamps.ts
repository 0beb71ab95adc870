/**
 * Timestamp and duration accessors as cel-go defines them (UTC by default, kube's DefaultUTCTimeZone), with
 * the optional time zone argument taking an IANA name or a fixed offset (`+11:00`, `-02:30`, `02:00`).
 * Replaces cel-js's versions, which accept IANA names only.
 */
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { celError, fn, type CelJsEnv } from './register.ts';

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

interface Fields { year: number; month: number; day: number; dow: number; hours: number; minutes: number; seconds: number; ms: number }

const zones = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function utcFields(d: Date): Fields {
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate(), dow: d.getUTCDay(),
    hours: d.getUTCHours(), minutes: d.getUTCMinutes(), seconds: d.getUTCSeconds(), ms: d.getUTCMilliseconds(),
  };
}

function zoneFormat(tz: string): Intl.DateTimeFormat {
  let f = zones.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'short',
        hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      throw celError(`invalid time zone: ${tz}`);
    }
    zones.set(tz, f);
  }
  return f;
}

/** The calendar fields of `d` in `tz` (UTC when absent). */
function fieldsIn(d: Date, tz?: string): Fields {
  if (tz === undefined || tz === 'UTC') return utcFields(d);
  const offset = /^([+-])?(\d{2}):(\d{2})$/.exec(tz);
  if (offset) {
    const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === '-' ? -1 : 1);
    return utcFields(new Date(d.getTime() + minutes * 60_000));
  }
  const parts: Record<string, string> = {};
  for (const p of zoneFormat(tz).formatToParts(d)) parts[p.type] = p.value;
  return {
    year: Number(parts.year), month: Number(parts.month) - 1, day: Number(parts.day), dow: WEEKDAYS.indexOf(parts.weekday ?? ''),
    hours: Number(parts.hour), minutes: Number(parts.minute), seconds: Number(parts.second), ms: d.getUTCMilliseconds(),
  };
}

function dayOfYear(f: Fields): number {
  return Math.round((Date.UTC(f.year, f.month, f.day) - Date.UTC(f.year, 0, 1)) / 86_400_000);
}

const GETTERS: ReadonlyArray<readonly [string, (f: Fields) => number]> = [
  ['getFullYear', (f) => f.year], ['getMonth', (f) => f.month], ['getDayOfYear', dayOfYear],
  ['getDayOfMonth', (f) => f.day - 1], ['getDate', (f) => f.day], ['getDayOfWeek', (f) => f.dow],
  ['getHours', (f) => f.hours], ['getMinutes', (f) => f.minutes], ['getSeconds', (f) => f.seconds],
  ['getMilliseconds', (f) => f.ms],
];

const totalNanos = (d: Duration): bigint => d.seconds * 1_000_000_000n + BigInt(d.nanos);

export const TIMESTAMP_METHODS: readonly string[] = GETTERS.map(([n]) => n);

export function registerTimestamps(env: CelJsEnv): void {
  for (const [name, get] of GETTERS) {
    fn(env, `${TS}.${name}(): int`, (d: Date) => BigInt(get(fieldsIn(d))));
    fn(env, `${TS}.${name}(string): int`, (d: Date, tz: string) => BigInt(get(fieldsIn(d, tz))));
  }
  // Durations: whole hours, minutes, seconds and milliseconds of the total (cel-go's Hours(), Minutes(), …).
  fn(env, `${DUR}.getHours(): int`, (d: Duration) => totalNanos(d) / 3_600_000_000_000n);
  fn(env, `${DUR}.getMinutes(): int`, (d: Duration) => totalNanos(d) / 60_000_000_000n);
  fn(env, `${DUR}.getSeconds(): int`, (d: Duration) => totalNanos(d) / 1_000_000_000n);
  fn(env, `${DUR}.getMilliseconds(): int`, (d: Duration) => totalNanos(d) / 1_000_000n);
}
