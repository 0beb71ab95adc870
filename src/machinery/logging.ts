/**
 * The one logger every module writes through: klog's text lines by default, component-base's JSON schema with
 * `--logging-format=json`, and klog's verbosity (`-v`): a message at level N is written when N ≤ the current
 * verbosity, which `PUT /debug/flags/v` changes at run time.
 *
 * Text:  `I1126 13:54:39.123456   12345 httplog.ts] "HTTP" verb="GET" URI="/healthz" resp=200`
 *        (severity, MMDD, UTC time with µs, pid, the writing module — klog's file:line, without a Go line to name —
 *        then the message: quoted with key=value pairs for structured calls, plain for one-line messages).
 * JSON:  `{"ts":1764165279123.456,"caller":"httplog.ts","msg":"HTTP","v":3,"verb":"GET",…}`; errors carry `err`.
 *
 * Every message and string value passes `redact` first, so a bearer token, a JWT or a bootstrap token that
 * slipped into an error message never reaches the log.
 */
export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

export type KeyValues = Readonly<Record<string, unknown>>;

export interface LoggerOptions {
  /** `-v`; default 0. */
  readonly verbosity?: number;
  readonly format?: LogFormat;
  /** Where finished lines go (without the newline); default stderr. */
  readonly write?: (line: string) => void;
  readonly now?: () => Date;
  readonly pid?: number;
}

const MASK = '[redacted]';
const SECRETS: readonly RegExp[] = [
  /(bearer\s+)[^\s"',;]+/gi,
  // JWTs (service account, OIDC, projected tokens): three base64url parts, the first a JSON header.
  /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g,
  // Bootstrap tokens: `<id>.<secret>`.
  /\b[a-z0-9]{6}\.[a-z0-9]{16}\b/g,
  /((?:token|password|secret)=)[^\s&"',;]+/gi,
];

/** Masks credentials in a message (defence in depth: callers should not pass them at all). */
export function redact(text: string): string {
  let out = text;
  for (const re of SECRETS) out = out.replace(re, (_m, keep: unknown) => (typeof keep === 'string' ? `${keep}${MASK}` : MASK));
  return out;
}

/** klog's header: `I1126 13:54:39.123456   12345 source] `. */
export function klogHeader(severity: 'I' | 'W' | 'E', source: string, now: Date, pid: number): string {
  const p2 = (n: number) => String(n).padStart(2, '0');
  const stamp = `${p2(now.getUTCMonth() + 1)}${p2(now.getUTCDate())} ${p2(now.getUTCHours())}:${p2(now.getUTCMinutes())}:${p2(now.getUTCSeconds())}.${String(now.getUTCMilliseconds() * 1000).padStart(6, '0')}`;
  return `${severity}${stamp} ${String(pid).padStart(7, ' ')} ${source}] `;
}

/** klog's text rendering of one value: strings quoted (Go %q style), numbers and booleans bare. */
function textValue(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Error) return JSON.stringify(redact(v.message));
  if (typeof v === 'string') return JSON.stringify(redact(v));
  if (v === undefined || v === null) return '<nil>';
  return redact(JSON.stringify(v));
}

function jsonValue(v: unknown): unknown {
  if (typeof v === 'string') return redact(v);
  if (v instanceof Error) return redact(v.message);
  if (typeof v === 'bigint') return Number(v);
  if (v && typeof v === 'object') return JSON.parse(redact(JSON.stringify(v)));
  return v;
}

export class Logger {
  #verbosity: number;
  readonly format: LogFormat;
  readonly #write: (line: string) => void;
  readonly #now: () => Date;
  readonly #pid: number;

  constructor(o: LoggerOptions = {}) {
    this.#verbosity = o.verbosity ?? 0;
    this.format = o.format ?? 'text';
    this.#write = o.write ?? ((l) => process.stderr.write(`${l}\n`));
    this.#now = o.now ?? (() => new Date());
    this.#pid = o.pid ?? process.pid;
  }

  get verbosity(): number {
    return this.#verbosity;
  }

  /** `PUT /debug/flags/v`. */
  setVerbosity(v: number): void {
    this.#verbosity = v;
  }

  /** klog.V(level).Enabled(). */
  enabled(level: number): boolean {
    return level <= this.#verbosity;
  }

  /** klog.V(v).InfoS: a structured message written when `v` ≤ verbosity. */
  info(source: string, msg: string, kv: KeyValues = {}, v = 0): void {
    if (!this.enabled(v)) return;
    this.#emit('I', source, msg, kv, v, true);
  }

  warning(source: string, msg: string, kv: KeyValues = {}): void {
    this.#emit('W', source, msg, kv, 0, true);
  }

  /** klog.ErrorS: `err` first, as kube's JSON schema has it. */
  error(source: string, msg: string, err?: unknown, kv: KeyValues = {}): void {
    this.#emit('E', source, msg, err === undefined ? kv : { err: err instanceof Error ? err.message : String(err), ...kv }, undefined, true);
  }

  /**
   * A plain one-line message (klog.Infof style), for modules that take `log: (line) => void`. A leading `W ` or
   * `E ` picks the severity.
   */
  line(source: string, text: string): void {
    const sev = /^([WE]) /.exec(text);
    this.#emit(sev ? (sev[1] as 'W' | 'E') : 'I', source, sev ? text.slice(2) : text, {}, sev ? undefined : 0, false);
  }

  /** A `(line) => void` writing through `line()` under `source`. */
  sink(source: string): (line: string) => void {
    return (text) => this.line(source, text);
  }

  #emit(sev: 'I' | 'W' | 'E', source: string, msg: string, kv: KeyValues, v: number | undefined, structured: boolean): void {
    const now = this.#now();
    if (this.format === 'json') {
      const rec: Record<string, unknown> = { ts: now.getTime(), caller: source, msg: redact(msg) };
      if (sev !== 'E' && v !== undefined) rec.v = v;
      for (const [k, val] of Object.entries(kv)) rec[k] = jsonValue(val);
      this.#write(JSON.stringify(rec));
      return;
    }
    let line = klogHeader(sev, source, now, this.#pid) + (structured ? JSON.stringify(redact(msg)) : redact(msg));
    for (const [k, val] of Object.entries(kv)) line += ` ${k}=${textValue(val)}`;
    this.#write(line);
  }
}
