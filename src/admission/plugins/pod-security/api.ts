/**
 * Pod Security's vocabulary (k8s.io/pod-security-admission/api at v1.33): the three levels, policy versions
 * (`latest` or `v1.<minor>`), the namespace labels that choose them and how a namespace's labels resolve to the
 * policy evaluated, falling back to the configured defaults. Messages are the library's: they reach clients in
 * 422 bodies and audit annotations.
 */
import { FieldError, field } from '../../../machinery/errors.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';

export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

/** Audit annotation keys (the plugin prefixes them with LABEL_PREFIX). */
export const EXEMPTION_REASON_ANNOTATION = 'exempt';
export const AUDIT_VIOLATIONS_ANNOTATION = 'audit-violations';
export const ENFORCED_POLICY_ANNOTATION = 'enforce-policy';

const LEVEL_ERROR = `must be one of ${LEVELS.join(', ')}`;
const VERSION_ERROR = 'must be "latest" or "v1.x"';
/** Go's int is 64 bits: a minor beyond it does not parse. */
const MAX_INT64 = 9223372036854775807n;

/**
 * A policy version: `latest` (newer than any numbered version) or `v1.<minor>`. Only major 1 exists. Versions
 * compare by `key`; `minor` is exact for every version a check could name (the text keeps huge minors exact).
 */
export class Version {
  private constructor(readonly latest: boolean, readonly minor: number, private readonly text: string) {}

  static readonly LATEST = new Version(true, Number.POSITIVE_INFINITY, 'latest');

  static of(minor: number): Version {
    return new Version(false, minor, `v1.${minor}`);
  }

  /** `latest` or `v1.x`; anything else is an error (and `latest` is what is evaluated meanwhile). */
  static parse(s: string): { version: Version; error?: string } {
    if (s === 'latest') return { version: Version.LATEST };
    const m = /^v1\.([0-9]|[1-9][0-9]*)$/.exec(s);
    if (!m || BigInt(m[1]!) > MAX_INT64) return { version: Version.LATEST, error: VERSION_ERROR };
    return { version: new Version(false, Number(m[1]), s) };
  }

  get key(): string {
    return this.text;
  }

  toString(): string {
    return this.text;
  }

  /** This version is older than `other` (`latest` is never older; everything else is older than `latest`). */
  older(other: Version): boolean {
    if (this.latest) return false;
    if (other.latest) return true;
    return this.minor < other.minor;
  }

  equals(other: Version): boolean {
    return this.text === other.text;
  }
}

export function parseLevel(s: string): { level: Level; error?: string } {
  return (LEVELS as readonly string[]).includes(s) ? { level: s as Level } : { level: 'restricted', error: LEVEL_ERROR };
}

export interface LevelVersion {
  readonly level: Level;
  readonly version: Version;
}

export const lvString = (lv: LevelVersion): string => `${lv.level}:${lv.version.toString()}`;
export const lvEqual = (a: LevelVersion, b: LevelVersion): boolean => a.level === b.level && a.version.equals(b.version);
/** Both privileged (the version does not matter then), or the same level and version. */
const lvEquivalent = (a: LevelVersion, b: LevelVersion): boolean => (a.level === 'privileged' && b.level === 'privileged') || lvEqual(a, b);

export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

export const policyEquivalent = (a: Policy, b: Policy): boolean =>
  lvEquivalent(a.enforce, b.enforce) && lvEquivalent(a.audit, b.audit) && lvEquivalent(a.warn, b.warn);

export const fullyPrivileged = (p: Policy): boolean =>
  p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';

const STRICTNESS: Readonly<Record<Level, number>> = { privileged: 0, baseline: 1, restricted: 2 };

/** -1, 0 or 1 as `a` is less strict than, as strict as or stricter than `b`. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(STRICTNESS[a] - STRICTNESS[b]);
}

const labelPath = (label: string) => `metadata.labels[${label}]`;

/**
 * The policy a namespace's labels select, defaults filling what they leave out. Always returns a policy to
 * evaluate, with the label errors beside it: a bad enforce level means `restricted`, a bad audit or warn level
 * `privileged` (audit and warn fail open), a bad version `latest`. Without an explicit warn level, warn follows
 * an explicitly set enforce level that is stricter than the default warn level (and its version, unless a warn
 * version is given).
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const errs: FieldError[] = [];
  if (!labels || Object.keys(labels).length === 0) return { policy: defaults, errors: errs };
  let { enforce, audit, warn } = defaults;
  const has = (k: string) => Object.hasOwn(labels, k);
  const lvl = (label: string) => {
    const v = labels[label]!;
    const r = parseLevel(v);
    if (r.error) errs.push(field.invalid(labelPath(label), v, r.error));
    return r;
  };
  const ver = (label: string) => {
    const v = labels[label]!;
    const r = Version.parse(v);
    if (r.error) errs.push(field.invalid(labelPath(label), v, r.error));
    return r.version;
  };
  let hasEnforceLevel = false;
  if (has(ENFORCE_LEVEL_LABEL)) {
    const r = lvl(ENFORCE_LEVEL_LABEL);
    enforce = { ...enforce, level: r.level };
    hasEnforceLevel = !r.error;
  }
  if (has(ENFORCE_VERSION_LABEL)) enforce = { ...enforce, version: ver(ENFORCE_VERSION_LABEL) };
  if (has(AUDIT_LEVEL_LABEL)) {
    const r = lvl(AUDIT_LEVEL_LABEL);
    audit = { ...audit, level: r.error ? 'privileged' : r.level };
  }
  if (has(AUDIT_VERSION_LABEL)) audit = { ...audit, version: ver(AUDIT_VERSION_LABEL) };
  const hasWarnLevel = has(WARN_LEVEL_LABEL);
  if (hasWarnLevel) {
    const r = lvl(WARN_LEVEL_LABEL);
    warn = { ...warn, level: r.error ? 'privileged' : r.level };
  }
  const hasWarnVersion = has(WARN_VERSION_LABEL);
  if (hasWarnVersion) warn = { ...warn, version: ver(WARN_VERSION_LABEL) };
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(enforce.level, warn.level) > 0) {
    warn = { level: enforce.level, version: hasWarnVersion ? warn.version : enforce.version };
  }
  return { policy: { enforce, audit, warn }, errors: errs };
}

/**
 * apimachinery's ErrorList.ToAggregate().Error(): identical messages once, one message alone, several in
 * brackets separated by ", "; '' for none.
 */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}
