/**
 * Namespaces' special REST (kube's pkg/registry/core/namespace):
 * - create: status.phase `Active`, spec.finalizers gets `kubernetes`, label `kubernetes.io/metadata.name=<name>`
 *   (also kept on every update, as kube's defaulting does);
 * - main update keeps spec.finalizers and status; `status` writes keep spec; `finalize` writes keep status and
 *   take spec.finalizers from the body;
 * - delete: the first one sets deletionTimestamp and phase `Terminating` (plus orphan/foregroundDeletion finalizers
 *   as asked) and keeps the namespace; later ones return it unchanged while spec.finalizers is non-empty, and
 *   remove it once both finalizer lists are empty (NamespaceLifecycle admission refuses to delete `default`,
 *   `kube-system` and `kube-public`);
 * - an update (e.g. `finalize`) that leaves a deleted namespace without any finalizer removes it.
 */
import type { KObject } from '../../machinery/objects.ts';
import { errors, field, type FieldError } from '../../machinery/errors.ts';
import type { KeyValue } from '../../storage/interface.ts';
import type { DeleteParams, DeleteResult, OpContext } from '../rest.ts';
import { admitDelete, deleteObject, gcFinalizers } from '../delete.ts';
import { GenericStore, type GenericStoreOptions } from '../generic-store.ts';
import { clone, rfc3339 } from '../object-utils.ts';
import { validateDeleteParams } from '../options.ts';
import { toStatusError } from '../storage-errors.ts';
import { defaultShouldDelete, type UpdateLoopOptions } from '../update.ts';
import { isQualifiedName } from '../validation/names.ts';

const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';

interface NamespaceSpec { finalizers?: string[] }

function spec(obj: KObject): NamespaceSpec {
  return (obj['spec'] ?? {}) as NamespaceSpec;
}

/** Decode-level type check of spec.finalizers (kube fails to decode anything else with a 400). */
function checkSpecTypes(obj: KObject): void {
  const sp = obj['spec'] as unknown;
  const bad = (jt: string, where: string, type: string) => errors.badRequest(
    `Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal ${jt} into Go struct field ${where} of type ${type}`);
  const jt = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v);
  if (sp === undefined || sp === null) return;
  if (typeof sp !== 'object' || Array.isArray(sp)) throw bad(jt(sp), 'Namespace.spec', 'v1.NamespaceSpec');
  const f = (sp as Record<string, unknown>)['finalizers'];
  if (f === undefined || f === null) return;
  if (!Array.isArray(f)) throw bad(jt(f), 'NamespaceSpec.spec.finalizers', '[]v1.FinalizerName');
  for (const x of f) if (typeof x !== 'string') throw bad(jt(x), 'NamespaceSpec.spec.finalizers', 'v1.FinalizerName');
}

function setNameLabel(obj: KObject): void {
  if (!obj.metadata.name) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [METADATA_NAME_LABEL]: obj.metadata.name };
}

/** Finalizer names in spec.finalizers: qualified names; without a '/' only the standard `kubernetes`. */
function validateSpecFinalizers(obj: KObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of spec(obj).finalizers ?? []) {
    for (const m of isQualifiedName(f)) errs.push(field.invalid('spec.finalizers', f, m));
    if (!f.includes('/') && f !== 'kubernetes') {
      errs.push(field.invalid('spec.finalizers', f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  }
  return errs;
}

export class NamespaceStore extends GenericStore {
  constructor(opts: GenericStoreOptions) {
    const base = opts.def.strategy ?? {};
    super({
      ...opts,
      def: {
        ...opts.def,
        strategy: {
          ...base,
          // kube's defaulting sets the label, so it counts as the request's own field.
          defaults(obj) {
            checkSpecTypes(obj);
            base.defaults?.(obj);
            setNameLabel(obj);
          },
          prepareForCreate(obj, ctx) {
            base.prepareForCreate?.(obj, ctx);
            const finalizers = spec(obj).finalizers ?? [];
            obj['spec'] = { ...spec(obj), finalizers: finalizers.includes('kubernetes') ? finalizers : [...finalizers, 'kubernetes'] };
            obj['status'] = { phase: 'Active' };
            setNameLabel(obj);
          },
          prepareForUpdate(obj, old, ctx) {
            base.prepareForUpdate?.(obj, old, ctx);
            if (ctx.subresource === 'finalize') {
              obj['status'] = clone(old['status']);
            } else if (ctx.subresource !== 'status') {
              obj['spec'] = { ...spec(obj), finalizers: clone(spec(old).finalizers) };
              if (spec(old).finalizers === undefined) delete (obj['spec'] as NamespaceSpec).finalizers;
              obj['status'] = clone(old['status']);
            }
            setNameLabel(obj);
          },
          validate(obj, ctx) {
            return [...validateSpecFinalizers(obj), ...(base.validate?.(obj, ctx) ?? [])];
          },
          validateUpdate(obj, old, ctx) {
            const own = base.validateUpdate ? base.validateUpdate(obj, old, ctx) : base.validate?.(obj, ctx) ?? [];
            return [...validateSpecFinalizers(obj), ...own];
          },
        },
      },
    });
  }

  protected override checkSubresource(ctx: OpContext, allowed: readonly string[]): void {
    super.checkSubresource(ctx, [...allowed, 'finalize']);
  }

  protected override updateHooks(_ctx: OpContext): Pick<UpdateLoopOptions, 'afterPrepare' | 'shouldDelete'> {
    return {
      // ShouldDeleteNamespaceDuringUpdate: kube's rule, and spec.finalizers must be empty too.
      shouldDelete: (obj, old) => defaultShouldDelete(obj, old) && (spec(obj).finalizers ?? []).length === 0,
    };
  }

  override async delete(ctx: OpContext, name: string, params: DeleteParams): Promise<DeleteResult> {
    this.checkSubresource(ctx, []);
    validateDeleteParams(params);
    const core = this.core;
    const key = core.key(ctx, name);
    const site = { op: 'delete' as const, resource: 'namespaces' };
    let kv: KeyValue | undefined;
    try {
      kv = await core.store.get(key);
    } catch (e) {
      throw toStatusError(e, site);
    }
    for (let attempt = 0; attempt < 32; attempt++) {
      if (!kv) throw errors.notFound(core.resource(name));
      const existing = core.decode(kv);
      const pre = params.preconditions;
      if (pre?.uid !== undefined && pre.uid !== existing.metadata.uid) {
        throw errors.conflict(core.resource(name), `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${existing.metadata.uid ?? ''}`);
      }
      if (pre?.resourceVersion !== undefined && pre.resourceVersion !== existing.metadata.resourceVersion) {
        throw errors.conflict(core.resource(name), `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${existing.metadata.resourceVersion ?? ''}`);
      }
      if (!existing.metadata.deletionTimestamp) {
        // First delete: start termination; the namespace controller empties it and then finalizes.
        await admitDelete(core, ctx, name, existing, params);
        const obj = clone(existing);
        obj.metadata.deletionTimestamp = rfc3339(core.now());
        obj['status'] = { ...((obj['status'] as Record<string, unknown>) ?? {}), phase: 'Terminating' };
        const fin = gcFinalizers(core, obj, params);
        if (fin.changed) obj.metadata.finalizers = fin.finalizers;
        if (obj.metadata.finalizers?.length === 0) delete obj.metadata.finalizers;
        let res;
        try {
          res = await core.writer(ctx).update(key, core.encode(obj), { expectedModRevision: kv.modRevision });
        } catch (e) {
          throw toStatusError(e, site);
        }
        if (res.succeeded) return { object: core.decode(res.kv), deleted: false };
        kv = res.current;
        continue;
      }
      // Being deleted: stays until spec.finalizers is empty, then the generic delete (metadata finalizers) applies.
      if ((spec(existing).finalizers ?? []).length > 0) return { object: existing, deleted: false };
      return deleteObject(core, ctx, name, params);
    }
    throw errors.conflict(core.resource(name));
  }
}
