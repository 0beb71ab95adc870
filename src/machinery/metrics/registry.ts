/**
 * component-base's metrics registry on top of prom-client: every family carries a stability level (its HELP
 * reads `[STABLE] …`, `[ALPHA] …`), may carry the version it was deprecated in (`[ALPHA] (Deprecated since
 * 1.28.0) …`), and a family deprecated before the running minor version is hidden unless
 * `--show-hidden-metrics-for-version` names the previous minor. Features register their own families here
 * (request, storage, admission, authentication, authorization; APF can add apiserver_flowcontrol_* the same way).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Metric } from 'prom-client';
import { CounterVec, HistogramVec } from './series.ts';

export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

export interface FamilyOptions<L extends string> {
  /** Full name (namespace and subsystem joined with `_`). */
  readonly name: string;
  readonly help: string;
  readonly labelNames?: readonly L[];
  /** Default ALPHA, as component-base. */
  readonly stabilityLevel?: StabilityLevel;
  /** `major.minor.patch` the family was deprecated in. */
  readonly deprecatedVersion?: string;
}

export interface HistogramOptions<L extends string> extends FamilyOptions<L> {
  readonly buckets: readonly number[];
}

export interface RegistryOptions {
  /** The version this server reports (`1.33`). */
  readonly currentVersion: { readonly major: number; readonly minor: number };
  /** `--show-hidden-metrics-for-version`: when set, deprecated families are shown however old. */
  readonly showHiddenForVersion?: string;
}

/** `1.32` or `1.32.0` → [1, 32, 0]. */
function parseVersion(v: string): [number, number, number] {
  const [a = '0', b = '0', c = '0'] = v.replace(/^v/, '').split('.');
  return [Number(a), Number(b), Number(c)];
}

/** Prometheus' `exponentialBuckets(start, factor, count)`. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let v = start;
  for (let i = 0; i < count; i++) {
    out.push(v);
    v *= factor;
  }
  return out;
}

export class MetricsRegistry {
  /** The prom-client registry behind it, for custom collectors. */
  readonly prom = new Registry();
  readonly #opts: RegistryOptions;
  readonly #hidden: string[] = [];

  constructor(opts: RegistryOptions) {
    this.#opts = opts;
  }

  /** Names of families hidden by their deprecation (kube's hidden_metrics_total counts them). */
  get hidden(): readonly string[] {
    return this.#hidden;
  }

  /** Hidden: deprecated before the running minor (component-base's shouldHide), unless shown by the flag. */
  #isHidden(o: FamilyOptions<string>): boolean {
    if (!o.deprecatedVersion || this.#opts.showHiddenForVersion) return false;
    const [maj, min] = parseVersion(o.deprecatedVersion);
    const cur = this.#opts.currentVersion;
    return maj < cur.major || (maj === cur.major && min < cur.minor);
  }

  #isDeprecated(o: FamilyOptions<string>): boolean {
    if (!o.deprecatedVersion) return false;
    const [maj, min] = parseVersion(o.deprecatedVersion);
    const cur = this.#opts.currentVersion;
    return maj < cur.major || (maj === cur.major && min <= cur.minor);
  }

  /** kube's HELP text: stability level, then the deprecation note, then the description. */
  #help(o: FamilyOptions<string>): string {
    const dep = this.#isDeprecated(o) ? `(Deprecated since ${o.deprecatedVersion}) ` : '';
    return `[${o.stabilityLevel ?? 'ALPHA'}] ${dep}${o.help}`;
  }

  /** Hidden families still work for their callers; they are just not registered, so never exposed. */
  #registers(o: FamilyOptions<string>): Registry[] {
    if (this.#isHidden(o)) {
      this.#hidden.push(o.name);
      return [];
    }
    return [this.prom];
  }

  counter<L extends string>(o: FamilyOptions<L> & { collect?: () => void | Promise<void> }): Counter<L> {
    return new Counter<L>({
      name: o.name, help: this.#help(o), labelNames: o.labelNames ?? [], registers: this.#registers(o),
      ...(o.collect ? { collect: o.collect } : {}),
    });
  }

  gauge<L extends string>(o: FamilyOptions<L> & { collect?: () => void | Promise<void> }): Gauge<L> {
    return new Gauge<L>({
      name: o.name, help: this.#help(o), labelNames: o.labelNames ?? [], registers: this.#registers(o),
      ...(o.collect ? { collect: o.collect } : {}),
    });
  }

  histogram<L extends string>(o: HistogramOptions<L>): Histogram<L> {
    return new Histogram<L>({ name: o.name, help: this.#help(o), labelNames: o.labelNames ?? [], buckets: [...o.buckets], registers: this.#registers(o) });
  }

  /** A counter whose series are cells the caller keeps (series.ts): for families bumped on every request. */
  counterVec<L extends string>(o: FamilyOptions<L>): CounterVec<L> {
    const f = new CounterVec<L>(o.name, this.#help(o), o.labelNames ?? []);
    for (const r of this.#registers(o)) r.registerMetric(f as unknown as Metric);
    return f;
  }

  /** A histogram whose series are cells the caller keeps (series.ts). */
  histogramVec<L extends string>(o: HistogramOptions<L>): HistogramVec<L> {
    const f = new HistogramVec<L>(o.name, this.#help(o), o.labelNames ?? [], [...o.buckets]);
    for (const r of this.#registers(o)) r.registerMetric(f as unknown as Metric);
    return f;
  }

  /** prom-client's process_* and nodejs_* collectors (kube-apiserver has Go's process_* and go_*). */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.prom });
  }

  /**
   * Prometheus text (0.0.4) as client_golang writes it: families sorted by name, series within a family sorted
   * by their labels, a histogram bucket's `le` after the other labels, and a vector without series left out.
   */
  async render(): Promise<string> {
    const text = await this.prom.metrics();
    const blocks: { name: string; text: string }[] = [];
    let head: string[] = [];
    let samples: string[] = [];
    const flush = (): void => {
      if (head.length === 0) return;
      const name = /^# HELP (\S+)/.exec(head[0]!)?.[1] ?? '';
      if (samples.length) blocks.push({ name, text: [...head, ...sortSeries(samples)].join('\n') });
      head = [];
      samples = [];
    };
    for (const line of text.split('\n')) {
      if (line === '') continue;
      if (line.startsWith('# HELP ')) flush();
      if (line.startsWith('#')) head.push(line);
      else samples.push(line);
    }
    flush();
    blocks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return blocks.map((b) => b.text).join('\n') + (blocks.length ? '\n' : '');
  }
}

const LE = /(^|,)le="[^"]*"/;

/** `name{labels} value` → the labels without `le`, and the line with `le` moved last. */
function splitSample(line: string): { series: string; line: string } {
  const open = line.indexOf('{');
  if (open < 0) return { series: '', line };
  const close = line.lastIndexOf('}');
  const labels = line.slice(open + 1, close);
  const le = LE.exec(labels);
  if (!le) return { series: labels, line };
  const rest = labels.replace(LE, '').replace(/^,/, '');
  const leText = le[0].replace(/^,/, '');
  return { series: rest, line: `${line.slice(0, open)}{${rest ? `${rest},` : ''}${leText}}${line.slice(close + 1)}` };
}

/** Groups a family's lines by series (a histogram's buckets, sum and count stay together, in order). */
function sortSeries(lines: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const l of lines) {
    const { series, line } = splitSample(l);
    const g = groups.get(series);
    if (g) g.push(line);
    else groups.set(series, [line]);
  }
  return [...groups.keys()].sort().flatMap((k) => groups.get(k)!);
}
