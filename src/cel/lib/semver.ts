/**
 * kube's semver library at version 1 (apiserver/pkg/cel/library/semverlib.go): semver(string[, normalize]),
 * isSemver(string[, normalize]), major/minor/patch, isLessThan/isGreaterThan/compareTo and equality, with
 * blang/semver's strict parsing (normalize: optional `v` prefix, missing minor/patch, leading zeros).
 */
import { chargeTraversal } from '../runtime-cost.ts';
import { celError, fn, opaqueType, type CelJsEnv } from './register.ts';

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export class CelSemver {
  constructor(readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly pre: readonly string[], readonly build: string) {}
  compare(o: CelSemver): number {
    for (const k of ['major', 'minor', 'patch'] as const) if (this[k] !== o[k]) return this[k] < o[k] ? -1 : 1;
    if (this.pre.length === 0 || o.pre.length === 0) return this.pre.length === o.pre.length ? 0 : this.pre.length === 0 ? 1 : -1;
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const a = this.pre[i]!;
      const b = o.pre[i]!;
      if (a === b) continue;
      const an = /^\d+$/.test(a);
      const bn = /^\d+$/.test(b);
      if (an && bn) return BigInt(a) < BigInt(b) ? -1 : 1;
      if (an !== bn) return an ? -1 : 1;
      return a < b ? -1 : 1;
    }
    return Math.sign(this.pre.length - o.pre.length);
  }
  equals(o: unknown): boolean {
    return o instanceof CelSemver && this.compare(o) === 0;
  }
  toString(): string {
    return `${this.major}.${this.minor}.${this.patch}${this.pre.length ? `-${this.pre.join('.')}` : ''}${this.build ? `+${this.build}` : ''}`;
  }
}

/** Parse; the version or an error message. */
export function parseSemver(input: string, normalize: boolean): CelSemver | string {
  let s = input;
  if (normalize) {
    if (s.startsWith('v')) s = s.slice(1);
    const m = /^([0-9.]*)(.*)$/.exec(s)!;
    const core = m[1]!.split('.').filter((p, i, a) => p !== '' || i < a.length - 1);
    if (core.length >= 1 && core.length <= 3 && core.every((p) => /^\d+$/.test(p))) {
      while (core.length < 3) core.push('0');
      s = core.map((p) => String(BigInt(p))).join('.') + m[2];
    }
  }
  const m = SEMVER.exec(s);
  if (!m) return `could not parse ${JSON.stringify(input)} as version`;
  return new CelSemver(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!), m[4] ? m[4].split('.') : [], m[5] ?? '');
}

function semver(s: string, normalize: boolean): CelSemver {
  chargeTraversal(s.length);
  const r = parseSemver(s, normalize);
  if (typeof r === 'string') throw celError(r);
  return r;
}

export function registerSemver(env: CelJsEnv): void {
  opaqueType(env, 'kubernetes.Semver', CelSemver, true);
  fn(env, 'semver(string): kubernetes.Semver', (s: string) => semver(s, false));
  fn(env, 'semver(string, bool): kubernetes.Semver', (s: string, n: boolean) => semver(s, n));
  fn(env, 'isSemver(string): bool', (s: string) => (chargeTraversal(s.length), typeof parseSemver(s, false) !== 'string'));
  fn(env, 'isSemver(string, bool): bool', (s: string, n: boolean) => (chargeTraversal(s.length), typeof parseSemver(s, n) !== 'string'));
  fn(env, 'kubernetes.Semver.major(): int', (v: CelSemver) => v.major);
  fn(env, 'kubernetes.Semver.minor(): int', (v: CelSemver) => v.minor);
  fn(env, 'kubernetes.Semver.patch(): int', (v: CelSemver) => v.patch);
  fn(env, 'kubernetes.Semver.isLessThan(kubernetes.Semver): bool', (a: CelSemver, b: CelSemver) => a.compare(b) < 0);
  fn(env, 'kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool', (a: CelSemver, b: CelSemver) => a.compare(b) > 0);
  fn(env, 'kubernetes.Semver.compareTo(kubernetes.Semver): int', (a: CelSemver, b: CelSemver) => BigInt(a.compare(b)));
}
