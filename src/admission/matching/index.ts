/**
 * Request matching for admission webhooks and policies (kube's webhook/generic ShouldCallHook and its
 * predicates), in one module both use:
 *
 * - {@link matchInvocation}: namespaceSelector, objectSelector, then the rules against the request's resource
 *   and, under matchPolicy Equivalent, against every equivalent resource (earlier rules first). Resolves to the
 *   resource and kind the webhook or policy is invoked with, or undefined; a selector failure (a missing
 *   namespace: its 404) only surfaces when a rule matched, as in kube.
 * - {@link MatchConditions}: compiled matchConditions, evaluated on the object converted to the invocation's
 *   version ({@link EquivalentResources.convert}).
 * - rules ({@link ruleMatches}), selectors ({@link ParsedSelector}, {@link NamespaceLabels}), the exemption of
 *   the admission configuration kinds, and kube's idea of a request's namespace ({@link requestNamespace}).
 */
import { errors, StatusError } from '../../machinery/errors.ts';
import type { GroupVersionKind } from '../../machinery/objects.ts';
import type { AdmissionAttributes, GroupVersionResource } from '../../registry/admission.ts';
import { EquivalentResources } from './equivalents.ts';
import { ruleMatches, ruleRequest, type RuleWithOperations } from './rules.ts';
import { namespaceSelectorMatches, objectSelectorMatches, type NamespaceLabels, type ParsedSelector } from './selectors.ts';

export { EquivalentResources } from './equivalents.ts';
export { aggregate, celAdmissionRequest, MatchConditions, type ConditionInput, type MatchConditionSpec, type MatchResult } from './conditions.ts';
export { isExemptAdmissionConfiguration, requestNamespace, ruleMatches, ruleRequest, type RuleRequest, type RuleWithOperations } from './rules.ts';
export { NamespaceLabels, namespaceSelectorMatches, objectSelectorMatches, ParsedSelector, type LabelSelectorSpec } from './selectors.ts';

/** What decides whether a webhook (or policy) sees a request, before its match conditions. */
export interface MatchCriteria {
  readonly rules: readonly RuleWithOperations[];
  /** `Exact` or `Equivalent` (the default when missing). */
  readonly matchPolicy?: string;
  /** A selector that failed to parse is kept as its Error: a request it would decide gets a 500. */
  readonly namespaceSelector: ParsedSelector | Error;
  readonly objectSelector: ParsedSelector | Error;
}

/** The resource, sub-resource and kind a webhook or policy is invoked with (kube's WebhookInvocation). */
export interface Invocation {
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly kind: GroupVersionKind;
}

export interface MatchDeps {
  readonly namespaces: NamespaceLabels;
  readonly equivalents: EquivalentResources;
}

/** kube's GroupVersionResource.String(). */
export const gvrString = (r: GroupVersionResource): string => `${r.group}/${r.version}, Resource=${r.resource}`;

async function selectorOutcome(run: () => boolean | Promise<boolean>): Promise<{ matches: boolean; error?: StatusError }> {
  try {
    return { matches: await run() };
  } catch (e) {
    return { matches: false, error: e instanceof StatusError ? e : errors.internal((e as Error)?.message ?? String(e)) };
  }
}

/** kube's ShouldCallHook up to (not including) the match conditions. Throws the StatusError kube answers. */
export async function matchInvocation(c: MatchCriteria, attrs: AdmissionAttributes, deps: MatchDeps): Promise<Invocation | undefined> {
  const ns = await selectorOutcome(() => {
    if (c.namespaceSelector instanceof Error) throw errors.internal(c.namespaceSelector.message);
    return namespaceSelectorMatches(c.namespaceSelector, attrs, deps.namespaces);
  });
  if (!ns.matches && !ns.error) return undefined;
  const obj = await selectorOutcome(() => {
    if (c.objectSelector instanceof Error) throw errors.internal(c.objectSelector.message);
    return objectSelectorMatches(c.objectSelector, attrs);
  });
  if (!obj.matches && !obj.error) return undefined;

  let invocation: Invocation | undefined;
  const own = ruleRequest(attrs);
  if (c.rules.some((r) => ruleMatches(r, own))) {
    invocation = { resource: attrs.resource, subresource: attrs.subresource, kind: attrs.kind };
  } else if ((c.matchPolicy ?? 'Equivalent') === 'Equivalent') {
    const equivalents = deps.equivalents.equivalentsFor(attrs.resource, attrs.subresource)
      .filter((r) => !(r.group === attrs.resource.group && r.version === attrs.resource.version && r.resource === attrs.resource.resource));
    outer: for (const rule of c.rules) {
      for (const eq of equivalents) {
        if (!ruleMatches(rule, ruleRequest(attrs, eq))) continue;
        const kind = deps.equivalents.kindFor(eq, attrs.subresource);
        if (!kind) throw errors.internal(`unable to convert to ${gvrString(eq)}: unknown kind`);
        invocation = { resource: eq, subresource: attrs.subresource, kind };
        break outer;
      }
    }
  }
  if (!invocation) return undefined;
  if (ns.error) throw ns.error;
  if (obj.error) throw obj.error;
  return invocation;
}
