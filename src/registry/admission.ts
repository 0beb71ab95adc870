/**
 * The admission contract the registry calls (kube's admission.Interface as the generic store sees it). The chain
 * and its plugins live in src/admission; the composition root hands the registry the chain.
 *
 * Where the registry calls it, in kube-apiserver's order:
 * - create: decode + defaults → mutating phase (`admit`) → system fields, strategy prepare, validation →
 *   validating phase (`validate`, on a copy) → storage;
 * - update (PUT, PATCH, apply, status/scale writes, create-on-update): the new object from the current one →
 *   `admit` (oldObject = current) → strategy prepare and validation → `validate` → storage (on a lost race the
 *   whole step runs again against the newer object);
 * - delete: `admit` then `validate` with oldObject = the object being deleted, object absent, just before the
 *   write (a pending graceful deletion returns earlier, unadmitted, as in kube);
 * - create-only sub-resources and virtual kinds (eviction, binding, token, reviews): both phases before the create;
 * - connect (pods/exec, attach, portforward, proxy): both phases with the options object, from the handler.
 * Plugins may replace or change `attrs.object` in the mutating phase only; the registry reads it back.
 */
import type { GroupVersionKind, KObject, UserInfo } from '../machinery/objects.ts';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** kube's admission.Attributes. */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** '' for the main resource. */
  readonly subresource: string;
  /** What the client asked for (differs from kind/resource when the request was served through another version). */
  readonly requestKind: GroupVersionKind;
  readonly requestResource: GroupVersionResource;
  readonly requestSubResource: string;
  readonly name: string;
  /** '' for cluster-scoped resources. */
  readonly namespace: string;
  /** The new object (absent for DELETE); mutating plugins may change or replace it. */
  object: KObject | undefined;
  /** The current object for UPDATE and DELETE. */
  readonly oldObject: KObject | undefined;
  /** CreateOptions, UpdateOptions, DeleteOptions, or the connect options (PodExecOptions, …). */
  readonly options: Readonly<Record<string, unknown>> | undefined;
  readonly dryRun: boolean;
  readonly user: UserInfo;
  /** The request's Warning headers. */
  readonly warnings: string[];
  /** The request's audit annotations (`<plugin or webhook>/<key>`). */
  readonly auditAnnotations: Record<string, string>;
  /**
   * Set by the chain while it runs the mutating phase a second time (a webhook with reinvocationPolicy IfNeeded
   * asked for it); plugins ask `reinvocation.requested` to ask for one.
   */
  readonly reinvocation: { requested: boolean; running: boolean };
}

export interface Admission {
  /** The mutating phase. Throws the StatusError the client gets when a plugin refuses. */
  admit(attrs: AdmissionAttributes): Promise<void>;
  /** The validating phase: plugins may not change the object. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}

/** kube's CreateOptions / UpdateOptions / DeleteOptions objects as admission passes them. */
export function optionsObject(kind: 'CreateOptions' | 'UpdateOptions' | 'DeleteOptions' | 'PatchOptions', fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: 'meta.k8s.io/v1' };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  return out;
}
