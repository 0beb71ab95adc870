/**
 * Syntax checks with kube-apiserver's exact messages (k8s.io/apimachinery/pkg/util/validation/validation.go and
 * pkg/api/validation/path). Each check returns the list of problems (empty = valid), as the Go functions do, so
 * the caller turns each into one field error.
 */
import { isIP } from 'node:net';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const qnameCharFmt = '[A-Za-z0-9]';
const qnameExtCharFmt = '[-A-Za-z0-9_.]';
const qualifiedNameFmt = `(${qnameCharFmt}${qnameExtCharFmt}*)?${qnameCharFmt}`;
const labelValueFmt = `(${qualifiedNameFmt})?`;
const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const percentFmt = '[0-9]+%';
const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';

const re = (fmt: string) => new RegExp(`^${fmt}$`);
const dns1123LabelRe = re(dns1123LabelFmt);
const dns1123SubdomainRe = re(dns1123SubdomainFmt);
const dns1035LabelRe = re(dns1035LabelFmt);
const wildcardRe = re(wildcardDNS1123SubdomainFmt);
const qualifiedNameRe = re(qualifiedNameFmt);
const labelValueRe = re(labelValueFmt);
const configMapKeyRe = re(configMapKeyFmt);
const percentRe = re(percentFmt);
const httpHeaderNameRe = re(httpHeaderNameFmt);
const cIdentifierRe = re(cIdentifierFmt);

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const wildcardErrMsg = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const percentErrMsg = "a valid percent string must be a numeric string followed by an ending '%'";
const httpHeaderNameErrMsg = "a valid HTTP header must consist of alphanumeric characters or '-'";
const cIdentifierErrMsg = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";

/** validation.MaxLenError */
export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

/** validation.InclusiveRangeError */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** validation.RegexError, including the double space Go's " or " join leaves after the examples. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** Go's len() of a string counts UTF-8 bytes. */
export function byteLen(s: string): number {
  return Buffer.byteLength(s);
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!wildcardRe.test(value)) errs.push(regexError(wildcardErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com'));
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
  else if (byteLen(name) > DNS1123_LABEL_MAX) errs.push(`name part ${maxLenError(DNS1123_LABEL_MAX)}`);
  if (!qualifiedNameRe.test(name)) errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** pkg/api/validation/path.IsValidPathSegmentName */
export function isValidPathSegmentName(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return isValidPathSegmentPrefix(name);
}

/** pkg/api/validation/path.IsValidPathSegmentPrefix */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  if (name.includes('/')) errs.push("may not contain '/'");
  if (name.includes('%')) errs.push("may not contain '%'");
  return errs;
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

/**
 * IsRelaxedEnvVarName: RelaxedEnvironmentVariableValidation is on by default in v1.33 (beta), so env names and
 * envFrom prefixes may be any printable ASCII except '='.
 */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name must be non-empty');
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp > 0x7e || cp < 0x20 || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

export function isCIdentifier(value: string): string[] {
  return cIdentifierRe.test(value) ? [] : [regexError(cIdentifierErrMsg, cIdentifierFmt, 'my_name', 'MY_NAME', 'MyName')];
}

export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLen(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

export function isValidPercent(value: string): string[] {
  return percentRe.test(value) ? [] : [regexError(percentErrMsg, percentFmt, '1%', '93%')];
}

export function isHTTPHeaderName(value: string): string[] {
  return httpHeaderNameRe.test(value) ? [] : [regexError(httpHeaderNameErrMsg, httpHeaderNameFmt, 'X-Header-Name')];
}

/** netutils.ParseIPSloppy: IPv4 may carry leading zeros. Returns 4, 6 or 0. */
export function ipFamilyOf(value: string): 0 | 4 | 6 {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return value.split('.').every((p) => Number(p) <= 255) ? 4 : 0;
  if (value.includes(':') && !value.includes('%') && isIP(value) === 6) return 6;
  return 0;
}

export const IP_ERROR = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const CIDR_ERROR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** netutils.ParseCIDRSloppy: `ip/prefix`; returns the family, address and prefix length, or undefined. */
export function parseCIDR(value: string): { family: 4 | 6; ip: string; bits: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = value.slice(0, slash);
  const bitsStr = value.slice(slash + 1);
  const family = ipFamilyOf(ip);
  if (family === 0 || !/^\d{1,3}$/.test(bitsStr)) return undefined;
  const bits = Number(bitsStr);
  if (bits > (family === 4 ? 32 : 128)) return undefined;
  return { family, ip, bits };
}
