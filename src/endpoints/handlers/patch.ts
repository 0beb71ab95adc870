/**
 * PATCH with JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch (built-in kinds
 * only: custom resources answer 415 listing their three types, as kube), through `guaranteedUpdate` so the
 * patch is re-applied on a conflict; server-side apply is in patch-apply.ts. The registry records the write in
 * managedFields (an `Update` by fieldManager or the User-Agent's manager). Errors as kube's patch handler:
 *   unknown Content-Type → 415 listing the patch types; malformed patch → 400 (`error decoding patch: ...`
 *   when field validation is on); JSON patch that does not apply → 422 `the server rejected our request due
 *   to an error in our request`; more than 10,000 operations → 413; missing object → 404; a patched name or
 *   namespace that no longer matches the URL → 400.
 */
import type { KObject } from '../../machinery/objects.ts';
import { applyJsonPatch, decodeJsonPatch, JsonPatchApplyError, JsonPatchDecodeError, MAX_JSON_PATCH_OPERATIONS } from '../../apply/json-patch.ts';
import { mergePatch } from '../../apply/merge-patch.ts';
import { rootNodeFor } from '../../apply/schema-view.ts';
import { applyStrategicMergePatch, patchInvalid } from '../../apply/strategic-merge.ts';
import type { RequestContext } from '../../request/context.ts';
import { contentTypeOf, readBody } from '../negotiation/decode.ts';
import { APPLY_PATCH_CBOR } from '../negotiation/cbor.ts';
import { JsonSyntaxError, scanJson } from '../../machinery/json/scan.ts';
import { negotiateResponse, respondResource } from '../negotiation/render.ts';
import { typeErrorFor } from '../negotiation/type-check.ts';
import { parseWriteQuery } from '../params.ts';
import { errors, StatusError } from '../../machinery/errors.ts';
import { handleApplyPatch } from './patch-apply.ts';
import { checkName, dedupOwnerReferences, ensureNamespace, expectedNamespace, fieldManagerFor, opContext, strictChecks, type HandlerScope } from './scope.ts';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH_YAML = 'application/apply-patch+yaml';
/** The patch types kube-apiserver lists for built-in resources, in its order. */
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH_YAML];
/** Custom resources never take strategic merge patches (no Go struct to read patch markers from). */
export const CUSTOM_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH_YAML];

/** A 422 about the field `patch`, shaped as kube's `NewInvalid(schema.GroupKind{}, "", ...)`. */
function invalidPatch(value: string, detail: string): StatusError {
  const body = `Invalid value: ${JSON.stringify(value)}: ${detail}`;
  return new StatusError(422, 'Invalid', ` "" is invalid: patch: ${body}`,
    { causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }] });
}

function rejected(): StatusError {
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
}

export async function handlePatch(ctx: RequestContext, s: HandlerScope): Promise<void> {
  const type = contentTypeOf(ctx);
  // Built-in kinds have a schema view with patch markers; anything else is served as a custom resource.
  const view = rootNodeFor(s.apiVersion, s.kind);
  // CBOR apply (gate CBORServingAndStorage) is listed last, for built-in and custom resources alike.
  const accepted = [...(view ? PATCH_TYPES : CUSTOM_PATCH_TYPES), ...(ctx.cborServing === true ? [APPLY_PATCH_CBOR] : [])];
  if (!accepted.includes(type)) throw errors.unsupportedMediaType(accepted);
  if (type === APPLY_PATCH_YAML || type === APPLY_PATCH_CBOR) return handleApplyPatch(ctx, s);
  const rep = negotiateResponse(ctx, s.render);
  const body = await readBody(ctx);
  ctx.audit?.logRequestPatch(body);
  const q = parseWriteQuery(ctx.query, 'PatchOptions', { apply: false });
  const directive = q.fieldValidation ?? 'Warn';
  const text = body.toString('utf8');

  // Decode the patch document once (Go wording for syntax errors).
  let strictInPatch: string[] = [];
  let patchDoc: unknown;
  try {
    strictInPatch = scanJson(text).strict;
    patchDoc = JSON.parse(text) as unknown;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    // Strategic patches are unmarshalled into a map first, whose error kube passes on as it is.
    if (type === STRATEGIC_MERGE_PATCH) throw errors.badRequest(e.message);
    if (directive !== 'Ignore') throw errors.badRequest(`error decoding patch: ${e.message}`);
    throw errors.badRequest(type === MERGE_PATCH ? 'Invalid JSON Patch' : e.message);
  }
  if (type === STRATEGIC_MERGE_PATCH && (typeof patchDoc !== 'object' || patchDoc === null || Array.isArray(patchDoc))) {
    const t = patchDoc === null ? 'null' : Array.isArray(patchDoc) ? 'array' : typeof patchDoc === 'boolean' ? 'bool' : typeof patchDoc;
    // A JSON null decodes to an empty map in Go: nothing to patch.
    if (patchDoc !== null) throw errors.badRequest(`json: cannot unmarshal ${t} into Go value of type map[string]interface {}`);
    patchDoc = {};
  }
  let ops: ReturnType<typeof decodeJsonPatch> = [];
  if (type === JSON_PATCH) {
    try {
      ops = decodeJsonPatch(patchDoc);
    } catch (e) {
      if (e instanceof JsonPatchDecodeError) {
        throw errors.badRequest(directive !== 'Ignore' ? `error decoding patch: ${e.message}` : e.message);
      }
      throw e;
    }
    if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
      throw errors.requestEntityTooLarge(`Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
    }
    strictInPatch = strictInPatch.map((m) => `json patch ${m}`);
  }

  const expectedNs = expectedNamespace(s);
  const checks = strictChecks(s);
  const mutate = (current: KObject | undefined): KObject => {
    if (!current) throw errors.notFound({ kind: s.resource, group: s.group, name: s.name });
    const base = structuredClone(current) as KObject;
    let patched: unknown;
    if (type === JSON_PATCH) {
      try {
        patched = applyJsonPatch(base, ops);
      } catch (e) {
        if (e instanceof JsonPatchApplyError) throw rejected();
        throw e;
      }
    } else if (type === STRATEGIC_MERGE_PATCH) {
      patched = applyStrategicMergePatch(base, patchDoc as object, view!);
    } else {
      patched = mergePatch(base, patchDoc);
    }
    const patchedJson = JSON.stringify(patched);
    if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
      const t = patched === null ? 'null' : Array.isArray(patched) ? 'array' : typeof patched;
      throw invalidPatch(patchedJson, `json: cannot unmarshal ${t} into Go value of type map[string]interface {}`);
    }
    const obj = patched as KObject;
    if (obj.kind !== s.kind || obj.apiVersion !== s.apiVersion) {
      throw invalidPatch(patchedJson, `Object 'Kind' is missing or does not match: expected ${s.apiVersion}, Kind=${s.kind}, got ${String(obj.apiVersion)}, Kind=${String(obj.kind)}`);
    }
    if (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata)) {
      throw invalidPatch(patchedJson, `json: cannot unmarshal ${Array.isArray(obj.metadata) ? 'array' : obj.metadata === null ? 'null' : typeof obj.metadata} into Go struct field ${s.kind}.metadata of type v1.ObjectMeta`);
    }
    // kube decodes the patched JSON into the Go struct: a value of the wrong type fails that decode (422),
    // before strict findings count. Strategic patches are type-checked by their own converter.
    if (view && type !== STRATEGIC_MERGE_PATCH) {
      const typeError = typeErrorFor(obj, s.apiVersion, s.kind);
      if (typeError) throw invalidPatch(patchedJson, typeError);
    }
    // Strict findings: duplicates in the patch itself, unknown ObjectMeta keys in the result.
    const strict = [...strictInPatch, ...scanJson(patchedJson, { objectMeta: true, ...checks }).strict];
    if (strict.length && directive === 'Warn') ctx.warnings.push(...strict);
    if (strict.length && directive === 'Strict') {
      const detail = `strict decoding error: ${strict.join(', ')}`;
      // kube shows the patched JSON for JSON/merge patches, the patch map (Go %+v) for strategic ones.
      throw type === STRATEGIC_MERGE_PATCH ? patchInvalid(patchDoc, detail) : invalidPatch(patchedJson, detail);
    }
    ensureNamespace(obj, expectedNs);
    checkName(obj, s.name, s.namespace);
    dedupOwnerReferences(obj, ctx.warnings, true);
    return obj;
  };
  // The registry may run `mutate` more than once (conflicts); warnings must not pile up.
  const warningsBefore = ctx.warnings.length;
  let attempt = 0;
  const op = opContext(ctx, s, { dryRun: q.dryRun, fieldManager: fieldManagerFor(ctx, q.fieldManager) });
  const { object, created } = await s.storage.guaranteedUpdate(op, s.name, (cur) => {
    if (attempt++ > 0) ctx.warnings.length = warningsBefore;
    return mutate(cur);
  }, { fieldValidation: directive, allowCreate: false });
  await respondResource(ctx, s.render, rep, created ? 201 : 200, object);
}
