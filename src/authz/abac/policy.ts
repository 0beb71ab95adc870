/**
 * ABAC policy files (kube's pkg/auth/authorizer/abac): one JSON Policy per line, `#` comments and blank lines
 * skipped. Versioned lines are `abac.authorization.kubernetes.io/v1beta1` Policy (the `k8s.io` spelling is
 * accepted too); lines without apiVersion/kind are the legacy unversioned form, converted as kube does. Both
 * forms end up in the internal shape below, where `*` user/group already became `system:authenticated`.
 */
import { readFile } from 'node:fs/promises';

export interface PolicySpec {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

const ALL_AUTHENTICATED = 'system:authenticated';
const VERSIONS = new Set(['abac.authorization.kubernetes.io/v1beta1', 'abac.authorization.k8s.io/v1beta1']);

const s = (v: unknown): string => (typeof v === 'string' ? v : '');

/** kube's v1beta1 → internal conversion: `*` user or group means every authenticated subject. */
function fromV1beta1(spec: Record<string, unknown>): PolicySpec {
  const p = {
    user: s(spec.user), group: s(spec.group), readonly: spec.readonly === true, apiGroup: s(spec.apiGroup),
    resource: s(spec.resource), namespace: s(spec.namespace), nonResourcePath: s(spec.nonResourcePath),
  };
  if (p.user === '*' || p.group === '*') return { ...p, user: '', group: ALL_AUTHENTICATED };
  return p;
}

/** kube's v0 → internal conversion (empty fields widen: any subject, namespace, resource, path). */
function fromV0(o: Record<string, unknown>): PolicySpec {
  let user = s(o.user);
  let group = s(o.group);
  const ns = s(o.namespace);
  const res = s(o.resource);
  if (!user && !group) group = ALL_AUTHENTICATED;
  if (user === '*' || group === '*') {
    group = ALL_AUTHENTICATED;
    user = '';
  }
  return {
    user, group, readonly: o.readonly === true, apiGroup: '*', namespace: ns || '*', resource: res || '*',
    nonResourcePath: !ns && !res ? '*' : '',
  };
}

export class PolicyLoadError extends Error {
  override name = 'PolicyLoadError';
}

/** Parses a policy file's text; `file` only names it in errors. */
export function parsePolicies(text: string, file: string): { policies: PolicySpec[]; unversionedLines: number } {
  const policies: PolicySpec[] = [];
  let unversionedLines = 0;
  text.split('\n').forEach((raw, idx) => {
    const line = raw.replace(/\r$/, '');
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const fail = (msg: string): never => {
      throw new PolicyLoadError(`error reading policy file ${file}, line ${idx + 1}: ${line}: ${msg}`);
    };
    let o: unknown;
    try {
      o = JSON.parse(trimmed);
    } catch (e) {
      fail((e as Error).message);
    }
    if (!o || typeof o !== 'object' || Array.isArray(o)) return fail('not a JSON object');
    const obj = o as Record<string, unknown>;
    if (obj.apiVersion === undefined || obj.apiVersion === '' || obj.kind === undefined || obj.kind === '') {
      unversionedLines++;
      policies.push(fromV0(obj));
      return;
    }
    if (!VERSIONS.has(s(obj.apiVersion)) || obj.kind !== 'Policy') {
      fail(`no kind ${JSON.stringify(s(obj.kind))} is registered for version ${JSON.stringify(s(obj.apiVersion))}`);
    }
    const spec = obj.spec && typeof obj.spec === 'object' && !Array.isArray(obj.spec) ? obj.spec as Record<string, unknown> : {};
    policies.push(fromV1beta1(spec));
  });
  return { policies, unversionedLines };
}

export async function loadPolicyFile(file: string): Promise<{ policies: PolicySpec[]; unversionedLines: number }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new PolicyLoadError(`error reading policy file ${file}: ${(e as Error).message}`);
  }
  return parsePolicies(text, file);
}
