/**
 * kube's per-resource name validation (ValidateNameFunc): which syntax check applies to metadata.name and
 * generateName for a NameRule. The checks themselves, with kube-apiserver's exact messages, live in
 * src/machinery/validation/names.ts and are shared with label selectors and per-kind validation.
 */
import type { NameRule } from '../../api/types.ts';
import {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPathSegmentPrefix,
} from '../../machinery/validation/names.ts';

export {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPathSegmentName,
} from '../../machinery/validation/names.ts';

/** kube's maskTrailingDash, quirk included: a trailing '-' drops the last two characters before appending 'a'. */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** `(name, prefix) => problems`: kube's ValidateNameFunc; `prefix` is true when checking a generateName. */
export type NameValidator = (name: string, prefix: boolean) => string[];

export function nameValidator(rule: NameRule): NameValidator {
  switch (rule) {
    case 'dns1123-subdomain':
      return (n, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(n) : n);
    case 'dns1123-label':
      return (n, prefix) => isDNS1123Label(prefix ? maskTrailingDash(n) : n);
    case 'dns1035-label':
      return (n, prefix) => isDNS1035Label(prefix ? maskTrailingDash(n) : n);
    case 'path-segment':
      return (n, prefix) => (prefix ? isValidPathSegmentPrefix(n) : isValidPathSegmentName(n));
    case 'none':
      return () => [];
  }
}
