/**
 * Renders dialect-neutral operations (operations.ts) as OpenAPI v3 path items or Swagger 2.0 path items,
 * in kube-apiserver's shapes (parameters with `uniqueItems`, v3 request bodies per media type, v2
 * consumes/produces/schemes).
 */
import type { Operation, PathItem, ParamName } from './operations.ts';
import { PARAMS } from './operations.ts';
import { ref, type Dialect, type Schema } from '../../api/openapi/schemas.ts';

/** Media types this server encodes; lists and watches add the watch stream type. */
export const PRODUCES_SINGLE = ['application/json', 'application/yaml'];
export const PRODUCES_STREAM = ['application/json', 'application/yaml', 'application/json;stream=watch'];

export interface RenderOptions {
  /** Patch media types the server accepts (kubectl uses strategic merge patch only when listed). */
  patchContentTypes: readonly string[];
}

function param(name: ParamName, dialect: Dialect, nameDescription?: string): Schema {
  const p = PARAMS[name];
  const description = name === 'name' && nameDescription ? nameDescription : p.description;
  const base: Schema = { description, in: p.in, name: p.wireName ?? name };
  if (p.required) base['required'] = true;
  if (dialect === 'v3') return { ...base, schema: { type: p.type, uniqueItems: true } };
  return { ...base, type: p.type, uniqueItems: true };
}

/** Media types an operation answers with. */
function producedTypes(o: Operation): readonly string[] {
  switch (o.produces) {
    case 'stream': return PRODUCES_STREAM;
    case 'any': return ['*/*'];
    case 'log': return ['text/plain', ...PRODUCES_SINGLE];
    default: return PRODUCES_SINGLE;
  }
}

function responsesOf(o: Operation, dialect: Dialect): Schema {
  const out: Schema = {};
  const types = producedTypes(o);
  for (const [code, r] of Object.entries(o.responses)) {
    if (r.type) {
      const schema = { type: r.type };
      out[code] = dialect === 'v3' ? { content: Object.fromEntries(types.map((t) => [t, { schema }])), description: r.description } : { description: r.description, schema };
      continue;
    }
    if (!r.schema) { out[code] = { description: r.description }; continue; }
    out[code] = dialect === 'v3'
      ? { content: Object.fromEntries(types.map((t) => [t, { schema: ref(r.schema!, dialect) }])), description: r.description }
      : { description: r.description, schema: ref(r.schema, dialect) };
  }
  return out;
}

function renderOp(o: Operation, dialect: Dialect, opts: RenderOptions, nameDescription?: string): Schema {
  const op: Schema = { description: o.description, operationId: o.operationId };
  const params = o.params.map((n) => param(n, dialect, nameDescription));
  const bodyTypes = o.body?.kind === 'patch' ? [...(o.patchTypes ?? opts.patchContentTypes)] : ['*/*'];
  if (dialect === 'v3') {
    if (params.length) op['parameters'] = params;
    if (o.body) {
      op['requestBody'] = { content: Object.fromEntries(bodyTypes.map((t) => [t, { schema: ref(o.body!.schema, dialect) }])) };
      if (o.body.kind !== 'delete') (op['requestBody'] as Schema)['required'] = true;
    }
  } else {
    op['consumes'] = bodyTypes;
    op['produces'] = [...producedTypes(o)];
    const v2params = [...params];
    if (o.body) v2params.unshift({ in: 'body', name: 'body', ...(o.body.kind !== 'delete' ? { required: true } : {}), schema: ref(o.body.schema, dialect) });
    if (v2params.length) op['parameters'] = v2params;
    op['schemes'] = ['https'];
  }
  op['responses'] = responsesOf(o, dialect);
  op['tags'] = [o.tag];
  if (o.action) op['x-kubernetes-action'] = o.action;
  if (o.gvk) op['x-kubernetes-group-version-kind'] = { group: o.gvk.group, kind: o.gvk.kind, version: o.gvk.version };
  return op;
}

export function renderPaths(items: readonly PathItem[], dialect: Dialect, opts: RenderOptions): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const item of items) {
    const p: Schema = {};
    // Parameters every operation of a path shares are documented once, on the path (kube's builder does so).
    const common = item.ops.length ? item.ops.map((o) => new Set(o.params)).reduce((a, b) => new Set([...a].filter((x) => b.has(x)))) : new Set<ParamName>();
    for (const o of item.ops) p[o.method] = renderOp({ ...o, params: o.params.filter((n) => !common.has(n)) }, dialect, opts, item.nameDescription);
    const pathParams = [...new Set([...item.params, ...common])].sort();
    if (pathParams.length) p['parameters'] = pathParams.map((n) => param(n, dialect, item.nameDescription));
    out[item.path] = p;
  }
  return out;
}

/** JSON with object keys sorted at every level (kube's OpenAPI documents are key-sorted). */
export function sortKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortKeys) as T;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])])) as T;
  }
  return v;
}
