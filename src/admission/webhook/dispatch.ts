/**
 * Calling admission webhooks (kube's webhook/generic, mutating and validating dispatchers):
 *
 * Mutating (one at a time, in configuration-name then webhook order): a webhook whose rules, selectors and match
 * conditions select the request gets the object in the version it registered for (converted when it matched
 * through an equivalent resource); its JSON patch is applied to that object, which is then decoded again as
 * kube decodes it (fields the kind does not declare dropped) and defaulted; the next webhook sees the result, and
 * the final object goes back into the request's version. A webhook that changed the object makes the chain run
 * the mutating phase again; in that second round only webhooks with reinvocationPolicy IfNeeded that ran before
 * the change are called again.
 *
 * Validating (all at once): every selected webhook is called in parallel; the first failure to arrive is the
 * answer.
 *
 * Failures, in kube's words: a denial is the webhook's Status with `admission webhook "<name>" denied the
 * request: <message>` (code 400 unless it gave one of 400 or more); failing to call or understand a webhook is
 * `failed calling webhook "<name>": <reason>`, a 500 InternalError under failurePolicy Fail and ignored (with a
 * `failed-open…` audit annotation) under Ignore; a dry-run request reaching a webhook with side effects is a 400
 * whatever the policy; a match condition that fails to evaluate under Fail is a 403.
 */
import { randomUUID } from 'node:crypto';
import type { Authorizer } from '../../request/authorizer.ts';
import { errors, StatusError, type StatusDetails, type StatusReason } from '../../machinery/errors.ts';
import { goJsonSyntaxError } from '../../machinery/json/go-errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import type { AdmissionAttributes, GroupVersionResource } from '../../registry/admission.ts';
import { clone, jsonEqual } from '../../registry/object-utils.ts';
import { registryStrategy } from '../../registry/strategy.ts';
import { dropUnknownFields } from '../../apply/drop-unknown.ts';
import { applyJsonPatch, decodeJsonPatch, type JsonPatchOp } from '../../apply/json-patch.ts';
import { rootNodeFor, unstructuredRoot } from '../../apply/schema-view.ts';
import { apiVersionOf } from '../../api/types.ts';
import { matchInvocation, type EquivalentResources, type Invocation, type MatchDeps } from '../matching/index.ts';
import { encodeReview, readReply, ReplyError, reviewVersionFor, verifyReply, type VerifiedResponse } from './review.ts';
import type { Webhook } from './source.ts';
import { CallError, ClientConfigError, type WebhookTransport } from './transport.ts';
import type { AdmissionMetricsSink } from '../types.ts';

/** kube's ErrCallingWebhook: the webhook could not be called or understood (failurePolicy applies). */
export class CallingWebhookError extends Error {
  override name = 'CallingWebhookError';
  constructor(readonly webhook: string, reason: string) {
    super(`failed calling webhook ${JSON.stringify(webhook)}: ${reason}`);
  }
}

export interface DispatchDeps extends MatchDeps {
  readonly transport: WebhookTransport;
  readonly authorizer: () => Authorizer | undefined;
  readonly log: (line: string) => void;
  /** apiserver_admission_webhook_admission_duration_seconds, one observation per call. */
  readonly metrics?: AdmissionMetricsSink;
}

const sameResource = (a: GroupVersionResource, b: GroupVersionResource): boolean =>
  a.group === b.group && a.version === b.version && a.resource === b.resource;

/** kube's ToStatusErr: the webhook's Status, made a failure with kube's message prefix. */
export function denial(webhook: string, result: Record<string, unknown> | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const r = result ?? {};
  const code = typeof r['code'] === 'number' && r['code'] >= 400 ? r['code'] : 400;
  const message = typeof r['message'] === 'string' && r['message'] ? `${deniedBy}: ${r['message']}`
    : typeof r['reason'] === 'string' && r['reason'] ? `${deniedBy}: ${r['reason']}` : `${deniedBy} without explanation`;
  const reason = (typeof r['reason'] === 'string' ? r['reason'] : '') as StatusReason;
  const details = r['details'] && typeof r['details'] === 'object' ? r['details'] as StatusDetails : undefined;
  return new StatusError(code, reason, message, details);
}

/** Objects of one request in the version a webhook is invoked with (kube's VersionedAttributes). */
class Versioned {
  resource: GroupVersionResource;
  object: KObject | undefined;
  oldObject: KObject | undefined;
  dirty = false;

  constructor(private readonly attrs: AdmissionAttributes, private readonly equivalents: EquivalentResources) {
    this.resource = attrs.resource;
    this.object = attrs.object;
    this.oldObject = attrs.oldObject;
  }

  /** Converts (when needed) to the invocation's version: the object as it is now, the old object from the request. */
  async at(inv: Invocation): Promise<this> {
    if (sameResource(this.resource, inv.resource)) return this;
    if (this.object) this.object = await this.equivalents.convert(this.object, this.resource, inv.resource);
    this.oldObject = this.attrs.oldObject ? await this.equivalents.convert(this.attrs.oldObject, this.attrs.resource, inv.resource) : undefined;
    this.resource = inv.resource;
    return this;
  }

  /** The (patched) object in the request's version. */
  async requestObject(): Promise<KObject | undefined> {
    if (!this.object) return undefined;
    return this.equivalents.convert(this.object, this.resource, this.attrs.resource);
  }
}

/** Per-request state of the mutating webhooks across the two rounds (kube's webhookReinvokeContext). */
interface ReinvokeState {
  lastOutput: KObject | undefined;
  hasOutput: boolean;
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
}

function requireReinvoking(s: ReinvokeState): void {
  for (const uid of s.previouslyInvoked) s.reinvoke.add(uid);
  s.previouslyInvoked.clear();
}

const MUTATION_ANNOTATION = 'mutation.webhook.admission.k8s.io/';
const MUTATION_FAILED_OPEN = `failed-open.${MUTATION_ANNOTATION}`;
const VALIDATION_FAILED_OPEN = 'failed-open.validating.webhook.admission.k8s.io/';

/** Audit annotations are never overwritten (kube's AddAnnotation keeps the first value). */
function annotate(attrs: AdmissionAttributes, key: string, value: string): void {
  if (!(key in attrs.auditAnnotations)) attrs.auditAnnotations[key] = value;
}

abstract class Dispatcher {
  constructor(protected readonly deps: DispatchDeps, private readonly mutating: boolean) {}

  /** kube's ShouldCallHook: the invocation, or undefined to skip; throws the request's error. */
  protected async shouldCall(h: Webhook, attrs: AdmissionAttributes, versioned: (inv: Invocation) => Promise<Versioned>): Promise<Invocation | undefined> {
    const inv = await matchInvocation(h.criteria, attrs, this.deps);
    if (!inv || h.conditions.empty) return inv;
    const v = await versioned(inv);
    const r = await h.conditions.match({
      attrs, resource: inv.resource, kind: inv.kind, object: v.object, oldObject: v.oldObject, authorizer: this.deps.authorizer(),
    }, h.failurePolicy);
    if (r.error !== undefined) {
      this.deps.log(`failed evaluating match conditions, failing closed ${h.name}: ${r.error}`);
      throw errors.forbidden({ kind: attrs.resource.resource, group: attrs.resource.group, ...(attrs.name ? { name: attrs.name } : {}) }, r.error);
    }
    return r.matches ? inv : undefined;
  }

  /** One call: the review out, the verified reply back; throws CallingWebhookError, a denial, or a 400 for dry run. */
  protected async call(h: Webhook, inv: Invocation, v: Versioned, attrs: AdmissionAttributes): Promise<VerifiedResponse> {
    if (attrs.dryRun) {
      if (h.sideEffects === undefined) throw new CallingWebhookError(h.name, 'Webhook SideEffects is nil');
      if (h.sideEffects !== 'None' && h.sideEffects !== 'NoneOnDryRun') {
        throw errors.badRequest(`admission webhook ${JSON.stringify(h.name)} does not support dry run`);
      }
    }
    const version = reviewVersionFor(h.admissionReviewVersions);
    if (!version) throw new CallingWebhookError(h.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
    const uid = randomUUID();
    const body = encodeReview({ uid, version, attrs, invocation: inv, object: v.object, oldObject: v.oldObject });
    let verified: VerifiedResponse;
    const t0 = this.deps.metrics ? process.hrtime.bigint() : 0n;
    let rejected = true;
    try {
      const reply = await this.deps.transport.post(h.clientConfig, body, h.timeoutSeconds);
      let doc: Record<string, unknown>;
      try {
        doc = readReply(reply.status, reply.contentType, reply.body, version);
      } catch (e) {
        if (e instanceof ReplyError) throw new CallingWebhookError(h.name, `failed to call webhook: ${e.message}`);
        throw e;
      }
      try {
        verified = verifyReply(uid, this.mutating, version, doc);
      } catch (e) {
        if (e instanceof ReplyError) throw new CallingWebhookError(h.name, `received invalid webhook response: ${e.message}`);
        throw e;
      }
    } catch (e) {
      if (e instanceof ClientConfigError) throw new CallingWebhookError(h.name, `could not get REST client: ${e.message}`);
      if (e instanceof CallError) throw new CallingWebhookError(h.name, `failed to call webhook: ${e.message}`);
      throw e;
    } finally {
      this.deps.metrics?.observeAdmissionWebhook?.(h.name, this.mutating ? 'admit' : 'validate', attrs.operation, rejected, Number(process.hrtime.bigint() - t0) / 1e9);
    }
    rejected = !verified.allowed;
    for (const [k, val] of Object.entries(verified.auditAnnotations ?? {})) annotate(attrs, `${h.name}/${k}`, val ?? '');
    for (const w of verified.warnings ?? []) attrs.warnings.push(w);
    if (!verified.allowed) throw denial(h.name, verified.result);
    return verified;
  }
}

export class MutatingDispatcher extends Dispatcher {
  readonly #states = new WeakMap<AdmissionAttributes, ReinvokeState>();

  constructor(deps: DispatchDeps) {
    super(deps, true);
  }

  async dispatch(attrs: AdmissionAttributes, hooks: readonly Webhook[]): Promise<void> {
    let state = this.#states.get(attrs);
    if (!state) {
      state = { lastOutput: undefined, hasOutput: false, previouslyInvoked: new Set(), reinvoke: new Set() };
      this.#states.set(attrs, state);
    }
    const reinvoking = attrs.reinvocation.running;
    // Plugins that ran again before this one changed the object: every eligible webhook runs again.
    if (reinvoking && state.hasOutput && !jsonEqual(state.lastOutput, attrs.object)) requireReinvoking(state);
    const v = new Versioned(attrs, this.deps.equivalents);
    try {
      for (let i = 0; i < hooks.length; i++) {
        const h = hooks[i]!;
        const inv = await this.shouldCall(h, attrs, (x) => v.at(x));
        if (!inv) continue;
        if (reinvoking && !state.reinvoke.has(h.uid)) continue;
        await v.at(inv);
        const round = reinvoking ? 1 : 0;
        let changed = false;
        let failure: unknown;
        try {
          changed = await this.#callMutating(h, inv, v, attrs);
        } catch (e) {
          failure = e;
        }
        annotate(attrs, `${MUTATION_ANNOTATION}round_${round}_index_${i}`, JSON.stringify({ configuration: h.configurationName, webhook: h.name, mutated: changed }));
        if (changed) {
          requireReinvoking(state);
          attrs.reinvocation.requested = true;
        }
        if (h.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(h.uid);
        if (failure === undefined) continue;
        if (failure instanceof CallingWebhookError) {
          if (h.failurePolicy === 'Ignore') {
            this.deps.log(`Failed calling webhook, failing open ${h.name}: ${failure.message}`);
            annotate(attrs, `${MUTATION_FAILED_OPEN}round_${round}_index_${i}`, h.name);
            continue;
          }
          throw errors.internal(failure.message);
        }
        throw failure;
      }
      if (v.dirty) attrs.object = await v.requestObject();
    } finally {
      state.lastOutput = attrs.object === undefined ? undefined : clone(attrs.object);
      state.hasOutput = true;
    }
  }

  /** Calls one mutating webhook and applies its patch to `v.object`; true when the object changed. */
  async #callMutating(h: Webhook, inv: Invocation, v: Versioned, attrs: AdmissionAttributes): Promise<boolean> {
    const reply = await this.call(h, inv, v, attrs);
    if (!reply.patch?.length) return false;
    let ops: JsonPatchOp[];
    const text = reply.patch.toString('utf8');
    try {
      ops = decodeJsonPatch(JSON.parse(text));
    } catch (e) {
      throw errors.internal(e instanceof SyntaxError ? goJsonSyntaxError(text) : (e as Error).message);
    }
    if (ops.length === 0) return false;
    if (!v.object) throw errors.internal(`admission webhook ${JSON.stringify(h.name)} attempted to modify the object, which is not supported for this operation`);
    if (reply.patchType !== 'JSONPatch') throw new CallingWebhookError(h.name, `unsupported patch type ${JSON.stringify(reply.patchType)}`);
    let patched: unknown;
    try {
      patched = applyJsonPatch(v.object, ops);
    } catch (e) {
      throw errors.internal((e as Error).message);
    }
    const decoded = this.#decode(patched, inv);
    const changed = !jsonEqual(v.object, decoded);
    v.object = decoded;
    v.dirty = true;
    const def = this.deps.equivalents.def(inv.resource);
    if (def && decoded.kind === def.kind) registryStrategy(def).defaults?.(decoded);
    return changed;
  }

  /** The patched JSON decoded into the invocation's kind: unknown fields dropped (kube decodes into Go types). */
  #decode(patched: unknown, inv: Invocation): KObject {
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
      const t = patched === null ? 'null' : Array.isArray(patched) ? 'array' : typeof patched === 'boolean' ? 'bool' : typeof patched;
      throw errors.internal(`couldn't get version/kind; json parse error: json: cannot unmarshal ${t} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
    }
    const obj = patched as KObject;
    const av = apiVersionOf(inv.kind);
    obj.apiVersion = av;
    obj.kind = inv.kind.kind;
    const meta = obj.metadata as unknown;
    if (meta === undefined || meta === null) obj.metadata = {};
    else if (typeof meta !== 'object' || Array.isArray(meta)) {
      throw errors.internal(`json: cannot unmarshal ${Array.isArray(meta) ? 'array' : typeof meta} into Go struct field ${inv.kind.kind}.metadata of type v1.ObjectMeta`);
    }
    for (const [k, goType] of [['labels', 'map[string]string'], ['annotations', 'map[string]string']] as const) {
      const m = (obj.metadata as Record<string, unknown>)[k];
      if (m === undefined || m === null) continue;
      if (typeof m !== 'object' || Array.isArray(m)) {
        throw errors.internal(`json: cannot unmarshal ${Array.isArray(m) ? 'array' : typeof m} into Go struct field ObjectMeta.metadata.${k} of type ${goType}`);
      }
      for (const val of Object.values(m)) {
        if (typeof val !== 'string' && val !== null) {
          throw errors.internal(`json: cannot unmarshal ${Array.isArray(val) ? 'array' : typeof val === 'boolean' ? 'bool' : typeof val} into Go struct field ObjectMeta.metadata.${k} of type string`);
        }
      }
    }
    return dropUnknownFields(obj, rootNodeFor(av, inv.kind.kind) ?? unstructuredRoot());
  }
}

export class ValidatingDispatcher extends Dispatcher {
  constructor(deps: DispatchDeps) {
    super(deps, false);
  }

  async dispatch(attrs: AdmissionAttributes, hooks: readonly Webhook[]): Promise<void> {
    const byVersion = new Map<string, Promise<Versioned>>();
    const versioned = (inv: Invocation): Promise<Versioned> => {
      const key = `${inv.resource.group}/${inv.resource.version}/${inv.resource.resource}`;
      let p = byVersion.get(key);
      if (!p) {
        p = new Versioned(attrs, this.deps.equivalents).at(inv);
        byVersion.set(key, p);
      }
      return p;
    };
    const relevant: { h: Webhook; inv: Invocation; v: Versioned }[] = [];
    for (const h of hooks) {
      const inv = await this.shouldCall(h, attrs, versioned);
      if (!inv) continue;
      relevant.push({ h, inv, v: await versioned(inv) });
    }
    if (!relevant.length) return;
    const failures: unknown[] = [];
    await Promise.all(relevant.map(async ({ h, inv, v }, idx) => {
      try {
        await this.call(h, inv, v, attrs);
      } catch (e) {
        if (e instanceof CallingWebhookError) {
          if (h.failurePolicy === 'Ignore') {
            this.deps.log(`Failed calling webhook, failing open ${h.name}: ${e.message}`);
            annotate(attrs, `${VALIDATION_FAILED_OPEN}round_0_index_${idx}`, h.name);
            return;
          }
          failures.push(errors.internal(e.message));
          return;
        }
        failures.push(e);
      }
    }));
    if (failures.length) throw failures[0];
  }
}
