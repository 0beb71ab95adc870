/**
 * JSONSchemaProps → Structural (kube's NewStructural): the skeleton of types and properties, extensions
 * attached. Value validation keywords stay on `props`. Total: any JSON input gives a result (validity is
 * reported by structural-validation.ts, not here).
 */
import { isObject, type JSONSchemaProps, type Structural } from './types.ts';

export function toStructural(props: JSONSchemaProps): Structural {
  let properties: Map<string, Structural> | undefined;
  if (isObject(props.properties)) {
    properties = new Map();
    for (const [k, v] of Object.entries(props.properties)) {
      if (isObject(v)) properties.set(k, toStructural(v as JSONSchemaProps));
    }
  }
  let additionalProperties: Structural | true | undefined;
  if (props.additionalProperties === true) additionalProperties = true;
  else if (isObject(props.additionalProperties)) additionalProperties = toStructural(props.additionalProperties as JSONSchemaProps);
  const items = isObject(props.items) ? toStructural(props.items as JSONSchemaProps) : undefined;
  const s: Structural = {
    type: typeof props.type === 'string' ? props.type : '',
    ...(typeof props.format === 'string' ? { format: props.format } : {}),
    ...(typeof props.description === 'string' ? { description: props.description } : {}),
    ...(typeof props.title === 'string' ? { title: props.title } : {}),
    // A null default is no default (kube's Default.Object == nil).
    ...(props.default !== undefined && props.default !== null ? { default: props.default } : {}),
    nullable: props.nullable === true,
    ...(properties ? { properties } : {}),
    ...(additionalProperties ? { additionalProperties } : {}),
    ...(items ? { items } : {}),
    preserveUnknownFields: props['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: props['x-kubernetes-embedded-resource'] === true,
    intOrString: props['x-kubernetes-int-or-string'] === true,
    ...(typeof props['x-kubernetes-list-type'] === 'string' ? { listType: props['x-kubernetes-list-type'] } : {}),
    ...(Array.isArray(props['x-kubernetes-list-map-keys']) ? { listMapKeys: props['x-kubernetes-list-map-keys'] } : {}),
    ...(typeof props['x-kubernetes-map-type'] === 'string' ? { mapType: props['x-kubernetes-map-type'] } : {}),
    ...(Array.isArray(props['x-kubernetes-validations']) ? { validations: props['x-kubernetes-validations'] } : {}),
    props,
  };
  return s;
}

/** The schema for a child key of an object value: a declared property, else additionalProperties (a schema). */
export function childSchema(s: Structural, key: string): Structural | undefined {
  const p = s.properties?.get(key);
  if (p) return p;
  return s.additionalProperties === true ? undefined : s.additionalProperties;
}

const subtreeCache = new Map<string, WeakMap<Structural, boolean>>();

/**
 * Whether `pred` holds for `s` or any schema below it (properties, additionalProperties, items); memoized
 * per schema node and predicate name, so walks can skip subtrees with nothing to do.
 */
export function subtreeHas(s: Structural, name: string, pred: (n: Structural) => boolean): boolean {
  let cache = subtreeCache.get(name);
  if (!cache) {
    cache = new WeakMap();
    subtreeCache.set(name, cache);
  }
  const hit = cache.get(s);
  if (hit !== undefined) return hit;
  cache.set(s, false); // recursion guard (schemas are trees, but be safe)
  let found = pred(s);
  if (!found && s.properties) for (const p of s.properties.values()) if (subtreeHas(p, name, pred)) { found = true; break; }
  if (!found && s.additionalProperties !== undefined && s.additionalProperties !== true) found = subtreeHas(s.additionalProperties, name, pred);
  if (!found && s.items) found = subtreeHas(s.items, name, pred);
  cache.set(s, found);
  return found;
}
