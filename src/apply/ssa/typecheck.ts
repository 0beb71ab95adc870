/**
 * Whether an unstructured object fits its kind's Go types, reporting the first mismatch with the wording of
 * kube's runtime.DefaultUnstructuredConverter.FromUnstructured (which kube runs after a strategic merge patch):
 * `cannot restore map from int64`, `cannot restore slice from string`, `cannot restore struct from: bool`,
 * `cannot convert int64 to string`, `cannot convert float64 to int32`, `unrecognized type: bool`.
 * Nulls are always acceptable (zero values); unknown fields are not this check's business (strict decoding is);
 * special forms (Time, Quantity, IntOrString, RawExtension) are checked by their own decoders, not here.
 */
import { fieldOf, type SchemaNode } from '../schema-view.ts';

function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (v !== null && typeof v === 'object') return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

/** The first type error in `value` for `node`, or undefined when it fits. */
export function checkTypes(value: unknown, node: SchemaNode): string | undefined {
  if (value === null || value === undefined || node.kind === 'untyped') return undefined;
  const k = goKind(value);
  switch (node.kind) {
    case 'scalar': {
      if (node.special || !node.goType) return undefined;
      return scalarError(k, value, node.goType);
    }
    case 'list': {
      if (k !== 'slice') return `cannot restore slice from ${k}`;
      for (const item of value as unknown[]) {
        const e = checkTypes(item, node.element);
        if (e) return e;
      }
      return undefined;
    }
    case 'map': {
      if (k !== 'map') return `cannot restore map from ${k}`;
      for (const v of Object.values(value as Record<string, unknown>)) {
        const e = checkTypes(v, node.value);
        if (e) return e;
      }
      return undefined;
    }
    case 'struct': {
      if (k !== 'map') return `cannot restore struct from: ${k}`;
      if (node.open) return undefined;
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
        const f = node.field(key);
        if (!f) continue;
        const e = checkTypes(v, fieldOf(node, key).node);
        if (e) return e;
      }
      return undefined;
    }
  }
}

function scalarError(k: string, value: unknown, goType: string): string | undefined {
  switch (goType) {
    case 'string':
      if (k === 'string') return undefined;
      return k === 'int64' ? 'cannot convert int64 to string' : 'unrecognized type: string';
    case '[]uint8':
      return k === 'string' ? undefined : k === 'slice' ? undefined : `cannot restore slice from ${k}`;
    case 'bool':
      return k === 'bool' ? undefined : 'unrecognized type: bool';
    case 'float64':
      return k === 'int64' || k === 'float64' ? undefined : 'unrecognized type: float64';
    default: // int32, int64
      if (k === 'int64') return undefined;
      if (k === 'float64') return Number.isInteger(value) ? undefined : `cannot convert float64 to ${goType}`;
      return `unrecognized type: ${goType}`;
  }
}
