/**
 * OpenAPI schemas of custom resource kinds for /openapi/v2 and /openapi/v3 (kube's
 * controller/openapi/builder): the version's schema with apiVersion, kind and metadata (ObjectMeta) added,
 * `x-kubernetes-group-version-kind` set, a list kind, and for v2 the constructs Swagger 2.0 lacks removed
 * (nullable, anyOf/oneOf/not, x-kubernetes-int-or-string typed loosely). The schema engine's own documents
 * (`def.custom.openapiV3/V2`) win when it provides them.
 */
import type { ResourceDef } from '../../api/types.ts';
import type { Dialect, Schema, SchemaSource } from '../../api/openapi/schemas.ts';
import { isCustomResourceDef } from '../../registry/customresources/resource-def.ts';
import { definitionName } from '../../api/openapi/names.ts';
import { CRD_DOCS } from '../../apiextensions/schema/index.ts';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

function refTo(name: string, dialect: Dialect): Schema {
  return { $ref: dialect === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}` };
}

/** Swagger 2.0 has no nullable/anyOf/oneOf/not; kube drops them (and the int-or-string type). */
function toV2(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(toV2);
  if (!s || typeof s !== 'object') return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s as Schema)) {
    if (k === 'nullable' || k === 'anyOf' || k === 'oneOf' || k === 'not' || k === 'x-kubernetes-validations') continue;
    if (k === 'properties' || k === 'patternProperties' || k === 'definitions') {
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([pk, pv]) => [pk, toV2(pv)]));
    } else if (k === 'items' || k === 'additionalProperties') out[k] = typeof v === 'object' ? toV2(v) : v;
    else out[k] = v;
  }
  return out;
}

function engineDefinitions(def: ResourceDef, dialect: Dialect): Record<string, Schema> | undefined {
  if (!isCustomResourceDef(def)) return undefined;
  return dialect === 'v3' ? def.custom.openapiV3?.() : def.custom.openapiV2?.();
}

/** The kind schema kube publishes for a CRD version. */
export function customKindSchema(def: ResourceDef, dialect: Dialect): Schema | undefined {
  if (!isCustomResourceDef(def)) return undefined;
  const fromEngine = engineDefinitions(def, dialect)?.[definitionName(def.group, def.version, def.kind)];
  if (fromEngine) return fromEngine;
  const raw = structuredClone(def.crd.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Schema;
  const base = (dialect === 'v2' ? toV2(raw) : raw) as Schema;
  const props = { ...((base['properties'] as Schema | undefined) ?? {}) };
  props['apiVersion'] = { type: 'string', description: CRD_DOCS.apiVersion };
  props['kind'] = { type: 'string', description: CRD_DOCS.kind };
  props['metadata'] = dialect === 'v3' ? { allOf: [refTo(`${META}.ObjectMeta`, dialect)], description: CRD_DOCS.metadata } : { ...refTo(`${META}.ObjectMeta`, dialect), description: CRD_DOCS.metadata };
  return {
    ...base,
    type: 'object',
    properties: props,
    'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.kind, version: def.version }],
  };
}

/** Wraps a schema source so custom resource kinds get their CRD's schema. */
export function withCustomResourceSchemas(inner: SchemaSource | undefined): SchemaSource {
  return {
    kindSchema: (def, dialect) => customKindSchema(def, dialect) ?? inner?.kindSchema?.(def, dialect),
    extraDefinitions: (def, dialect) => {
      if (!isCustomResourceDef(def)) return inner?.extraDefinitions?.(def, dialect) ?? {};
      const all = { ...(engineDefinitions(def, dialect) ?? {}) };
      delete all[definitionName(def.group, def.version, def.kind)];
      return all;
    },
  };
}
