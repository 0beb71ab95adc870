/**
 * Two views of a CRD version's structural schema for the serving code:
 * - `applyRootOf`: the StructNode server-side apply and merge patch walk (src/apply/schema-view.ts) —
 *   listType atomic/set/map (+ map keys; unmarked lists are atomic), mapType atomic → atomic map/struct,
 *   properties → struct, additionalProperties → map, preserve-unknown → open struct (or untyped with no
 *   properties), int-or-string → one scalar, resource roots (the object and embedded resources) carry
 *   apiVersion/kind and metadata as ObjectMeta.
 * - `strictRootOf`: the json-scan node (src/machinery/json/scan.ts) that reports
 *   `unknown field "spec.x"` exactly where pruning would drop a field.
 */
import {
  messageNode, UNTYPED, type FieldNode, type SchemaNode as ApplyNode, type StructNode,
} from '../../apply/schema-view.ts';
import { ANY, type SchemaNode as ScanNode } from '../../machinery/json/scan.ts';
import { OBJECT_META_FIELDS } from './prune.ts';
import type { Structural } from './types.ts';

const STRING: ApplyNode = { kind: 'scalar', scalar: 'string', goType: 'string' };
const INT_OR_STRING: ApplyNode = { kind: 'scalar', special: 'intorstring' };
const SCALARS: Record<string, ApplyNode> = {
  string: STRING,
  integer: { kind: 'scalar', scalar: 'integer', goType: 'int64' },
  number: { kind: 'scalar', scalar: 'number', goType: 'float64' },
  boolean: { kind: 'scalar', scalar: 'boolean', goType: 'bool' },
};

let metaField: FieldNode | undefined;
function objectMetaField(): FieldNode {
  metaField ??= { name: 'metadata', node: messageNode('meta.ObjectMeta'), pointer: false };
  return metaField;
}

function field(name: string, node: ApplyNode): FieldNode {
  return { name, node, pointer: true };
}

function structOf(s: Structural, name: string, resourceRoot: boolean): StructNode {
  const fields = new Map<string, FieldNode>();
  const build = () => {
    if (fields.size > 0 || !s.properties) return;
    for (const [k, v] of s.properties) fields.set(k, field(k, applyNode(v, `${name}.${k}`)));
  };
  return {
    kind: 'struct', atomic: s.mapType === 'atomic', open: s.preserveUnknownFields, name,
    field(key) {
      if (resourceRoot) {
        if (key === 'metadata') return objectMetaField();
        if (key === 'apiVersion' || key === 'kind') return field(key, STRING);
      }
      build();
      return fields.get(key);
    },
  };
}

function applyNode(s: Structural, name: string): ApplyNode {
  if (s.intOrString) return INT_OR_STRING;
  if (s.embeddedResource) return structOf(s, name, true);
  switch (s.type) {
    case 'object': {
      if (s.additionalProperties !== undefined && !s.properties) {
        const value = s.additionalProperties === true ? UNTYPED : applyNode(s.additionalProperties, `${name}[]`);
        return { kind: 'map', atomic: s.mapType === 'atomic', value };
      }
      return structOf(s, name, false);
    }
    case 'array': {
      const element = s.items ? applyNode(s.items, `${name}[]`) : UNTYPED;
      const listType = s.listType === 'set' || s.listType === 'map' ? s.listType : 'atomic';
      return { kind: 'list', listType, keys: listType === 'map' ? [...(s.listMapKeys ?? [])] : [], element };
    }
    case '':
      if (s.properties) return structOf(s, name, false);
      return UNTYPED;
    default:
      return SCALARS[s.type] ?? UNTYPED;
  }
}

/** The apply/merge root node of a custom resource whose version schema is `root` (undefined: no schema). */
export function applyRootOf(root: Structural | undefined, kind: string): StructNode {
  if (!root) {
    return {
      kind: 'struct', atomic: false, open: true, name: kind,
      field: (key) => (key === 'metadata' ? objectMetaField() : key === 'apiVersion' || key === 'kind' ? field(key, STRING) : undefined),
    };
  }
  return structOf(root, kind, true);
}

const META_SCAN: ScanNode = {
  kind: 'object',
  field: (key) => (OBJECT_META_FIELDS.has(key) ? ANY : undefined),
};

function scanObject(s: Structural, resourceRoot: boolean): ScanNode {
  const children = new Map<string, ScanNode>();
  return {
    kind: 'object',
    field(key) {
      if (resourceRoot) {
        if (key === 'metadata') return META_SCAN;
        if (key === 'apiVersion' || key === 'kind') return ANY;
      }
      const hit = children.get(key);
      if (hit) return hit;
      const p = s.properties?.get(key);
      let node: ScanNode | undefined;
      if (p) node = scanNode(p);
      else if (s.additionalProperties !== undefined) node = s.additionalProperties === true ? ANY : scanNode(s.additionalProperties);
      else if (s.preserveUnknownFields) node = ANY;
      if (node) children.set(key, node);
      return node;
    },
  };
}

function scanNode(s: Structural): ScanNode {
  if (s.intOrString) return ANY;
  const isObj = s.type === 'object' || s.embeddedResource || (s.type === '' && s.properties !== undefined);
  if (isObj) {
    if (s.preserveUnknownFields && !s.properties && s.additionalProperties === undefined && !s.embeddedResource) return ANY;
    if (s.additionalProperties !== undefined && !s.properties && !s.embeddedResource) {
      return { kind: 'map', values: s.additionalProperties === true ? ANY : scanNode(s.additionalProperties) };
    }
    return scanObject(s, s.embeddedResource);
  }
  if (s.type === 'array') {
    if (!s.items) return ANY;
    return { kind: 'array', items: scanNode(s.items) };
  }
  return ANY;
}

/** The strict-decoding root node (unknown fields where pruning would drop them; undefined schema: metadata only). */
export function strictRootOf(root: Structural | undefined): ScanNode {
  if (!root) {
    return { kind: 'object', field: (key) => (key === 'metadata' ? META_SCAN : ANY) };
  }
  return scanObject(root, true);
}
