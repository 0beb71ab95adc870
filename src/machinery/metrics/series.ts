/**
 * Counter and histogram families for the per-request hot path. prom-client validates and hashes the label object
 * on every `inc()`/`observe()` (its `.labels()` children do too), which cost tens of µs per request under load.
 * Here a label tuple is resolved once to a cell (a plain number or bucket array) that the caller keeps and bumps
 * directly; the family renders its cells in prom-client's metric shape, so the registry prints them like any
 * prom-client family (same names, label order, value formatting).
 */

/** The shape prom-client's Registry reads from a registered metric (`get()` → name, help, type, values). */
interface PromValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

interface PromMetricData {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly values: PromValue[];
  readonly aggregator: 'sum';
}

/** One counter series. */
export class CounterCell {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
  inc(n = 1): void {
    if (!(n >= 0) || !Number.isFinite(n)) throw new RangeError(`a counter increment must be a finite number ≥ 0, got ${n}`);
    this.value += n;
  }
}

/** One histogram series: per-bucket (not cumulative) counts; values above the last bound only raise `count`. */
export class HistogramCell {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(readonly labels: Readonly<Record<string, string>>, private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(v: number): void {
    if (!Number.isFinite(v)) throw new RangeError(`a histogram observation must be a finite number, got ${v}`);
    const b = this.bounds;
    // Buckets are few (≤ 25) and most observations land in the first ones: a forward scan beats bisection.
    for (let i = 0; i < b.length; i++) {
      if (v <= b[i]!) {
        this.counts[i]! += 1;
        break;
      }
    }
    this.sum += v;
    this.count += 1;
  }
}

/** Cells by label tuple; the key is the values joined in label-name order (a NUL cannot occur in a label). */
abstract class CellFamily<L extends string, C extends { labels: Readonly<Record<string, string>> }> {
  readonly aggregator = 'sum' as const;
  #cells = new Map<string, C>();
  constructor(readonly name: string, readonly help: string, readonly labelNames: readonly L[]) {}

  protected abstract make(labels: Readonly<Record<string, string>>): C;

  /** The series for these labels, created at first use. Callers on a hot path keep the cell. */
  cell(labels: Readonly<Record<L, string>>): C {
    let key = '';
    for (const n of this.labelNames) {
      const v = labels[n];
      if (typeof v !== 'string') throw new TypeError(`metric ${this.name}: label ${n} must be a string`);
      key += `${v}\u0000`;
    }
    let c = this.#cells.get(key);
    if (!c) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) own[n] = labels[n];
      c = this.make(own);
      this.#cells.set(key, c);
    }
    return c;
  }

  protected cells(): IterableIterator<C> {
    return this.#cells.values();
  }

  reset(): void {
    this.#cells = new Map();
  }
}

export class CounterVec<L extends string> extends CellFamily<L, CounterCell> {
  readonly type = 'counter' as const;
  protected make(labels: Readonly<Record<string, string>>): CounterCell {
    return new CounterCell(labels);
  }
  inc(labels: Readonly<Record<L, string>>, n = 1): void {
    this.cell(labels).inc(n);
  }
  get(): PromMetricData {
    const values: PromValue[] = [];
    for (const c of this.cells()) values.push({ labels: c.labels, value: c.value });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

export class HistogramVec<L extends string> extends CellFamily<L, HistogramCell> {
  readonly type = 'histogram' as const;
  constructor(name: string, help: string, labelNames: readonly L[], readonly buckets: readonly number[]) {
    super(name, help, labelNames);
  }
  protected make(labels: Readonly<Record<string, string>>): HistogramCell {
    return new HistogramCell(labels, this.buckets);
  }
  observe(labels: Readonly<Record<L, string>>, v: number): void {
    this.cell(labels).observe(v);
  }
  /** Cumulative buckets, then `+Inf`, `_sum` and `_count`, as prom-client exports a histogram. */
  get(): PromMetricData {
    const values: PromValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const c of this.cells()) {
      let acc = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        acc += c.counts[i]!;
        values.push({ labels: { ...c.labels, le: this.buckets[i]! }, value: acc, metricName: bucket });
      }
      values.push({ labels: { ...c.labels, le: '+Inf' }, value: c.count, metricName: bucket });
      values.push({ labels: c.labels, value: c.sum, metricName: `${this.name}_sum` });
      values.push({ labels: c.labels, value: c.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}
