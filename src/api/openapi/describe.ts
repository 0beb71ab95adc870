/**
 * Puts the descriptions of ./docs on OpenAPI schemas: a type's on its definition, a field's on its property (beside
 * a v2 `$ref` or a v3 `allOf`, on the array or map itself for lists and maps), as kube-apiserver places them.
 */
import { fieldDoc, typeDoc } from './docs/index.ts';
import { hasTypeMeta } from './kinds.ts';

type Schema = Record<string, unknown>;

/**
 * A field's description as seen from the messages its JSON object belongs to, outermost first (a parent may
 * describe a field it lifts from an embedded struct).
 */
export function describeField(chain: readonly string[], json: string): string | undefined {
  for (const m of chain) {
    const d = fieldDoc(m, json);
    if (d) return d;
  }
  return undefined;
}

/** `apiVersion` or `kind` of a kind: as the kind describes it, else as meta.TypeMeta does. */
export function describeTypeMetaField(fullName: string, json: string): string | undefined {
  return describeField([fullName, 'meta.TypeMeta'], json);
}

/** A copy of a definition with the descriptions written for message `fullName` (others left as they are). */
export function describeDefinition(s: Schema, fullName: string): Schema {
  const out: Schema = { ...s };
  const doc = typeDoc(fullName);
  if (doc) out['description'] = doc;
  const props = s['properties'] as Record<string, Schema> | undefined;
  if (props) {
    out['properties'] = Object.fromEntries(Object.entries(props).map(([k, p]) => {
      const d = (k === 'apiVersion' || k === 'kind') && hasTypeMeta(fullName) ? describeTypeMetaField(fullName, k) : describeField([fullName], k);
      return [k, d ? { ...p, description: d } : p];
    }));
  }
  return out;
}
