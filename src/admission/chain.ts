/**
 * The admission chain: the enabled plugins in kube's fixed order (never the order of the flags). The mutating
 * phase runs every plugin's `admit`; when one asked for reinvocation (a webhook with reinvocationPolicy
 * IfNeeded saw the object change after it ran), the whole mutating phase runs once more with
 * `reinvocation.running` set. The validating phase runs every `validate`. The first refusal ends a phase;
 * anything but a StatusError becomes a 500, as kube reports unexpected admission errors.
 */
import { errors, StatusError } from '../machinery/errors.ts';
import type { Admission, AdmissionAttributes, AdmissionPlugin } from './types.ts';

export class AdmissionChain implements Admission {
  readonly #mutating: readonly AdmissionPlugin[];
  readonly #validating: readonly AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    this.#mutating = plugins.filter((p) => p.admit);
    this.#validating = plugins.filter((p) => p.validate);
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
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
    await this.#run(this.#validating, attrs, 'validate');
  }

  async #run(plugins: readonly AdmissionPlugin[], attrs: AdmissionAttributes, phase: 'admit' | 'validate'): Promise<void> {
    for (const p of plugins) {
      if (!p.operations.has(attrs.operation)) continue;
      try {
        await p[phase]!(attrs);
      } catch (e) {
        if (e instanceof StatusError) throw e;
        throw errors.internal(`admission plugin ${JSON.stringify(p.name)} failed: ${(e as Error).message ?? String(e)}`);
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
