/**
 * Go's time.Parse for the two layouts kube's API times decode with, reporting failures in Go's words:
 *   - metav1.Time:      time.RFC3339      `2006-01-02T15:04:05Z07:00` (fractional seconds accepted anyway);
 *   - metav1.MicroTime: RFC3339Micro      `2006-01-02T15:04:05.000000Z07:00` (exactly six fraction digits).
 * Their UnmarshalJSON returns the *time.ParseError as is, so a client sees e.g.
 *   parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"
 * inside kube's decode error. Mirrors Go's parse loop chunk by chunk (prefix, then the std element), with its
 * range errors (`month out of range`, …, `day out of range`) and `extra text`.
 */

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'tz';

/** The layouts as Go's nextStdChunk splits them: [prefix, std text, std]. */
const CHUNKS: Record<string, ReadonlyArray<readonly [string, string, Std]>> = {
  [RFC3339]: [['', '2006', 'year'], ['-', '01', 'month'], ['-', '02', 'day'], ['T', '15', 'hour'], [':', '04', 'minute'], [':', '05', 'second'], ['', 'Z07:00', 'tz']],
  [RFC3339_MICRO]: [['', '2006', 'year'], ['-', '01', 'month'], ['-', '02', 'day'], ['T', '15', 'hour'], [':', '04', 'minute'], [':', '05', 'second'], ['', '.000000', 'frac6'], ['', 'Z07:00', 'tz']],
};

/** time's quote: double quotes, `"` and `\` escaped, bytes outside printable ASCII as \xNN. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: s.charCodeAt(0) - 48, rest: s.slice(1) };
  return { n: (s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), rest: s.slice(2) };
}

const daysIn = (month: number, year: number): number => (month === 2 ? ((year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!);

/** parseNanoseconds on `nbytes` bytes of `.ddd…`: 'ok', 'bad' (errBad) or 'range' (a negative atoi). */
function fraction(value: string, nbytes: number): 'ok' | 'bad' | 'range' {
  if (value[0] !== '.' && value[0] !== ',') return 'bad';
  const digits = value.slice(1, Math.min(nbytes, 10));
  if (!/^[+-]?\d+$/.test(digits)) return 'bad';
  return digits.startsWith('-') && /[1-9]/.test(digits) ? 'range' : 'ok';
}

/** The error text time.Parse(layout, value) returns, or undefined when it parses. */
export function goTimeParseError(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): string | undefined {
  const whole = value;
  const cannot = (elem: string, rest: string) => `parsing time ${goTimeQuote(whole)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(elem)}`;
  const range = (what: string) => `parsing time ${goTimeQuote(whole)}: ${what} out of range`;
  const chunks = CHUNKS[layout]!;
  let year = 0;
  let month = 0;
  let day = 0;
  for (let i = 0; i < chunks.length; i++) {
    const [prefix, stdText, std] = chunks[i]!;
    if (prefix) {
      if (!value.startsWith(prefix)) return cannot(prefix, value);
      value = value.slice(prefix.length);
    }
    const hold = value;
    switch (std) {
      case 'year': {
        if (value.length < 4 || !isDigit(value, 0) || !/^\d{4}$/.test(value.slice(0, 4))) return cannot(stdText, hold);
        year = Number(value.slice(0, 4));
        value = value.slice(4);
        break;
      }
      case 'month': case 'day': case 'minute': case 'second': case 'hour': {
        const g = getnum(value, std !== 'hour');
        if (!g) return cannot(stdText, hold);
        value = g.rest;
        if (std === 'month') {
          month = g.n;
          if (month <= 0 || month > 12) return range('month');
        } else if (std === 'day') {
          day = g.n;
        } else if (std === 'hour' && g.n >= 24) {
          return range('hour');
        } else if (std === 'minute' && g.n >= 60) {
          return range('minute');
        } else if (std === 'second') {
          if (g.n >= 60) return range('second');
          // A fraction the layout does not spell is accepted (when the layout has none).
          const next = chunks[i + 1]?.[2];
          if (next !== 'frac6' && value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
            let n = 2;
            while (isDigit(value, n)) n++;
            value = value.slice(n);
          }
        }
        break;
      }
      case 'frac6': {
        const f = value.length < 7 ? 'bad' : fraction(value, 7);
        if (f === 'range') return range('fractional second');
        if (f === 'bad') return cannot(stdText, hold);
        value = value.slice(7);
        break;
      }
      case 'tz': {
        if (value.startsWith('Z')) {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ':') return cannot(stdText, hold);
        // Go reads hour then minute (stopping at the first failure), checks the ranges, then the sign.
        const hh = getnum(value.slice(1, 3), true);
        const mm = hh ? getnum(value.slice(4, 6), true) : undefined;
        if ((hh?.n ?? 0) > 24) return range('time zone offset hour');
        if ((mm?.n ?? 0) > 60) return range('time zone offset minute');
        if (!hh || !mm || (value[0] !== '+' && value[0] !== '-')) return cannot(stdText, hold);
        value = value.slice(6);
        break;
      }
    }
  }
  if (value.length) return `parsing time ${goTimeQuote(whole)}: extra text: ${goTimeQuote(value)}`;
  if (day < 1 || day > daysIn(month, year)) return range('day');
  return undefined;
}
