/**
 * OpenAPI definitions for one CRD version, as kube's CRD OpenAPI builder (apiextensions-apiserver
 * pkg/controller/openapi/builder) names and shapes them: `<reversed group>.<version>.<Kind>` and `…<ListKind>`,
 * the user's schema with `apiVersion`/`kind` (string) and `metadata` (ObjectMeta ref) set at the root and in
 * embedded resources, and `x-kubernetes-group-version-kind`.
 *
 * v2 drops what Swagger 2.0 cannot say (kube's ToStructuralOpenAPIV2): allOf/anyOf/oneOf/not; a nullable
 * field loses its type, items and properties; preserve-unknown drops items/properties (and `object` type);
 * arrays without items lose `array`; nullable properties leave `required`. A root with
 * preserve-unknown-fields is published in v2 as a bare `{type: object}` (kubectl then skips validation).
 */
import { isObject, type JSONSchemaProps } from './types.ts';

export type Dialect = 'v2' | 'v3';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/** `stable.example.com`, `v1`, `CronTab` → `com.example.stable.v1.CronTab`. */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function ref(name: string, dialect: Dialect, description: string): Record<string, unknown> {
  const r = dialect === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}`;
  return dialect === 'v2' ? { $ref: r, description } : { allOf: [{ $ref: r }], description };
}

/**
 * Descriptions of the properties the builder adds to a custom resource's schema. Conformance ("[sig-api-machinery]
 * CustomResourcePublishOpenAPI … works for CRD with validation schema") runs `kubectl explain <plural>` and matches
 * `APIVersion defines` on apiVersion and `Standard object's metadata` on metadata: those two open with kube's words,
 * as an interface; everything after them, and every other description here, is ours.
 */
export const CRD_DOCS = {
  apiVersion: 'APIVersion defines which version of the resource\'s schema this object is written in, as group/version; the server converts between the versions the CustomResourceDefinition serves.',
  kind: 'The kind of this object in CamelCase, as spec.names.kind of its CustomResourceDefinition names it.',
  metadata: 'Standard object\'s metadata: name, namespace, labels, annotations, owner references, finalizers and the fields the server maintains.',
  embeddedApiVersion: 'Group and version of the embedded object, such as apps/v1 (v1 for the core group).',
  embeddedKind: 'Kind of the embedded object, in CamelCase.',
  embeddedMetadata: 'Metadata of the embedded object: name, namespace, labels, annotations and the like.',
  listMetadata: 'Metadata of the list as a whole: its resourceVersion and, when the list was read in pages, the continue token.',
  list: (kind: string) => `A list of ${kind} objects.`,
  listItems: (plural: string) => `The ${plural} of this list.`,
} as const;

const API_VERSION = { type: 'string', description: CRD_DOCS.apiVersion };
const KIND = { type: 'string', description: CRD_DOCS.kind };

const PASS_KEYS = [
  'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties',
  'minProperties', 'required', 'nullable',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
] as const;

/** The user's schema node rendered for a dialect (recursively). */
function render(p: JSONSchemaProps, dialect: Dialect, resourceRoot: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Go's omitempty: false booleans and empty lists are not published (nor example/externalDocs, which kube's
  // structural schema does not carry).
  for (const k of PASS_KEYS) {
    const v = p[k];
    if (v === undefined || (v === false && k !== 'default') || (Array.isArray(v) && v.length === 0 && k !== 'default')) continue;
    out[k] = v;
  }
  if ((p as Record<string, unknown>)[NULLABLE_MARK] === true) out[NULLABLE_MARK] = true;
  const preserve = p['x-kubernetes-preserve-unknown-fields'] === true;
  if (dialect === 'v3') {
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
      const arr = p[k];
      if (Array.isArray(arr)) out[k] = arr.map((a) => render(a, dialect, false));
    }
    if (isObject(p.not)) out.not = render(p.not, dialect, false);
  }
  if (isObject(p.properties)) {
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(p.properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      props[k] = render(v, dialect, false);
    }
    out.properties = props;
  }
  if (isObject(p.items)) out.items = render(p.items as JSONSchemaProps, dialect, false);
  if (p.additionalProperties === true) out.additionalProperties = true;
  else if (isObject(p.additionalProperties)) out.additionalProperties = render(p.additionalProperties as JSONSchemaProps, dialect, false);
  if (resourceRoot || p['x-kubernetes-embedded-resource'] === true) {
    if (!(dialect === 'v2' && preserve)) {
      const props = (out.properties as Record<string, unknown> | undefined) ?? {};
      props.apiVersion = resourceRoot ? API_VERSION : { type: 'string', description: CRD_DOCS.embeddedApiVersion };
      props.kind = resourceRoot ? KIND : { type: 'string', description: CRD_DOCS.embeddedKind };
      props.metadata = ref(`${META}.ObjectMeta`, dialect, resourceRoot ? CRD_DOCS.metadata : CRD_DOCS.embeddedMetadata);
      out.properties = Object.fromEntries(Object.entries(props).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      if (!resourceRoot) {
        const req = Array.isArray(out.required) ? [...(out.required as string[])] : [];
        if (!req.includes('kind')) req.push('kind');
        if (!req.includes('apiVersion')) req.push('apiVersion');
        out.required = req;
      }
    }
  }
  if (dialect === 'v2') toV2(out);
  return out;
}

/** kube's ToStructuralOpenAPIV2 on one rendered node (children are already converted). */
function toV2(s: Record<string, unknown>): void {
  if (s.nullable === true) {
    delete s.type;
    delete s.nullable;
    delete s.items;
    delete s.properties;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === true) {
    delete s.items;
    delete s.properties;
    if (s.type === 'object') delete s.type;
  }
  if (s.items === undefined && s.type === 'array') delete s.type;
  const props = s.properties as Record<string, Record<string, unknown>> | undefined;
  if (Array.isArray(s.required) && props) {
    // Nullable children were stripped of `nullable` by toV2 already; read the marker we leave.
    const nullable = Object.entries(props).filter(([, v]) => v[NULLABLE_MARK] === true).map(([k]) => k);
    const req = (s.required as string[]).filter((r) => !nullable.includes(r));
    if (req.length > 0) s.required = req;
    else delete s.required;
  }
  if (isObject(s.additionalProperties) && (s.additionalProperties as Record<string, unknown>)[NULLABLE_MARK] === true) delete s.required;
}

const NULLABLE_MARK = '__nullable';

function renderV2Marked(p: JSONSchemaProps, resourceRoot: boolean): Record<string, unknown> {
  const out = render(p, 'v2', resourceRoot);
  return stripMarks(out);
}

function stripMarks(x: unknown): Record<string, unknown> {
  const o = x as Record<string, unknown>;
  delete o[NULLABLE_MARK];
  if (isObject(o.properties)) for (const v of Object.values(o.properties)) stripMarks(v);
  if (isObject(o.items)) stripMarks(o.items);
  if (isObject(o.additionalProperties)) stripMarks(o.additionalProperties);
  return o;
}

export interface KindOpenApiOptions {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  readonly plural: string;
  /** The version's openAPIV3Schema (undefined: none, published as a bare object). */
  readonly schema: JSONSchemaProps | undefined;
  readonly dialect: Dialect;
  /** selectableFields json paths, published as `x-kubernetes-selectable-fields` (both dialects, CustomResourceFieldSelectors is GA). */
  readonly selectableFields?: readonly string[];
}

/** The two definitions (kind and list kind) for a CRD version, keyed by definition name. */
export function kindDefinitions(o: KindOpenApiOptions): Record<string, Record<string, unknown>> {
  const name = definitionName(o.group, o.version, o.kind);
  const listName = definitionName(o.group, o.version, o.listKind);
  let kindSchema: Record<string, unknown>;
  if (!o.schema || (o.dialect === 'v2' && o.schema['x-kubernetes-preserve-unknown-fields'] === true)) {
    kindSchema = { type: 'object' };
  } else if (o.dialect === 'v2') {
    kindSchema = renderV2Marked(markNullable(o.schema), true);
  } else {
    kindSchema = render(o.schema, 'v3', true);
  }
  kindSchema['x-kubernetes-group-version-kind'] = [{ group: o.group, kind: o.kind, version: o.version }];
  const selectable = o.selectableFields?.length ? o.selectableFields.map((p) => ({ fieldPath: p.replace(/^\./, '') })) : undefined;
  if (selectable) kindSchema['x-kubernetes-selectable-fields'] = selectable;
  const list: Record<string, unknown> = {
    description: CRD_DOCS.list(o.kind),
    properties: {
      apiVersion: API_VERSION,
      items: { description: CRD_DOCS.listItems(o.plural), items: o.dialect === 'v2' ? { $ref: `#/definitions/${name}` } : { $ref: `#/components/schemas/${name}` }, type: 'array' },
      kind: KIND,
      metadata: ref(`${META}.ListMeta`, o.dialect, CRD_DOCS.listMetadata),
    },
    required: ['items'],
    type: 'object',
    'x-kubernetes-group-version-kind': [{ group: o.group, kind: o.listKind, version: o.version }],
  };
  if (selectable) list['x-kubernetes-selectable-fields'] = selectable;
  return { [name]: kindSchema, [listName]: list };
}

/** A copy of the schema whose nullable nodes carry a marker surviving toV2 (which deletes `nullable`). */
function markNullable(p: JSONSchemaProps): JSONSchemaProps {
  const out: Record<string, unknown> = { ...p };
  if (p.nullable === true) out[NULLABLE_MARK] = true;
  if (isObject(p.properties)) out.properties = Object.fromEntries(Object.entries(p.properties).map(([k, v]) => [k, markNullable(v)]));
  if (isObject(p.items)) out.items = markNullable(p.items as JSONSchemaProps);
  if (isObject(p.additionalProperties)) out.additionalProperties = markNullable(p.additionalProperties as JSONSchemaProps);
  return out as JSONSchemaProps;
}
