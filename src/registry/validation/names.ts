/**
 * Name and label syntax checks with kube-apiserver's exact messages (k8s.io/apimachinery/pkg/util/validation and
 * pkg/api/validation/path). Each check returns the list of problems (empty = valid), as the Go functions do, so the
 * caller turns each into one field error.
 */
import type { NameRule } from '../../api/types.ts';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const labelValueFmt = `(${qualifiedNameFmt})?`;

const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);
const labelValueRe = new RegExp(`^${labelValueFmt}$`);

const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Go appends " or " after "'x', ", hence the double space kube's messages carry.
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** Go's string length counts bytes. */
function byteLen(s: string): number {
  return Buffer.byteLength(s);
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 63) errs.push(maxLenError(63));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 253) errs.push(maxLenError(253));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** IsDNS1035Label: unlike a DNS-1123 label, the first character must be a letter (Service names). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 63) errs.push(maxLenError(63));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [`a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLen(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 63) errs.push(maxLenError(63));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  if (name.includes('/')) errs.push("may not contain '/'");
  if (name.includes('%')) errs.push("may not contain '%'");
  return errs;
}

function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  if (name.includes('/')) errs.push("may not contain '/'");
  if (name.includes('%')) errs.push("may not contain '%'");
  return errs;
}

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
