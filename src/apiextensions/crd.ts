/**
 * Typed reads of CustomResourceDefinition objects (apiextensions.k8s.io/v1) as the rest of src/apiextensions
 * uses them, plus kube's condition helpers (apihelpers.SetCRDCondition & co.) and version priority order.
 * Objects arrive as decoded JSON: every accessor tolerates missing or mistyped fields.
 */
import type { KObject } from '../machinery/objects.ts';
import { compareKubeVersions } from '../machinery/kube-version.ts';

export const CRD_GROUP = 'apiextensions.k8s.io';
export const CRD_RESOURCE = 'customresourcedefinitions';
/** The finalizer kube's CRD REST adds on the first DELETE; the finalizer controller removes it. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export interface CrdNames {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CrdColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
  subresources?: { status?: Record<string, unknown>; scale?: CrdScale };
  additionalPrinterColumns?: CrdColumn[];
  selectableFields?: { jsonPath: string }[];
}

export interface CrdSpec {
  group: string;
  names: CrdNames;
  scope: string;
  versions: CrdVersion[];
  conversion?: { strategy?: string; webhook?: unknown };
  preserveUnknownFields?: boolean;
}

export interface CrdStatus {
  conditions?: CrdCondition[];
  acceptedNames?: Partial<CrdNames>;
  storedVersions?: string[];
}

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export function crdSpec(crd: KObject): CrdSpec {
  const s = rec(crd['spec']);
  const names = rec(s['names']);
  return {
    group: typeof s['group'] === 'string' ? s['group'] : '',
    names: {
      plural: String(names['plural'] ?? ''), singular: String(names['singular'] ?? ''), kind: String(names['kind'] ?? ''),
      listKind: String(names['listKind'] ?? ''),
      ...(Array.isArray(names['shortNames']) ? { shortNames: (names['shortNames'] as unknown[]).map(String) } : {}),
      ...(Array.isArray(names['categories']) ? { categories: (names['categories'] as unknown[]).map(String) } : {}),
    },
    scope: typeof s['scope'] === 'string' ? s['scope'] : '',
    versions: (Array.isArray(s['versions']) ? s['versions'] : []).map((v) => rec(v) as unknown as CrdVersion),
    ...(s['conversion'] ? { conversion: rec(s['conversion']) as CrdSpec['conversion'] } : {}),
    ...(s['preserveUnknownFields'] !== undefined ? { preserveUnknownFields: s['preserveUnknownFields'] === true } : {}),
  };
}

export function crdStatus(crd: KObject): CrdStatus {
  return rec(crd['status']) as CrdStatus;
}

export function findCondition(crd: KObject, type: string): CrdCondition | undefined {
  return (crdStatus(crd).conditions ?? []).find((c) => c.type === type);
}

export function isConditionTrue(crd: KObject, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/**
 * apihelpers.SetCRDCondition on a mutable object: the transition time changes only with the status.
 * Returns whether anything changed.
 */
export function setCondition(crd: KObject, c: Omit<CrdCondition, 'lastTransitionTime'>, now: string): boolean {
  const status = rec(crd['status']);
  crd['status'] = status;
  const list = (Array.isArray(status['conditions']) ? status['conditions'] : []) as CrdCondition[];
  status['conditions'] = list;
  const cur = list.find((x) => x.type === c.type);
  if (!cur) {
    list.push({ type: c.type, status: c.status, lastTransitionTime: now, ...(c.reason !== undefined ? { reason: c.reason } : {}), ...(c.message !== undefined ? { message: c.message } : {}) });
    return true;
  }
  const changed = cur.status !== c.status || cur.reason !== c.reason || cur.message !== c.message;
  if (cur.status !== c.status || !cur.lastTransitionTime) cur.lastTransitionTime = now;
  cur.status = c.status;
  if (c.reason !== undefined) cur.reason = c.reason;
  else delete cur.reason;
  if (c.message !== undefined) cur.message = c.message;
  else delete cur.message;
  return changed;
}

export function storageVersionOf(spec: CrdSpec): string | undefined {
  return spec.versions.find((v) => v.storage === true)?.name;
}

/** Served versions, highest priority first (the preferred version leads discovery). */
export function servedVersions(spec: CrdSpec): CrdVersion[] {
  return spec.versions.filter((v) => v.served === true).sort((a, b) => compareKubeVersions(a.name, b.name));
}

export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
