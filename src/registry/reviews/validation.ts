/**
 * k8s.io/kubernetes pkg/apis/authorization/validation for the access reviews. Errors are 422 with kube's
 * qualified kind left empty (the internal object has no kind when validated): `.authorization.k8s.io "" is invalid: …`.
 * Non-string bad values print as Go's %#v of the internal struct.
 */
import { FieldError, StatusError } from '../../machinery/errors.ts';
import { selectorErrors } from './selectors.ts';
import { goObjectMeta } from './go-meta.ts';

export type Spec = Record<string, unknown>;

/** A FieldError whose value prints as Go's %#v text. */
class GoValueError extends FieldError {
  constructor(path: string, private readonly goText: string, detail: string) {
    super('FieldValueInvalid', path, detail, goText, true);
  }
  override body(): string {
    return `Invalid value: ${this.goText}: ${this.detail}`;
  }
}

const goStr = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v : '');

/** %#v of a (dereferenced) *authorization.NonResourceAttributes; `null` for a nil pointer. */
function goNonResource(v: unknown): string {
  if (!v || typeof v !== 'object') return 'null';
  const o = v as Record<string, unknown>;
  return `authorization.NonResourceAttributes{Path:${goStr(o.path)}, Verb:${goStr(o.verb)}}`;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** ObjectMeta other than managedFields (and the listed keys) set to a non-zero value. */
function metaNotEmpty(meta: Record<string, unknown>, allowed: readonly string[] = []): boolean {
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'managedFields' || allowed.includes(k)) continue;
    if (v === null || v === undefined || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (isObj(v) && Object.keys(v).length === 0) continue;
    return true;
  }
  return false;
}

function attributesErrors(spec: Spec): FieldError[] {
  const out: FieldError[] = [];
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (isObj(ra) && isObj(nra)) out.push(new GoValueError('spec.nonResourceAttributes', goNonResource(nra), 'cannot be specified in combination with resourceAttributes'));
  if (!isObj(ra) && !isObj(nra)) out.push(new GoValueError('spec.resourceAttributes', goNonResource(nra), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  return out;
}

function userAndSelectorErrors(spec: Spec): FieldError[] {
  return [...userErrors(spec), ...selectorErrors(spec.resourceAttributes)];
}

function userErrors(spec: Spec): FieldError[] {
  const user = typeof spec.user === 'string' ? spec.user : '';
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  return user === '' && groups.length === 0
    ? [new GoValueError('spec.user', JSON.stringify(user), 'at least one of user or group must be specified')]
    : [];
}

export function validateSubjectAccessReview(spec: Spec, meta: Record<string, unknown>): FieldError[] {
  const out = [...attributesErrors(spec), ...userAndSelectorErrors(spec)];
  if (metaNotEmpty(meta)) out.push(new GoValueError('metadata', goObjectMeta(meta), 'must be empty'));
  return out;
}

export function validateSelfSubjectAccessReview(spec: Spec, meta: Record<string, unknown>): FieldError[] {
  const out = [...attributesErrors(spec), ...selectorErrors(spec.resourceAttributes)];
  if (metaNotEmpty(meta)) out.push(new GoValueError('metadata', goObjectMeta(meta), 'must be empty'));
  return out;
}

export function validateLocalSubjectAccessReview(spec: Spec, meta: Record<string, unknown>): FieldError[] {
  const out = [...attributesErrors(spec), ...userAndSelectorErrors(spec)];
  if (metaNotEmpty(meta, ['namespace'])) out.push(new GoValueError('metadata', goObjectMeta(meta), 'must be empty except for namespace'));
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  const ra = spec.resourceAttributes;
  if (isObj(ra)) {
    const rns = typeof ra.namespace === 'string' ? ra.namespace : '';
    if (rns !== ns) out.push(new GoValueError('spec.resourceAttributes.namespace', JSON.stringify(rns), 'must match metadata.namespace'));
  }
  if (isObj(spec.nonResourceAttributes)) {
    out.push(new GoValueError('spec.nonResourceAttributes', goNonResource(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  return out;
}

/** kube's apierrors.NewInvalid(authorizationapi.Kind(""), "", errs). */
export function invalidReview(errs: readonly FieldError[]): StatusError {
  const list = errs.map((e) => e.toString()).join(', ');
  const msg = `.authorization.k8s.io "" is invalid: ${errs.length > 1 ? `[${list}]` : list}`;
  return new StatusError(422, 'Invalid', msg, { group: 'authorization.k8s.io', causes: errs.map((e) => e.toCause()) });
}
