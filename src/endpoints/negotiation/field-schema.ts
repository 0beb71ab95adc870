/**
 * The JSON field structure of built-in kinds, for strict field validation (`unknown field "spec.x"`),
 * derived from the catalog's protobuf message descriptions: Kubernetes requires a protobuf tag on every
 * serialized API field, so a message's fields are the type's JSON fields — except TypeMeta (`apiVersion`,
 * `kind`), which is never on the wire and is therefore accepted on every object.
 *
 * Nodes are built lazily and memoized per message (schemas are recursive, e.g. JSONSchemaProps).
 */
import { protobufMessageFor } from '../../api/protobuf/codec.ts';
import { messageSpec, type FieldSpec, type MessageSpec } from '../../api/protobuf/schema.ts';
import { ANY, type SchemaNode } from '../../machinery/json/scan.ts';


/** Keys every object may carry (TypeMeta, inline in Go, absent from protobuf). */
const TYPE_META = new Set(['apiVersion', 'kind']);

const byMessage = new Map<string, SchemaNode>();

function valueNode(f: FieldSpec): SchemaNode {
  const elem: SchemaNode = f.type.kind === 'message' ? messageNode(messageSpec(f.type.name)) : ANY;
  if (f.mapKey) return { kind: 'map', values: elem };
  if (f.repeated) return { kind: 'array', items: elem };
  return elem;
}

/** Collects a message's JSON fields, flattening Go's inline embedded structs. */
function collectFields(spec: MessageSpec, into: Map<string, FieldSpec>): void {
  for (const f of spec.fields) {
    if (f.inline && f.type.kind === 'message') collectFields(messageSpec(f.type.name), into);
    else into.set(f.json, f);
  }
}

function messageNode(spec: MessageSpec): SchemaNode {
  // Types with their own JSON form (Time, Quantity, IntOrString, RawExtension, FieldsV1, JSON…) are leaves.
  if (spec.special) return ANY;
  const hit = byMessage.get(spec.fullName);
  if (hit) return hit;
  let fields: Map<string, FieldSpec> | undefined;
  const children = new Map<string, SchemaNode>();
  const node: SchemaNode = {
    kind: 'object',
    field(key: string): SchemaNode | undefined {
      if (!fields) {
        fields = new Map();
        collectFields(spec, fields);
      }
      const cached = children.get(key);
      if (cached) return cached;
      const f = fields.get(key);
      if (!f) return TYPE_META.has(key) ? ANY : undefined;
      const child = valueNode(f);
      children.set(key, child);
      return child;
    },
  };
  byMessage.set(spec.fullName, node);
  return node;
}

/** The field structure of (apiVersion, kind), or undefined when the catalog has no schema for it. */
export function schemaForKind(apiVersion: string, kind: string): SchemaNode | undefined {
  const spec = protobufMessageFor(apiVersion, kind);
  return spec ? messageNode(spec) : undefined;
}
