/**
 * The ResourceQuota plugin's configuration (`apiserver.config.k8s.io/v1` ResourceQuotaConfiguration, also the
 * older `resourcequota.admission.k8s.io` Configuration): `limitedResources` lists resources whose consumption
 * needs a covering quota — a request that consumes a name containing one of `matchContains`, or falls under one
 * of `matchScopes`, is refused unless some quota in the namespace constrains it.
 */
import { OptionsError } from '../../../machinery/errors.ts';
import type { ScopeSelector } from './evaluators.ts';

export interface LimitedResource {
  readonly apiGroup: string;
  readonly resource: string;
  readonly matchContains: readonly string[];
  readonly matchScopes: readonly ScopeSelector[];
}

const KINDS: Readonly<Record<string, string>> = {
  'apiserver.config.k8s.io/v1': 'ResourceQuotaConfiguration',
  'apiserver.config.k8s.io/v1beta1': 'ResourceQuotaConfiguration',
  'apiserver.config.k8s.io/v1alpha1': 'ResourceQuotaConfiguration',
  'resourcequota.admission.k8s.io/v1beta1': 'Configuration',
  'resourcequota.admission.k8s.io/v1alpha1': 'Configuration',
};

export function parseQuotaConfiguration(raw: unknown): LimitedResource[] {
  if (raw === undefined || raw === null) return [];
  const c = raw as { apiVersion?: unknown; kind?: unknown; limitedResources?: unknown };
  const apiVersion = typeof c.apiVersion === 'string' ? c.apiVersion : '';
  if (!KINDS[apiVersion] || KINDS[apiVersion] !== c.kind) {
    throw new OptionsError(`ResourceQuota configuration: no kind "${String(c.kind ?? '')}" is registered for version "${apiVersion}"`);
  }
  const out: LimitedResource[] = [];
  const errs: string[] = [];
  const list = Array.isArray(c.limitedResources) ? c.limitedResources : [];
  list.forEach((entry: unknown, i: number) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const resource = typeof e['resource'] === 'string' ? e['resource'] : '';
    if (!resource) errs.push(`limitedResources[${i}].resource: Required value`);
    out.push({
      apiGroup: typeof e['apiGroup'] === 'string' ? e['apiGroup'] : '',
      resource,
      matchContains: Array.isArray(e['matchContains']) ? e['matchContains'].map(String) : [],
      matchScopes: Array.isArray(e['matchScopes']) ? (e['matchScopes'] as ScopeSelector[]) : [],
    });
  });
  if (errs.length) throw new OptionsError(errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);
  return out;
}
