/**
 * Feature gates as kube's component-base featuregate does them: a fixed set of known gates (known-gates.ts),
 * overridden by `--feature-gates=Name=bool,...`. Validation follows SetFromMap: an unknown name stops at once
 * (`unrecognized feature gate: X`), a locked gate set to another value is refused (`cannot set feature gate X
 * to false, feature is locked to true`), several errors are reported together as `[e1, e2]`. Setting a
 * deprecated or GA gate is accepted with a warning that the gate will be removed.
 *
 * Invariant: a FeatureGates object is immutable once created; `enabled` answers for every known gate.
 */
import { ALL_ALPHA_GATE, ALL_BETA_GATE, KUBE_1_33_GATES, type FeatureSpec, type FeatureStage } from './known-gates.ts';

export class FeatureGateError extends Error {
  override readonly name = 'FeatureGateError';
}

export interface FeatureGateOptions {
  /** Receives kube's warning texts (without log prefix). Default: dropped. */
  readonly warn?: (message: string) => void;
  /** The known gates; defaults to kube-apiserver v1.33's. Tests pass their own. */
  readonly known?: Readonly<Record<string, FeatureSpec>>;
}

/** The read side handed to code paths that depend on a gate. */
export interface FeatureGateReader {
  enabled(name: string): boolean;
}

/** utilerrors.NewAggregate's message: one error as is, several as `[a, b]`. */
function aggregate(errs: readonly string[]): string {
  return errs.length === 1 ? (errs[0] as string) : `[${errs.join(', ')}]`;
}

export class FeatureGates implements FeatureGateReader {
  private constructor(
    private readonly known: Readonly<Record<string, FeatureSpec>>,
    private readonly values: ReadonlyMap<string, boolean>,
  ) {}

  /** The defaults, nothing overridden. */
  static defaults(known: Readonly<Record<string, FeatureSpec>> = KUBE_1_33_GATES): FeatureGates {
    return FeatureGates.create({}, { known });
  }

  /**
   * Applies `overrides` (the parsed `--feature-gates` map, in flag order) to the defaults.
   * Throws FeatureGateError with kube's wording when a name is unknown or a locked gate would change.
   */
  static create(overrides: Readonly<Record<string, boolean>> = {}, opts: FeatureGateOptions = {}): FeatureGates {
    const known = opts.known ?? KUBE_1_33_GATES;
    const values = new Map<string, boolean>();
    for (const [name, spec] of Object.entries(known)) values.set(name, spec.default);
    const errs: string[] = [];
    const warnings: string[] = [];
    const explicit = new Set<string>();
    const entries = Object.entries(overrides);
    for (const [name, value] of entries) {
      const spec = Object.hasOwn(known, name) ? known[name] : undefined;
      if (!spec) {
        // kube returns at the first unknown gate, with what it had collected so far.
        errs.push(`unrecognized feature gate: ${name}`);
        throw new FeatureGateError(aggregate(errs));
      }
      if (spec.lockToDefault && spec.default !== value) {
        errs.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
        continue;
      }
      explicit.add(name);
      values.set(name, value);
      if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
      else if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    }
    if (errs.length) throw new FeatureGateError(aggregate(errs));
    // AllAlpha / AllBeta set every gate of their stage that was not named explicitly.
    const metas: [string, FeatureStage][] = [[ALL_ALPHA_GATE, 'ALPHA'], [ALL_BETA_GATE, 'BETA']];
    for (const [meta, stage] of metas) {
      if (!explicit.has(meta)) continue;
      const v = values.get(meta) as boolean;
      for (const [name, spec] of Object.entries(known)) {
        if (spec.stage === stage && name !== meta && !explicit.has(name) && !spec.lockToDefault) values.set(name, v);
      }
    }
    for (const w of warnings) opts.warn?.(w);
    return new FeatureGates(known, values);
  }

  /** Whether the gate is on. Throws for a name that is not registered (kube panics: a programming error). */
  enabled(name: string): boolean {
    const v = this.values.get(name);
    if (v === undefined) throw new Error(`feature "${name}" is not registered in FeatureGate`);
    return v;
  }

  /** The spec of a known gate, or undefined. */
  spec(name: string): FeatureSpec | undefined {
    return Object.hasOwn(this.known, name) ? this.known[name] : undefined;
  }

  /**
   * The `--feature-gates` help lines as component-base's KnownFeatures gives them: `Name=true|false (STAGE -
   * default=bool)`, sorted; GA and deprecated gates are left out (AllAlpha/AllBeta always listed).
   */
  static knownFeatures(known: Readonly<Record<string, FeatureSpec>> = KUBE_1_33_GATES): string[] {
    return Object.entries(known)
      .filter(([name, spec]) => name === ALL_ALPHA_GATE || name === ALL_BETA_GATE || (spec.stage !== 'GA' && spec.stage !== 'DEPRECATED'))
      .map(([name, spec]) => `${name}=true|false (${spec.stage} - default=${spec.default})`)
      .sort();
  }

  /** `Name=bool` pairs, sorted, as featureGate.String() prints them. */
  toString(): string {
    return [...this.values].map(([k, v]) => `${k}=${v}`).sort().join(',');
  }
}
