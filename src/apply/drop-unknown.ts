/**
 * Drops the keys a built-in kind does not declare, as decoding into kube-apiserver's Go structs does (unknown
 * JSON fields are ignored there; field validation only reports them). Open structs (schemaless parts) keep
 * unknown keys but their declared fields are still walked (a custom resource's metadata is ObjectMeta); maps,
 * special scalars (RawExtension, quantities, …) and untyped places keep everything.
 * Modifies `value` in place; returns it.
 */
import { resolveNode, type SchemaNode } from './schema-view.ts';

export function dropUnknownFields<T>(value: T, node: SchemaNode): T {
  walk(value, node, 0);
  return value;
}

/** Bound on nesting, as the decoders bound it; deeper parts are left as they are. */
const MAX_DEPTH = 10_000;

function walk(value: unknown, node: SchemaNode, depth: number): void {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  if (node.kind === 'untyped' || node.kind === 'scalar') return;
  const n = resolveNode(node, value);
  if (n.kind === 'list') {
    if (Array.isArray(value)) for (const item of value) walk(item, n.element, depth + 1);
    return;
  }
  if (Array.isArray(value)) return;
  const obj = value as Record<string, unknown>;
  if (n.kind === 'map') {
    for (const v of Object.values(obj)) walk(v, n.value, depth + 1);
    return;
  }
  if (n.kind !== 'struct') return;
  for (const key of Object.keys(obj)) {
    const f = n.field(key);
    if (f) walk(obj[key], f.node, depth + 1);
    else if (!n.open) delete obj[key];
  }
}
