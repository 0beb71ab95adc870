/**
 * The `scale` sub-resource (deployments, replicasets, statefulsets, replicationcontrollers): an autoscaling/v1
 * `Scale` view of the parent. GET builds it from the parent (name, namespace, uid, resourceVersion and
 * creationTimestamp of the parent; spec.replicas; status.replicas; status.selector as a selector string).
 * PUT/PATCH change only the parent's spec.replicas, guarded by the Scale's resourceVersion (409 when stale).
 * Ownership (kube's ScaleHandler): the Scale a write starts from carries the parent's owners of spec.replicas
 * as Scale entries; the write is recorded on the Scale (subresource `scale`), or computed by server-side apply
 * (`keepManagedFields`), and mapped back onto the parent's managedFields.
 */
import type { GroupVersionKind, KObject, ManagedFieldsEntry } from '../../machinery/objects.ts';
import { toParent, toScale as scaleEntriesOf, updateManagedFields } from '../../apply/ssa/index.ts';
import { errors, field } from '../../machinery/errors.ts';
import type { CachedObject } from '../../storage/cacher/types.ts';
import type { GetParams, OpContext, UpdateFn } from '../rest.ts';
import { getObject } from '../get-list.ts';
import { clone } from '../object-utils.ts';
import type { StoreCore } from '../store-core.ts';
import { updateLoop } from '../update.ts';
import { optionsObject } from '../admission.ts';

interface LabelSelectorRequirement { key: string; operator: string; values?: string[] }
interface LabelSelector { matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[] }

/** metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key, values sorted. */
export function selectorString(sel: unknown): string {
  if (!sel || typeof sel !== 'object') return '';
  const s = sel as LabelSelector & Record<string, unknown>;
  const isLabelSelector = 'matchLabels' in s || 'matchExpressions' in s;
  const reqs: { key: string; text: string }[] = [];
  const labels = isLabelSelector ? s.matchLabels ?? {} : (s as Record<string, string>);
  for (const [k, v] of Object.entries(labels)) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of isLabelSelector ? s.matchExpressions ?? [] : []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    switch (e.operator) {
      case 'In': reqs.push({ key: e.key, text: `${e.key} in (${vals})` }); break;
      case 'NotIn': reqs.push({ key: e.key, text: `${e.key} notin (${vals})` }); break;
      case 'Exists': reqs.push({ key: e.key, text: e.key }); break;
      case 'DoesNotExist': reqs.push({ key: e.key, text: `!${e.key}` }); break;
    }
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}

function scaleKind(core: StoreCore): GroupVersionKind {
  return core.def.subresources?.find((s) => s.name === 'scale')?.kind ?? { group: 'autoscaling', version: 'v1', kind: 'Scale' };
}

/** Custom resources name their replica and selector fields in the CRD (src/registry/customresources/resource-def.ts). */
interface CustomScalePaths { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string }

function customScale(core: StoreCore): CustomScalePaths | undefined {
  return (core.def as { crd?: { scale?: CustomScalePaths } }).crd?.scale;
}

const pathSegments = (p: string) => p.replace(/^\./, '').split('.');

function readPath(obj: unknown, p: string): unknown {
  let cur = obj;
  for (const seg of pathSegments(p)) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

function writePath(obj: Record<string, unknown>, p: string, value: unknown): void {
  const segs = pathSegments(p);
  let cur = obj;
  for (const seg of segs.slice(0, -1)) {
    const next = cur[seg];
    if (!next || typeof next !== 'object' || Array.isArray(next)) cur[seg] = {};
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[segs[segs.length - 1]!] = value;
}

/** kube's scaleFromCustomResource: replicas read from the CRD's paths (0 when missing), selector as stored. */
function customScaleView(parent: KObject, paths: CustomScalePaths): { replicas: number; statusReplicas: number; selector: string } {
  const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
  const sel = paths.labelSelectorPath ? readPath(parent, paths.labelSelectorPath) : undefined;
  return { replicas: int(readPath(parent, paths.specReplicasPath)), statusReplicas: int(readPath(parent, paths.statusReplicasPath)), selector: typeof sel === 'string' ? sel : '' };
}

export function toScale(core: StoreCore, parent: KObject): KObject {
  const gvk = scaleKind(core);
  const custom = customScale(core);
  const view = custom ? customScaleView(parent, custom) : undefined;
  const spec = (view ? { replicas: view.replicas } : parent['spec'] ?? {}) as { replicas?: number; selector?: unknown };
  const status = (view ? { replicas: view.statusReplicas } : parent['status'] ?? {}) as { replicas?: number };
  const meta = parent.metadata;
  const scale: KObject = {
    kind: gvk.kind,
    apiVersion: gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version,
    metadata: {
      name: meta.name,
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: {},
    status: { replicas: status.replicas ?? 0 },
  };
  const replicas = spec.replicas ?? 1;
  if (replicas !== 0) (scale['spec'] as Record<string, unknown>)['replicas'] = replicas;
  const selector = view ? view.selector : selectorString(spec.selector);
  if (selector) (scale['status'] as Record<string, unknown>)['selector'] = selector;
  return scale;
}

function decodeError(kind: string, version: string, jsonType: string, where: string, goType: string) {
  return errors.badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: json: cannot unmarshal ${jsonType} into Go struct field ${where} of type ${goType}`);
}

export async function scaleGet(core: StoreCore, ctx: OpContext, name: string, params: GetParams): Promise<CachedObject> {
  const parent = await getObject(core, { ...ctx, subresource: '' }, name, params);
  const scale = toScale(core, parent.object);
  return { key: parent.key, kv: parent.kv, object: scale, attrs: parent.attrs, encoded: new Map() };
}

/** The Scale a write starts from: as served by GET, plus the parent's replicas owners translated. */
function scaleForWrite(core: StoreCore, parent: KObject): KObject {
  const scale = toScale(core, parent);
  const entries = scaleEntriesOf({ parentEntries: parent.metadata.managedFields, parentApiVersion: core.apiVersion() });
  if (entries?.length) scale.metadata.managedFields = entries;
  return scale;
}

/**
 * PUT/PATCH of `…/scale`: `produce` gets the current Scale (with its managedFields) and returns the desired one.
 * With `keepManagedFields` the desired Scale's managedFields are final (server-side apply computed them).
 */
export async function scaleUpdate(core: StoreCore, ctx: OpContext, name: string, produce: UpdateFn, opts: { requireResourceVersion: boolean; keepManagedFields?: boolean }): Promise<{ object: KObject; created: boolean }> {
  const res = await updateLoop(core, ctx, name, async (parent) => {
    if (!parent) throw errors.notFound(core.resource(name));
    const current = scaleForWrite(core, parent);
    let desired = await produce(clone(current));
    const gvk = scaleKind(core);
    const spec = desired['spec'] as unknown;
    if (spec !== undefined && spec !== null && (typeof spec !== 'object' || Array.isArray(spec))) {
      throw decodeError(gvk.kind, gvk.version, Array.isArray(spec) ? 'array' : typeof spec, `${gvk.kind}.spec`, 'v1.ScaleSpec');
    }
    const replicas = (spec as { replicas?: unknown } | null | undefined)?.replicas ?? 0;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
      const jt = typeof replicas === 'number' ? `number ${replicas}` : Array.isArray(replicas) ? 'array' : typeof replicas === 'boolean' ? 'bool' : typeof replicas;
      throw decodeError(gvk.kind, gvk.version, jt, 'ScaleSpec.spec.replicas', 'int32');
    }
    const admission = core.admission();
    if (admission) {
      // Admission sees Scales (kube's scale REST converts before its update validation), not the parent.
      const attrs = core.admissionAttributes(ctx, { operation: 'UPDATE', name, object: clone(desired), oldObject: current,
        options: optionsObject('UpdateOptions', { dryRun: ctx.dryRun ? ['All'] : undefined, fieldManager: ctx.fieldManager }) });
      await admission.admit(attrs);
      desired = attrs.object ?? desired;
      await admission.validate({ ...attrs, object: clone(desired) });
    }
    const admittedReplicas = ((desired['spec'] as { replicas?: unknown } | null | undefined)?.replicas ?? 0) as number;
    if (admittedReplicas < 0) {
      throw errors.invalid({ kind: gvk.kind, group: gvk.group, name }, [field.invalid('spec.replicas', admittedReplicas, 'must be greater than or equal to 0')]);
    }
    const next = clone(parent);
    const custom = customScale(core);
    if (custom) writePath(next, custom.specReplicasPath, admittedReplicas);
    else next['spec'] = { ...((next['spec'] as Record<string, unknown>) ?? {}), replicas: admittedReplicas };
    // The Scale's resourceVersion guards the parent (empty = unconditional).
    next.metadata.resourceVersion = desired.metadata?.resourceVersion || parent.metadata.resourceVersion;
    let scaleEntries: ManagedFieldsEntry[] | undefined;
    if (opts.keepManagedFields) scaleEntries = desired.metadata?.managedFields;
    else if (ctx.fieldManager !== undefined) {
      scaleEntries = updateManagedFields({
        old: current, updated: desired, manager: ctx.fieldManager, apiVersion: current.apiVersion!, kind: gvk.kind,
        subresource: 'scale', now: core.now(),
      }).managedFields;
    } else return next; // system caller: ownership unchanged
    const entries = toParent({ parentEntries: parent.metadata.managedFields, parentApiVersion: core.apiVersion(), scaleEntries });
    if (entries?.length) next.metadata.managedFields = entries;
    else delete next.metadata.managedFields;
    return next;
  }, { requireResourceVersion: false, allowCreate: false, neverCreate: true, keepManagedFields: true, admission: false });
  return { object: toScale(core, res.object), created: false };
}
