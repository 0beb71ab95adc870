/**
 * OpenAPI documents from the catalog: one v3 document per group version (`api/v1`, `apis/apps/v1`), per
 * group (`apis/apps`), for the roots (`api`, `apis`) and `version`; and the single Swagger 2.0 document.
 *
 * Kind schemas come from a `SchemaSource` (by default the one generated from our protobuf type descriptions,
 * ./protobuf-source.ts) when it knows them, else the permissive placeholder. While a kind has only the
 * placeholder, v2 definitions carry no `x-kubernetes-group-version-kind`, so kubectl's v2 model finds no
 * schema for it and falls back to its compiled-in types (instead of failing on unknown fields when
 * computing apply patches). Swagger 2.0 carries no `default`s, as kube-apiserver's does not.
 */
import type { Catalog } from '../../api/catalog.ts';
import type { ResourceDef } from '../../api/types.ts';
import { documentsSubresourceKind } from './operations.ts';
import { definitionName, groupIdPart, v3PathKey } from '../../api/openapi/names.ts';
import { resourceListPath, resourcePaths, type PathItem } from './operations.ts';
import { renderPaths, sortKeys, type RenderOptions } from './render.ts';
import { describeDefinition } from '../../api/openapi/describe.ts';
import { META, listSchema, metaDefinitions, permissiveKindSchema, ref, type Dialect, type Schema, type SchemaSource } from '../../api/openapi/schemas.ts';

export interface DocumentOptions extends RenderOptions {
  schemas?: SchemaSource;
}

const INFO = { title: 'Kubernetes', version: 'unversioned' };
const BEARER = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };

/** Collects the definitions a set of resources needs. */
function definitionsFor(defs: readonly ResourceDef[], dialect: Dialect, opts: DocumentOptions): Record<string, Schema> {
  const out: Record<string, Schema> = { ...metaDefinitions(dialect) };
  for (const d of defs) {
    const real = opts.schemas?.kindSchema?.(d, dialect);
    out[definitionName(d.group, d.version, d.kind)] = real ?? permissiveKindSchema(d, d.kind, dialect, dialect === 'v3');
    Object.assign(out, opts.schemas?.extraDefinitions?.(d, dialect) ?? {});
    const listName = definitionName(d.group, d.version, d.listKind);
    if (d.verbs.includes('list') && !(real && out[listName])) out[listName] = listSchema(d, dialect, dialect === 'v3' || real !== undefined);
    for (const s of d.subresources ?? []) {
      if (!s.kind || !documentsSubresourceKind(s)) continue;
      const name = definitionName(s.kind.group, s.kind.version, s.kind.kind);
      if (!out[name]) out[name] = permissiveKindSchema({ ...d, group: s.kind.group, version: s.kind.version }, s.kind.kind, dialect, dialect === 'v3');
    }
  }
  return out;
}

function pathsFor(defs: readonly ResourceDef[]): PathItem[] {
  return defs.flatMap((d) => resourcePaths(d));
}

/** The v3 document for one group version. */
export function groupVersionV3(catalog: Catalog, group: string, version: string, opts: DocumentOptions): Schema {
  const defs = catalog.resourcesOf(group, version);
  const items = [resourceListPath(group, version), ...pathsFor(defs)];
  return sortKeys({
    openapi: '3.0.0',
    info: INFO,
    paths: renderPaths(items, 'v3', opts),
    components: { schemas: definitionsFor(defs, 'v3', opts), securitySchemes: BEARER },
  });
}

function discoveryDefinitions(dialect: Dialect): Record<string, Schema> {
  const r = (n: string) => ({ ...(dialect === 'v3' ? { allOf: [ref(`${META}.${n}`, dialect)] } : ref(`${META}.${n}`, dialect)), default: {} });
  const str = { type: 'string', default: '' };
  const defs: Record<string, Schema> = {
    [`${META}.GroupVersionForDiscovery`]: { type: 'object', required: ['groupVersion', 'version'], properties: { groupVersion: str, version: str } },
    [`${META}.ServerAddressByClientCIDR`]: { type: 'object', required: ['clientCIDR', 'serverAddress'], properties: { clientCIDR: str, serverAddress: str } },
    [`${META}.APIGroup`]: {
      type: 'object', required: ['name', 'versions'],
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: str, preferredVersion: r('GroupVersionForDiscovery'),
        serverAddressByClientCIDRs: { type: 'array', items: r('ServerAddressByClientCIDR'), 'x-kubernetes-list-type': 'atomic' }, versions: { type: 'array', items: r('GroupVersionForDiscovery'), 'x-kubernetes-list-type': 'atomic' } },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'APIGroup', version: 'v1' }],
    },
    [`${META}.APIGroupList`]: {
      type: 'object', required: ['groups'],
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, groups: { type: 'array', items: r('APIGroup'), 'x-kubernetes-list-type': 'atomic' } },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'APIGroupList', version: 'v1' }],
    },
    [`${META}.APIVersions`]: {
      type: 'object', required: ['versions', 'serverAddressByClientCIDRs'],
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, serverAddressByClientCIDRs: { type: 'array', items: r('ServerAddressByClientCIDR'), 'x-kubernetes-list-type': 'atomic' }, versions: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' } },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'APIVersions', version: 'v1' }],
    },
    'io.k8s.apimachinery.pkg.version.Info': {
      type: 'object', description: 'The version of the server and of the toolchain that built it.',
      properties: Object.fromEntries(['buildDate', 'compiler', 'gitCommit', 'gitTreeState', 'gitVersion', 'goVersion', 'major', 'minor', 'platform'].map((k) => [k, str])),
      required: ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'],
    },
  };
  // The meta/v1 ones take their descriptions from the type docs.
  return Object.fromEntries(Object.entries(defs).map(([n, d]) => [n, n.startsWith(`${META}.`) ? describeDefinition(d, `meta.${n.slice(META.length + 1)}`) : d]));
}

function simpleGet(path: string, operationId: string, description: string, schema: string, tag: string): PathItem {
  return { path, params: [], ops: [{ method: 'get', operationId, description, params: [], responses: { '200': { description: 'OK', schema }, '401': { description: 'Unauthorized' } }, produces: 'single', tag }] };
}

/** Path items of the discovery roots: `api`, `apis`, `apis/<group>` (and `version`). */
function rootItems(key: string): PathItem[] | undefined {
  if (key === 'api') return [simpleGet('/api/', 'getCoreAPIVersions', 'get available API versions', `${META}.APIVersions`, 'core')];
  if (key === 'apis') return [simpleGet('/apis/', 'getAPIVersions', 'get available API versions', `${META}.APIGroupList`, 'apis')];
  if (key === 'version') return [simpleGet('/version/', 'getCodeVersion', 'get the version information for this server', 'io.k8s.apimachinery.pkg.version.Info', 'version')];
  const m = /^apis\/([^/]+)$/.exec(key);
  if (m) {
    const g = m[1]!;
    const id = groupIdPart(g);
    return [simpleGet(`/apis/${g}/`, `get${id}APIGroup`, 'get information of a group', `${META}.APIGroup`, id[0]!.toLowerCase() + id.slice(1))];
  }
  return undefined;
}

/** Every `/openapi/v3/<key>` this server documents, in index order. */
export function v3Keys(catalog: Catalog): string[] {
  const keys = ['api', 'apis', 'version'];
  for (const g of catalog.groups()) {
    if (g.name) keys.push(`apis/${g.name}`);
    for (const v of g.versions) keys.push(v3PathKey(g.name, v));
  }
  return keys.sort();
}

/** The v3 document for an index key, or undefined when the key is unknown. */
export function v3Document(catalog: Catalog, key: string, opts: DocumentOptions): Schema | undefined {
  const roots = rootItems(key);
  if (roots) {
    if (key.startsWith('apis/') && !catalog.groups().some((g) => `apis/${g.name}` === key)) return undefined;
    return sortKeys({ openapi: '3.0.0', info: INFO, paths: renderPaths(roots, 'v3', opts), components: { schemas: discoveryDefinitions('v3'), securitySchemes: BEARER } });
  }
  for (const g of catalog.groups()) {
    for (const v of g.versions) if (v3PathKey(g.name, v) === key) return groupVersionV3(catalog, g.name, v, opts);
  }
  return undefined;
}

/** Drops the `default` keyword from a schema tree: kube-apiserver's Swagger 2.0 carries no defaults (v3 does). */
function withoutDefaults(x: unknown, inProperties = false): unknown {
  if (Array.isArray(x)) return x.map((v) => withoutDefaults(v));
  if (!x || typeof x !== 'object') return x;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) {
    if (k === 'default' && !inProperties) continue;
    out[k] = withoutDefaults(v, !inProperties && k === 'properties');
  }
  return out;
}

/** The Swagger 2.0 document of everything served. */
export function swaggerV2(catalog: Catalog, opts: DocumentOptions): Schema {
  const items: PathItem[] = [...(rootItems('api') ?? []), ...(rootItems('apis') ?? []), ...(rootItems('version') ?? [])];
  const defs: ResourceDef[] = [];
  for (const g of catalog.groups()) {
    if (g.name) items.push(...(rootItems(`apis/${g.name}`) ?? []));
    for (const v of g.versions) {
      items.push(resourceListPath(g.name, v));
      const rs = catalog.resourcesOf(g.name, v);
      defs.push(...rs);
      items.push(...pathsFor(rs));
    }
  }
  return sortKeys({
    swagger: '2.0',
    info: INFO,
    paths: renderPaths(items, 'v2', opts),
    definitions: withoutDefaults({ ...discoveryDefinitions('v2'), ...definitionsFor(defs, 'v2', opts) }, true),
    securityDefinitions: BEARER,
    security: [{ BearerToken: [] }],
  });
}
