/**
 * The check tables per level and policy version, computed once (the library's checkRegistry): for every minor
 * version from v1.0 up to the newest version any check names, the revision of each check in force then, ordered
 * by check id (baseline checks first, then restricted ones). A restricted check may replace baseline checks
 * (restricted volume types replace hostPath volumes; the restricted capability and seccomp rules replace the
 * baseline ones from the version they appear). `latest` and versions past the newest evaluate the newest table.
 * Evaluating a pod is then one array walk.
 */
import type { LevelVersion } from './api.ts';
import { CHECKS, type Check, type CheckContext, type CheckFn, type PodMetaLike, type PodSpecLike, type Violation, type VersionedCheck } from './checks.ts';

/** The failed checks of one evaluation, in table order. */
export interface AggregateResult {
  readonly allowed: boolean;
  readonly violations: readonly Violation[];
}

const UNKNOWN_REASON = 'unknown forbidden reason';

/** Reasons only: `host ports, privileged` (what namespace relabel warnings show). */
export function forbiddenReason(r: AggregateResult): string {
  return r.violations.map((v) => v.reason || UNKNOWN_REASON).join(', ');
}

/** Reasons with their details in parentheses: `hostPort (container "a" uses hostPort 80), privileged (…)`. */
export function forbiddenDetail(r: AggregateResult): string {
  return r.violations.map((v) => `${v.reason || UNKNOWN_REASON}${v.detail ? ` (${v.detail})` : ''}`).join(', ');
}

const ALLOWED: AggregateResult = Object.freeze({ allowed: true, violations: Object.freeze([]) });

export class Evaluator {
  /** Index = minor version. */
  private readonly baseline: CheckFn[][] = [];
  private readonly restricted: CheckFn[][] = [];
  /** The newest minor version any check names. */
  readonly maxMinor: number;

  constructor(checks: readonly Check[] = CHECKS, private readonly context: CheckContext = { relaxForUserNamespaces: false }) {
    validate(checks);
    this.maxMinor = Math.max(0, ...checks.map((c) => c.versions.at(-1)!.minimumVersion));
    const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const baselineChecks = checks.filter((c) => c.level === 'baseline').sort(byId);
    const restrictedChecks = checks.filter((c) => c.level === 'restricted').sort(byId);
    for (let minor = 0; minor <= this.maxMinor; minor++) {
      const inForce = (c: Check): VersionedCheck | undefined => c.versions.findLast((v) => v.minimumVersion <= minor);
      const base = baselineChecks.map((c) => ({ c, v: inForce(c) })).filter((x) => x.v);
      const strict = restrictedChecks.map((c) => ({ c, v: inForce(c) })).filter((x) => x.v);
      const overridden = new Set(strict.flatMap((x) => x.v!.overrides ?? []));
      this.baseline[minor] = base.map((x) => x.v!.check);
      this.restricted[minor] = [...base.filter((x) => !overridden.has(x.c.id)), ...strict].map((x) => x.v!.check);
    }
  }

  /** The checks `lv` runs, in order (none for privileged). */
  checksFor(lv: LevelVersion): readonly CheckFn[] {
    if (lv.level === 'privileged') return [];
    const minor = lv.version.latest || lv.version.minor > this.maxMinor ? this.maxMinor : lv.version.minor;
    return (lv.level === 'baseline' ? this.baseline : this.restricted)[minor]!;
  }

  evaluate(lv: LevelVersion, meta: PodMetaLike, spec: PodSpecLike): AggregateResult {
    let violations: Violation[] | undefined;
    for (const check of this.checksFor(lv)) {
      const v = check(meta, spec, this.context);
      if (v) (violations ??= []).push(v);
    }
    return violations ? { allowed: false, violations } : ALLOWED;
  }
}

/** The library's rules for a check list: unique ids, increasing versions, overrides only from restricted to baseline. */
function validate(checks: readonly Check[]): void {
  const levels = new Map<string, string>();
  for (const c of checks) {
    if (levels.has(c.id)) throw new Error(`multiple checks registered for ID ${c.id}`);
    levels.set(c.id, c.level);
    if (!c.versions.length) throw new Error(`check ${c.id}: empty`);
    let last = -1;
    for (const v of c.versions) {
      if (v.minimumVersion <= last) throw new Error(`check ${c.id}: versions must be strictly increasing`);
      last = v.minimumVersion;
    }
  }
  for (const c of checks) {
    for (const v of c.versions) {
      if (!v.overrides?.length) continue;
      if (c.level !== 'restricted') throw new Error(`check ${c.id}: only restricted checks may set overrides`);
      for (const o of v.overrides) if (levels.has(o) && levels.get(o) !== 'baseline') throw new Error(`check ${c.id}: overrides ${levels.get(o)} check ${o}`);
    }
  }
}
