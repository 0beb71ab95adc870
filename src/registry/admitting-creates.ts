/**
 * Admission for storages that only create: the create-only sub-resources (`pods/eviction`, `pods/binding`,
 * `serviceaccounts/token`) and the virtual kinds (TokenReview, the access reviews, SelfSubjectReview). Both phases
 * run before the create, with the request object (Eviction, Binding, TokenRequest, …) and the parent's name;
 * every other verb passes through.
 */
import type { KObject } from '../machinery/objects.ts';
import type { ResourceDef } from '../api/types.ts';
import type { Admission, AdmissionAttributes } from './admission.ts';
import { optionsObject } from './admission.ts';
import type { OpContext, RestStorage, WriteParams } from './rest.ts';
import { clone } from './object-utils.ts';

export interface AdmittingCreatesOptions {
  readonly def: ResourceDef;
  /** '' for virtual kinds. */
  readonly subresource: string;
  readonly admission: () => Admission | undefined;
}

export function admittingCreates(inner: RestStorage, o: AdmittingCreatesOptions): RestStorage {
  return new AdmittingCreates(inner, o);
}

class AdmittingCreates implements RestStorage {
  constructor(private readonly inner: RestStorage, private readonly o: AdmittingCreatesOptions) {}

  get def(): ResourceDef {
    return this.inner.def;
  }

  get: RestStorage['get'] = (...a) => this.inner.get(...a);
  list: RestStorage['list'] = (...a) => this.inner.list(...a);
  watch: RestStorage['watch'] = (...a) => this.inner.watch(...a);
  update: RestStorage['update'] = (...a) => this.inner.update(...a);
  guaranteedUpdate: RestStorage['guaranteedUpdate'] = (...a) => this.inner.guaranteedUpdate(...a);
  delete: RestStorage['delete'] = (...a) => this.inner.delete(...a);
  deleteCollection: RestStorage['deleteCollection'] = (...a) => this.inner.deleteCollection(...a);

  async create(ctx: OpContext, obj: KObject, params: WriteParams): Promise<KObject> {
    const admission = this.o.admission();
    if (!admission) return this.inner.create(ctx, obj, params);
    const { def, subresource } = this.o;
    const sub = subresource ? def.subresources?.find((s) => s.name === subresource) : undefined;
    const kind = sub?.kind ?? { group: def.group, version: def.version, kind: def.kind };
    const resource = { group: def.group, version: def.version, resource: def.resource };
    const attrs: AdmissionAttributes = {
      operation: 'CREATE', kind, resource, subresource,
      requestKind: kind, requestResource: resource, requestSubResource: subresource,
      name: subresource ? (ctx.name ?? obj.metadata?.name ?? '') : (obj.metadata?.name ?? ''),
      namespace: def.namespaced ? ctx.namespace : '',
      object: clone(obj), oldObject: undefined,
      options: optionsObject('CreateOptions', { dryRun: ctx.dryRun ? ['All'] : undefined, fieldManager: ctx.fieldManager }),
      dryRun: ctx.dryRun, user: ctx.user, warnings: ctx.warnings, auditAnnotations: ctx.auditAnnotations ?? {},
      reinvocation: { requested: false, running: false },
    };
    await admission.admit(attrs);
    const admitted = attrs.object ?? obj;
    await admission.validate({ ...attrs, object: clone(admitted) });
    return this.inner.create(ctx, admitted, params);
  }
}
