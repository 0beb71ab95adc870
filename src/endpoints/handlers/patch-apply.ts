/**
 * Server-side apply PATCH (`application/apply-patch+yaml`; JSON is YAML too), as kube's applyPatcher:
 * - options: `fieldManager` is required (422 PatchOptions), `force` allowed;
 * - the body is YAML decoded into a map (`error decoding YAML: …` 400 otherwise);
 * - the apply merges into the current object (or the kind's zero object: create-on-apply, 201) with field
 *   ownership; conflicts are 409 with every conflicting field; the result keeps the managedFields the apply
 *   computed (the registry does not record the write again);
 * - after the apply, duplicate keys in the YAML are strict findings: `fieldValidation=Strict` → 400
 *   `error strict decoding YAML: …`, Warn → one Warning header per finding;
 * - the object must still be named as the URL names it, in the URL's namespace (400 otherwise);
 * - an apply that leaves the object exactly as it was hands the registry the current object itself (its
 *   no-op), and is remembered: the same body from the same manager onto the same revision skips the merge,
 *   the body's decoding and (through `unchanged`) the registry's copy; it starts from the watch cache when the
 *   cache holds the latest revision and answers that revision's cached encoding.
 */
import type { KObject } from '../../machinery/objects.ts';
import { apply, resetFields } from '../../apply/ssa/index.ts';
import { liveRevision, NoopApplyMemo, type ApplyRequestIdentity } from '../../apply/ssa/noop-memo.ts';
import { jsonEqual } from '../../apply/fieldpath/value.ts';
import { objectKey } from '../../registry/codec.ts';
import { customApplyRoot } from '../../registry/customresources/resource-def.ts';
import type { RequestContext } from '../../request/context.ts';
import { BodySyntaxError, contentTypeOf, parseBody, readBody } from '../negotiation/decode.ts';
import { APPLY_PATCH_CBOR, CborDecodeError, decodeCborValue } from '../negotiation/cbor.ts';
import { JsonSyntaxError, scanJson } from '../../machinery/json/scan.ts';
import { negotiateResponse, respondResource } from '../negotiation/render.ts';
import { parseWriteQuery } from '../params.ts';
import { errors } from '../../machinery/errors.ts';
import { checkName, dedupOwnerReferences, ensureNamespace, expectedNamespace, hasDuplicateOwnerReferences, opContext, type HandlerScope } from './scope.ts';

function goTypeOf(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return 'number';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * Clients (kubectl, client-go) send JSON, which is YAML too: a JSON object without duplicate keys decodes the
 * same either way, and much faster as JSON. Anything else goes through the YAML decoder (kube's wording).
 */
function fastJson(body: Buffer): Record<string, unknown> | undefined {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  if (body[i] !== 0x7b) return undefined;
  const text = body.toString('utf8');
  try {
    if (scanJson(text).strict.length > 0) return undefined; // duplicates: YAML's messages
    return JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/**
 * A CBOR apply body (gate CBORServingAndStorage): decoded into a map as kube's applyPatcher does; duplicate
 * keys are errors in CBOR, never strict findings.
 */
function decodeCborApplyBody(body: Buffer): { value: Record<string, unknown>; duplicates: string[] } {
  let v: unknown;
  try {
    v = decodeCborValue(body);
  } catch (e) {
    if (e instanceof CborDecodeError) throw errors.badRequest(e.message);
    throw e;
  }
  if (v === null) return { value: {}, duplicates: [] };
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw errors.badRequest(`cbor: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v === 'string' ? 'UTF-8 text string' : typeof v === 'boolean' ? 'primitives' : 'positive integer'} into Go value of type map[string]interface {}`);
  }
  return { value: v as Record<string, unknown>, duplicates: [] };
}

/** The apply body as a map: YAML syntax errors and non-map documents are 400s worded as kube's. */
function decodeApplyBody(body: Buffer): { value: Record<string, unknown>; duplicates: string[] } {
  const json = fastJson(body);
  if (json) return { value: json, duplicates: [] };
  let decoded;
  try {
    decoded = parseBody(body, 'application/yaml');
  } catch (e) {
    if (e instanceof BodySyntaxError) throw errors.badRequest(`error decoding YAML: ${e.message}`);
    throw e;
  }
  const v = decoded.value;
  if (v === null || v === undefined) return { value: {}, duplicates: decoded.strict };
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw errors.badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOf(v)} into Go value of type map[string]interface {}`);
  }
  return { value: v as Record<string, unknown>, duplicates: decoded.strict.filter((m) => m.includes('already set in map')) };
}

/** No-op applies seen by this process (src/apply/ssa/noop-memo.ts). */
const noops = new NoopApplyMemo();

export async function handleApplyPatch(ctx: RequestContext, s: HandlerScope): Promise<void> {
  const rep = negotiateResponse(ctx, s.render);
  const body = await readBody(ctx);
  ctx.audit?.logRequestPatch(body);
  const q = parseWriteQuery(ctx.query, 'PatchOptions', { apply: true });
  const directive = q.fieldValidation ?? 'Warn';
  const hasStatus = (s.def.subresources ?? []).some((r) => r.name === 'status');
  const ignoredFields = resetFields({ subresource: s.subresource, hasStatus });
  const expectedNs = expectedNamespace(s);
  const warningsBefore = ctx.warnings.length;
  let attempt = 0;
  const op = opContext(ctx, s, { dryRun: q.dryRun, fieldManager: q.fieldManager });
  // Custom resources: their CRD schema's apply view (list/map types); built-in kinds: the catalog's.
  const view = s.kind === s.def.kind ? customApplyRoot(s.def) : undefined;
  const identity: ApplyRequestIdentity = {
    object: objectKey(s.def, s.namespace, s.name), manager: q.fieldManager, force: q.force === true, subresource: s.subresource,
    apiVersion: s.apiVersion, kind: s.kind, view, body,
  };
  const cbor = contentTypeOf(ctx) === APPLY_PATCH_CBOR;
  const decodeBody = () => (cbor ? decodeCborApplyBody(body) : decodeApplyBody(body));
  // A body remembered as a no-op decoded without findings before: it is decoded only if the merge runs.
  let decoded = noops.knowsBody(identity) ? undefined : decodeBody();
  const startAttempt = () => {
    if (attempt++ > 0) ctx.warnings.length = warningsBefore; // the registry may retry on a lost race
  };
  // What the function below does to a remembered no-op, checked without changing the (frozen) object: it hands
  // the current object back as it is unless the body has findings or the namespace, name or owners need work.
  const unchanged = (current: KObject): boolean => {
    startAttempt();
    return noops.isNoop(identity, liveRevision(current)) && !decoded?.duplicates.length &&
      (current.metadata.namespace ?? '') === expectedNs && current.metadata.name === s.name && !hasDuplicateOwnerReferences(current);
  };
  const { object, created, cached } = await s.storage.guaranteedUpdate(op, s.name, (current) => {
    startAttempt();
    const live = current ? liveRevision(current) : undefined;
    let obj: KObject;
    if (current && noops.isNoop(identity, live)) {
      obj = current;
    } else {
      let r;
      try {
        decoded ??= decodeBody();
        r = apply({
          live: current, applied: decoded.value, manager: q.fieldManager, force: q.force === true, apiVersion: s.apiVersion, kind: s.kind,
          ...(s.subresource ? { subresource: s.subresource } : {}), ignoredFields, now: new Date(), ...(view ? { view } : {}),
        });
      } catch (e) {
        noops.forget(identity);
        throw e;
      }
      // Exactly the live object (values and managedFields): the registry's no-op, learned for next time.
      if (current && !r.changed && jsonEqual(r.object, current)) {
        obj = current;
        if (decoded.duplicates.length === 0) noops.rememberNoop(identity, live);
        else noops.forget(identity);
      } else {
        obj = r.object as KObject;
        noops.forget(identity);
      }
    }
    const duplicates = decoded?.duplicates ?? [];
    if (duplicates.length && directive === 'Strict') {
      throw errors.badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n${duplicates.map((d) => `  ${d}`).join('\n')}`);
    }
    if (duplicates.length && directive === 'Warn') ctx.warnings.push(...duplicates);
    ensureNamespace(obj, expectedNs);
    checkName(obj, s.name, s.namespace);
    dedupOwnerReferences(obj, ctx.warnings, true);
    return obj;
  }, { fieldValidation: directive, allowCreate: true, keepManagedFields: true, fromCache: true, unchanged });
  // A no-op answers the cached revision itself: its encoding is made once and shared with GETs.
  await respondResource(ctx, s.render, rep, created ? 201 : 200, cached && cached.object === object ? cached : object);
}
