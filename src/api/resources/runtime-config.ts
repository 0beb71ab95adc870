/**
 * `--runtime-config` as kube-apiserver reads it (k8s.io/apiserver/pkg/server/resourceconfig): keys are
 * `api/all`, `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>` (core: `v1` or `api/v1`), and
 * `<group>/<version>/<resource>` (not supported: rejected by name). Values are `true`/`false` (empty = true).
 * Later, more specific keys win: all < ga/beta/alpha < group/version.
 */
import { maturityOf, type GroupSpec } from './define.ts';

export class RuntimeConfigError extends Error {
  override name = 'RuntimeConfigError';
}

export type VersionDecider = (group: string, version: string, enabledByDefault: boolean) => boolean;

function parseBool(key: string, v: string): boolean {
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  throw new RuntimeConfigError(`invalid value of ${key}: ${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

/**
 * Validates the map against the known groups and returns the decision function.
 * @throws RuntimeConfigError for unknown group versions, per-resource keys, or non-boolean values.
 */
export function parseRuntimeConfig(config: Record<string, string> | undefined, groups: readonly GroupSpec[]): VersionDecider {
  let all: boolean | undefined;
  const byMaturity: Partial<Record<'ga' | 'beta' | 'alpha', boolean>> = {};
  const byGV = new Map<string, boolean>();
  const known = new Set<string>();
  for (const g of groups) for (const v of g.versions) known.add(g.group ? `${g.group}/${v.version}` : v.version);

  for (const [rawKey, value] of Object.entries(config ?? {})) {
    const key = rawKey.trim();
    if (key === 'api/all') { all = parseBool(key, value); continue; }
    if (key === 'api/ga') { byMaturity.ga = parseBool(key, value); continue; }
    if (key === 'api/beta') { byMaturity.beta = parseBool(key, value); continue; }
    if (key === 'api/alpha') { byMaturity.alpha = parseBool(key, value); continue; }
    let gv = key === 'api/v1' || key === 'api/legacy' ? 'v1' : key;
    const parts = gv.split('/');
    if (parts.length > 2) throw new RuntimeConfigError(`runtime-config setting ${key} is a resource, not a group version: per-resource settings are not supported`);
    if (parts.length === 2 && parts[0] === 'api') gv = parts[1]!;
    if (!known.has(gv)) throw new RuntimeConfigError(`unknown api groups ${gv}`);
    byGV.set(gv, parseBool(key, value));
  }

  return (group, version, enabledByDefault) => {
    const gv = group ? `${group}/${version}` : version;
    const explicit = byGV.get(gv);
    if (explicit !== undefined) return explicit;
    const mat = byMaturity[maturityOf(version)];
    if (mat !== undefined) return mat;
    if (all !== undefined) return all;
    return enabledByDefault;
  };
}
