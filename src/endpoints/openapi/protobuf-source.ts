/**
 * The SchemaSource built from our protobuf type descriptions (src/api/openapi): real schemas for every kind
 * whose message we describe, plus its list kind, its sub-resource kinds and every definition they reference.
 * Cached per (group, version, kind, dialect): the message descriptions never change at run time.
 */
import { documentsSubresourceKind } from './operations.ts';
import type { ResourceDef } from '../../api/types.ts';
import { collectDefinitions, definitionNameOf, messageNameFor, type Schema } from '../../api/openapi/generate.ts';
import type { Dialect, SchemaSource } from '../../api/openapi/schemas.ts';

interface Entry { kind: Schema; extra: Record<string, Schema> }

export function createProtobufSchemaSource(): SchemaSource {
  const cache = new Map<string, Entry | null>();

  const build = (def: ResourceDef, dialect: Dialect): Entry | null => {
    const key = `${dialect}|${def.group}|${def.version}|${def.kind}|${def.resource}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const main = messageNameFor(def.group, def.version, def.kind);
    let entry: Entry | null = null;
    if (main) {
      const roots = [main];
      const list = !def.verbs.includes('list') ? undefined : messageNameFor(def.group, def.version, def.listKind);
      if (list) roots.push(list);
      for (const sub of def.subresources ?? []) {
        const m = sub.kind && documentsSubresourceKind(sub) && messageNameFor(sub.kind.group, sub.kind.version, sub.kind.kind);
        if (m) roots.push(m);
      }
      const extra = collectDefinitions(roots, dialect);
      entry = { kind: extra[definitionNameOf(main)]!, extra };
    }
    cache.set(key, entry);
    return entry;
  };

  return {
    kindSchema: (def, dialect) => build(def, dialect)?.kind,
    extraDefinitions: (def, dialect) => build(def, dialect)?.extra ?? {},
  };
}
