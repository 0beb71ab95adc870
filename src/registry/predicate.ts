/**
 * Turns the `labelSelector` and `fieldSelector` query parameters into the `SelectionPredicate` the readers
 * filter with, failing like kube-apiserver: a syntax error is a 400 BadRequest with the parser's text, and a
 * field the resource does not support is a 400 with the resource's field-label-conversion text:
 *   - kinds without their own conversion (most): `"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"`
 *   - kinds with one (pods, nodes, secrets, events, …, and custom resources): `field label not supported: spec.x`
 * Order as in kube: labels are parsed, then fields, then field keys are checked (first bad key wins).
 */
import { errors } from '../machinery/errors.ts';
import type { ObjectAttrs, SelectionPredicate } from '../storage/cacher/types.ts';
import { escapeFieldValue, parseFieldSelector, type FieldRequirement, type FieldSelector } from '../machinery/selectors/fields.ts';
import { parseLabelSelector, SelectorParseError, type LabelSelector } from '../machinery/selectors/labels.ts';

export interface PredicateOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** The field keys the resource supports (always includes `metadata.name`; `metadata.namespace` when kube allows it). */
  readonly allowedFields: ReadonlySet<string>;
  /**
   * The resource has its own field label conversion in kube-apiserver, which words unknown keys as
   * `field label not supported: <key>`. Default: true when `allowedFields` holds more than the two metadata
   * fields. Custom resources must pass true.
   */
  readonly customFieldLabels?: boolean;
  /** Old names kube still accepts and rewrites (pods: `spec.host` → `spec.nodeName`). */
  readonly fieldAliases?: Readonly<Record<string, string>>;
}

/** A predicate that also keeps the parsed selectors (authorization with selectors, logging). */
export interface ParsedPredicate extends SelectionPredicate {
  readonly labelSelector: LabelSelector;
  readonly fieldSelector: FieldSelector;
}

class Predicate implements ParsedPredicate {
  readonly empty: boolean;
  readonly name?: string;
  constructor(readonly labelSelector: LabelSelector, readonly fieldSelector: FieldSelector) {
    this.empty = labelSelector.empty && fieldSelector.empty;
    const name = fieldSelector.exactValue('metadata.name');
    if (name !== undefined) this.name = name;
  }

  matches(attrs: ObjectAttrs): boolean {
    return this.labelSelector.matches(attrs.labels) && this.fieldSelector.matches(attrs.fields);
  }
}

const METADATA_FIELDS = new Set(['metadata.name', 'metadata.namespace']);

function isDefaultFieldSet(allowed: ReadonlySet<string>): boolean {
  if (allowed.size !== METADATA_FIELDS.size) return false;
  for (const f of allowed) if (!METADATA_FIELDS.has(f)) return false;
  return true;
}

function parseOr400<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof SelectorParseError) throw errors.badRequest(e.message);
    throw e;
  }
}

/** Parses both selectors once; throws a 400 `StatusError` on bad input. */
export function makePredicate(opts: PredicateOptions): ParsedPredicate {
  const labels = parseOr400(() => parseLabelSelector(opts.labelSelector ?? ''));
  let fields = parseOr400(() => parseFieldSelector(opts.fieldSelector ?? ''));
  const custom = opts.customFieldLabels ?? !isDefaultFieldSet(opts.allowedFields);
  let renamed = false;
  const reqs: FieldRequirement[] = fields.requirements.map((r) => {
    const alias = opts.fieldAliases?.[r.field];
    const field = alias ?? r.field;
    if (!opts.allowedFields.has(field)) {
      throw errors.badRequest(custom
        ? `field label not supported: ${r.field}`
        : `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`);
    }
    if (alias === undefined) return r;
    renamed = true;
    return { ...r, field };
  });
  if (renamed) {
    // Rebuild from canonical text so matching sees the new names.
    fields = parseFieldSelector(reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(','));
  }
  return new Predicate(labels, fields);
}

/** Matches everything. */
export const everything: SelectionPredicate = Object.freeze({ empty: true, matches: () => true });
