/**
 * The admission chain: the enabled plugins in kube's fixed order (never the order of the flags). The mutating
 * phase runs every plugin's `admit`; when one asked for reinvocation (a webhook with reinvocationPolicy
 * IfNeeded saw the object change after it ran), the whole mutating phase runs once more with
 * `reinvocation.running` set. The validating phase runs every `validate`. The first refusal ends a phase;
 * anything but a StatusError becomes a 500, as kube reports unexpected admission errors.
 */
import { errors, StatusError } from '../machinery/errors.ts';
import type { Admission, AdmissionAttributes, AdmissionMetricsSink, AdmissionPlugin } from './types.ts';

export type { AdmissionMetricsSink };


const since = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e9;

export class AdmissionChain implements Admission {
  readonly #mutating: readonly AdmissionPlugin[];
  readonly #validating: readonly AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[], private readonly metrics?: AdmissionMetricsSink) {
    this.#mutating = plugins.filter((p) => p.admit);
    this.#validating = plugins.filter((p) => p.validate);
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    await this.#step(attrs, 'admit', () => this.#admit(attrs));
  }

  async #admit(attrs: AdmissionAttributes): Promise<void> {
    await this.#run(this.#mutating, attrs, 'admit');
    if (attrs.reinvocation.requested && !attrs.reinvocation.running) {
      attrs.reinvocation.running = true;
      try {
        await this.#run(this.#mutating, attrs, 'admit');
      } finally {
        attrs.reinvocation.running = false;
        attrs.reinvocation.requested = false;
      }
    }
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    await this.#step(attrs, 'validate', () => this.#run(this.#validating, attrs, 'validate'));
  }

  /** Times one phase (kube's step metric: the whole mutating or validating chain). */
  async #step(attrs: AdmissionAttributes, type: 'admit' | 'validate', f: () => Promise<void>): Promise<void> {
    if (!this.metrics) return f();
    const t0 = process.hrtime.bigint();
    let rejected = true;
    try {
      await f();
      rejected = false;
    } finally {
      this.metrics.observeAdmissionStep(type, attrs.operation, rejected, since(t0));
    }
  }

  async #run(plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, phase: 'admit' | 'validate'): Promise<void> {
    for (const p of plugins) {
      if (!p.operations.has(attrs.operation)) continue;
      const t0 = this.metrics ? process.hrtime.bigint() : 0n;
      let rejected = true;
      try {
        await p[phase]!(attrs);
        rejected = false;
      } catch (e) {
        if (e instanceof StatusError) throw e;
        throw errors.internal(`admission plugin ${JSON.stringify(p.name)} failed: ${(e as Error).message ?? String(e)}`);
      } finally {
        this.metrics?.observeAdmissionController(p.name, phase, attrs.operation, rejected, since(t0));
      }
    }
  }

  async ready(): Promise<void> {
    await Promise.all(this.plugins.map(async (p) => { await p.ready?.(); }));
  }

  async stop(): Promise<void> {
    await Promise.all(this.plugins.map(async (p) => { await p.stop?.(); }));
  }
}
