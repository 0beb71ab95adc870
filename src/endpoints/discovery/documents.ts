/**
 * Discovery documents built from the catalog, shaped (and key-ordered) as kube-apiserver encodes them:
 * legacy APIVersions / APIGroupList / APIGroup / APIResourceList, and aggregated APIGroupDiscoveryList
 * (apidiscovery.k8s.io v2 and v2beta1).
 */
import type { Catalog, ApiGroupInfo } from '../../api/catalog.ts';
import type { ResourceDef } from '../../api/types.ts';

export interface GroupVersionForDiscovery { groupVersion: string; version: string }

export function apiVersions(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function gvFor(group: string, version: string): GroupVersionForDiscovery {
  return { groupVersion: `${group}/${version}`, version };
}

export function apiGroup(g: ApiGroupInfo) {
  return {
    name: g.name,
    versions: g.versions.map((v) => gvFor(g.name, v)),
    preferredVersion: gvFor(g.name, g.preferredVersion),
  };
}

export function apiGroupList(catalog: Catalog) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: catalog.groups().filter((g) => g.name !== '').map(apiGroup) };
}

export function apiGroupDoc(g: ApiGroupInfo) {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) };
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** APIResource entries of one group version: resources and `<resource>/<sub>` entries, sorted by name. */
export function apiResources(catalog: Catalog, defs: readonly ResourceDef[]) {
  const out: Array<Record<string, unknown> & { name: string }> = [];
  for (const d of defs) {
    const r: Record<string, unknown> & { name: string } = {
      name: d.resource, singularName: d.singular, namespaced: d.namespaced, kind: d.kind, verbs: [...d.verbs].sort(),
    };
    if (d.shortNames?.length) r['shortNames'] = d.shortNames;
    if (d.categories?.length) r['categories'] = d.categories;
    const hash = catalog.storageVersionHash(d);
    if (hash) r['storageVersionHash'] = hash;
    out.push(r);
    for (const s of d.subresources ?? []) {
      const sr: Record<string, unknown> & { name: string } = { name: `${d.resource}/${s.name}`, singularName: '', namespaced: d.namespaced };
      // A kind of the parent's own group version is written bare, as kube does (PodExecOptions, Binding).
      if (s.kind && !sameGroupVersion(s.kind, d)) {
        sr['group'] = s.kind.group;
        sr['version'] = s.kind.version;
      }
      sr['kind'] = s.kind?.kind ?? d.kind;
      sr['verbs'] = [...s.verbs].sort();
      out.push(sr);
    }
  }
  return out.sort(byName);
}

export function apiResourceList(catalog: Catalog, group: string, version: string) {
  const resources = apiResources(catalog, catalog.resourcesOf(group, version));
  // The core list has no apiVersion (kube's legacy handler leaves TypeMeta.APIVersion empty).
  return group === ''
    ? { kind: 'APIResourceList', groupVersion: version, resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources };
}

function discoveryResource(catalog: Catalog, d: ResourceDef) {
  const r: Record<string, unknown> = {
    resource: d.resource,
    responseKind: { group: '', version: '', kind: d.kind },
    scope: d.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: d.singular,
    verbs: [...d.verbs].sort(),
  };
  if (d.shortNames?.length) r['shortNames'] = d.shortNames;
  if (d.categories?.length) r['categories'] = d.categories;
  const subs = [...(d.subresources ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (subs.length) {
    r['subresources'] = subs.map((s) => ({
      subresource: s.name,
      responseKind: s.kind && !sameGroupVersion(s.kind, d) ? { group: s.kind.group, version: s.kind.version, kind: s.kind.kind } : { group: '', version: '', kind: s.kind?.kind ?? d.kind },
      verbs: [...s.verbs].sort(),
    }));
  }
  void catalog;
  return r;
}

/** Aggregated discovery for /api (core only) or /apis (every named group), in `v2` or `v2beta1`. */
export function groupDiscoveryList(catalog: Catalog, which: 'api' | 'apis', apiVersion: 'v2' | 'v2beta1') {
  const items = catalog.groups().filter((g) => (which === 'api' ? g.name === '' : g.name !== '')).map((g) => ({
    metadata: g.name ? { name: g.name, creationTimestamp: null } : { creationTimestamp: null },
    versions: g.versions.map((v) => ({
      version: v,
      resources: catalog.resourcesOf(g.name, v).map((d) => discoveryResource(catalog, d)),
      freshness: 'Current',
    })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${apiVersion}`, metadata: {}, items };
}

function sameGroupVersion(k: { group: string; version: string }, d: { group: string; version: string }): boolean {
  return k.group === d.group && k.version === d.version;
}
