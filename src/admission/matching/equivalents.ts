/**
 * Equivalent resources for matchPolicy Equivalent (kube's EquivalentResourceMapper, keyed as kube-apiserver keys
 * it: by storage location). Two served resources are equivalent when they store their objects in the same place
 * — autoscaling/v1 and v2 HorizontalPodAutoscalers, core and events.k8s.io Events, every version of a custom
 * resource — and a sub-resource is equivalent where both serve it. Objects convert between equivalent versions
 * through storage: the request version's converter to the storage version, then the target's from it (a CRD with
 * conversion webhooks asks its webhook).
 */
import type { Catalog } from '../../api/catalog.ts';
import { apiVersionOf, type ResourceDef } from '../../api/types.ts';
import type { GroupVersionKind, KObject } from '../../machinery/objects.ts';
import type { GroupVersionResource } from '../../registry/admission.ts';
import type { CustomResourceDef } from '../../registry/customresources/resource-def.ts';

const sameGvr = (a: GroupVersionResource, b: GroupVersionResource): boolean =>
  a.group === b.group && a.version === b.version && a.resource === b.resource;

export class EquivalentResources {
  constructor(private readonly catalog: Catalog | undefined) {}

  def(gvr: GroupVersionResource): ResourceDef | undefined {
    return this.catalog?.lookup(gvr.group, gvr.version, gvr.resource);
  }

  /**
   * Every resource equivalent to `gvr` serving `subresource` ('' for the main resource), `gvr` itself included,
   * in the catalog's order.
   */
  equivalentsFor(gvr: GroupVersionResource, subresource: string): GroupVersionResource[] {
    const def = this.def(gvr);
    if (!def || !this.catalog) return [gvr];
    const out: GroupVersionResource[] = [];
    for (const d of this.catalog.all()) {
      if (d.virtual || d.storagePrefix !== def.storagePrefix) continue;
      if (subresource && !(d.subresources ?? []).some((s) => s.name === subresource)) continue;
      out.push({ group: d.group, version: d.version, resource: d.resource });
    }
    return out.some((r) => sameGvr(r, gvr)) ? out : [gvr, ...out];
  }

  /** The kind served at `gvr` (its `subresource`'s kind when it has its own, e.g. autoscaling/v1 Scale). */
  kindFor(gvr: GroupVersionResource, subresource: string): GroupVersionKind | undefined {
    const def = this.def(gvr);
    if (!def) return undefined;
    const sub = subresource ? (def.subresources ?? []).find((s) => s.name === subresource) : undefined;
    if (subresource && !sub) return undefined;
    return sub?.kind ?? { group: def.group, version: def.version, kind: def.kind };
  }

  /**
   * `obj` (an object of `from`'s kind, in `from`'s version) as `to` serves it. Objects of another kind (a
   * sub-resource's own kind such as Scale or Eviction, connect options) are returned as they are.
   */
  async convert(obj: KObject, from: GroupVersionResource, to: GroupVersionResource): Promise<KObject> {
    if (sameGvr(from, to)) return obj;
    const fromDef = this.def(from);
    const toDef = this.def(to);
    if (!fromDef || !toDef || !this.catalog) return obj;
    if (obj.kind !== undefined && obj.kind !== fromDef.kind) return obj;
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersionOf(fromDef)) return obj;
    const webhook = (toDef as Partial<CustomResourceDef>).crd?.webhook;
    if (webhook) return webhook.convert(obj, apiVersionOf(toDef));
    const toStorage = this.catalog.converter(fromDef);
    const fromStorage = this.catalog.converter(toDef);
    const stored = toStorage ? toStorage.toStorage(obj) : obj;
    const out = fromStorage ? fromStorage.fromStorage(stored) : { ...stored };
    out.apiVersion = apiVersionOf(toDef);
    out.kind = toDef.kind;
    return out;
  }
}
