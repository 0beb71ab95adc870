/**
 * Attributes → SubjectAccessReview spec (authorization.k8s.io/v1 shape, the one match conditions and the cache
 * key use) and the v1beta1 wire form (`group` instead of `groups`), as kube's webhook authorizer builds them.
 */
import type { Attributes } from '../../request/authorizer.ts';
import type { LabelRequirement } from '../../machinery/selectors/labels.ts';

export interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface SarSpec {
  resourceAttributes?: Record<string, unknown>;
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

/** kube's fieldSelectorToAuthorizationAPI: `=`/`==` → In, `!=` → NotIn, one value each. */
export function fieldRequirementsForSar(attrs: Attributes): SelectorRequirement[] {
  return (attrs.fieldSelectorRequirements ?? []).map((r) => ({ key: r.field, operator: r.operator === '!=' ? 'NotIn' : 'In', values: [r.value] }));
}

const LABEL_OPS: Partial<Record<LabelRequirement['operator'], string>> = {
  in: 'In', '=': 'In', '==': 'In', notin: 'NotIn', '!=': 'NotIn', exists: 'Exists', '!': 'DoesNotExist',
};

/** kube's labelSelectorToAuthorizationAPI; `gt`/`lt` are dropped (requirements are AND'd, so dropping only widens). */
export function labelRequirementsForSar(attrs: Attributes): SelectorRequirement[] {
  const out: SelectorRequirement[] = [];
  for (const r of attrs.labelSelectorRequirements ?? []) {
    const op = LABEL_OPS[r.operator];
    if (!op) continue;
    out.push(op === 'Exists' || op === 'DoesNotExist' ? { key: r.key, operator: op } : { key: r.key, operator: op, values: [...r.values] });
  }
  return out;
}

const set = (o: Record<string, unknown>, k: string, v: unknown): void => {
  if (v !== '' && v !== undefined) o[k] = v;
};

/** The v1 spec; selector requirements only when `withSelectors` (the AuthorizeWithSelectors gate). */
export function sarSpecFrom(attrs: Attributes, withSelectors: boolean): SarSpec {
  const u = attrs.user;
  const spec: SarSpec = {};
  if (attrs.isResourceRequest) {
    const ra: Record<string, unknown> = {};
    set(ra, 'namespace', attrs.namespace);
    set(ra, 'verb', attrs.verb);
    set(ra, 'group', attrs.apiGroup);
    set(ra, 'version', attrs.apiVersion);
    set(ra, 'resource', attrs.resource);
    set(ra, 'subresource', attrs.subresource);
    set(ra, 'name', attrs.name);
    if (withSelectors) {
      const fr = fieldRequirementsForSar(attrs);
      if (fr.length) ra.fieldSelector = { requirements: fr };
      const lr = labelRequirementsForSar(attrs);
      if (lr.length) ra.labelSelector = { requirements: lr };
    }
    spec.resourceAttributes = ra;
  } else {
    const nra: { path?: string; verb?: string } = {};
    if (attrs.path) nra.path = attrs.path;
    if (attrs.verb) nra.verb = attrs.verb;
    spec.nonResourceAttributes = nra;
  }
  if (u.username) spec.user = u.username;
  if (u.groups.length) spec.groups = [...u.groups];
  if (u.extra && Object.keys(u.extra).length) spec.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  if (u.uid) spec.uid = u.uid;
  return spec;
}

/** The request body on the wire for `version`. */
export function sarBody(spec: SarSpec, version: 'v1' | 'v1beta1'): Record<string, unknown> {
  let wire: Record<string, unknown> = { ...spec };
  if (version === 'v1beta1' && spec.groups) {
    const { groups, ...rest } = spec;
    wire = { ...rest, group: groups };
  }
  return { kind: 'SubjectAccessReview', apiVersion: `authorization.k8s.io/${version}`, metadata: { creationTimestamp: null }, spec: wire, status: { allowed: false } };
}

export interface SarStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

/** Reads the reply's status; throws when the reply is not a SubjectAccessReview of the version asked for. */
export function sarStatusFrom(body: unknown, version: 'v1' | 'v1beta1'): SarStatus {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('webhook reply is not a JSON object');
  const b = body as Record<string, unknown>;
  const want = `authorization.k8s.io/${version}`;
  if (b.apiVersion !== undefined && b.apiVersion !== want) throw new Error(`webhook reply has apiVersion ${JSON.stringify(b.apiVersion)}, expected ${JSON.stringify(want)}`);
  if (b.kind !== undefined && b.kind !== 'SubjectAccessReview') throw new Error(`webhook reply has kind ${JSON.stringify(b.kind)}, expected "SubjectAccessReview"`);
  const s = (b.status ?? {}) as Record<string, unknown>;
  if (typeof s !== 'object' || Array.isArray(s)) throw new Error('webhook reply status is not an object');
  const bool = (k: string): boolean => {
    if (s[k] === undefined || s[k] === null) return false;
    if (typeof s[k] !== 'boolean') throw new Error(`webhook reply status.${k} is not a boolean`);
    return s[k];
  };
  const out: SarStatus = { allowed: bool('allowed') };
  if (bool('denied')) out.denied = true;
  if (typeof s.reason === 'string' && s.reason) out.reason = s.reason;
  if (typeof s.evaluationError === 'string' && s.evaluationError) out.evaluationError = s.evaluationError;
  return out;
}
