/**
 * kube's format library (apiserver/pkg/cel/library/format.go): `format.<name>()` / `format.named(name)` give a
 * named format whose `validate(string)` returns `optional.none()` when valid or the list of kube's messages.
 */
import { Optional } from '@marcbachmann/cel-js';
import {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue,
} from '../../machinery/validation/names.ts';
import { chargeTraversal } from '../runtime-cost.ts';
import { fn, opaqueType, type CelJsEnv } from './register.ts';
import { parseURL } from './urls.ts';

export class CelNamedFormat {
  constructor(readonly name: string, readonly check: (s: string) => string[]) {}
  equals(o: unknown): boolean {
    return o instanceof CelNamedFormat && o.name === this.name;
  }
  toString(): string {
    return this.name;
  }
}

/** apimachinery's maskTrailingDash: a prefix may end in '-' (a generated suffix follows). */
const prefixed = (check: (s: string) => string[]) => (s: string): string[] =>
  check(s.length > 1 && s.endsWith('-') ? `${s.slice(0, -1)}a` : s);

const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const FORMATS: ReadonlyMap<string, CelNamedFormat> = new Map(
  ([
    ['dns1123Label', isDNS1123Label],
    ['dns1123Subdomain', isDNS1123Subdomain],
    ['dns1035Label', isDNS1035Label],
    ['qualifiedName', isQualifiedName],
    ['dns1123LabelPrefix', prefixed(isDNS1123Label)],
    ['dns1123SubdomainPrefix', prefixed(isDNS1123Subdomain)],
    ['dns1035LabelPrefix', prefixed(isDNS1035Label)],
    ['labelValue', isValidLabelValue],
    ['uri', (s: string) => {
      const r = parseURL(s);
      return typeof r === 'string' ? [r] : [];
    }],
    ['uuid', (s: string) => (UUID.test(s) ? [] : ['does not match the UUID format'])],
    ['byte', (s: string) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64'])],
    ['date', (s: string) => (validDate(s) ? [] : ['invalid date'])],
    ['datetime', (s: string) => (DATETIME.test(s) && validDate(s.slice(0, 10)) ? [] : ['invalid datetime'])],
  ] as const).map(([name, check]) => [name, new CelNamedFormat(name, check)]),
);

class FormatNamespace {}

export function registerFormat(env: CelJsEnv): void {
  opaqueType(env, 'kubernetes.NamedFormat', CelNamedFormat, true);
  env.registerType('FormatNamespace', FormatNamespace);
  env.registerConstant('format', 'FormatNamespace', new FormatNamespace());
  for (const [name, f] of FORMATS) fn(env, `FormatNamespace.${name}(): kubernetes.NamedFormat`, () => f);
  fn(env, 'FormatNamespace.named(string): optional<kubernetes.NamedFormat>', (_n: unknown, name: string) => {
    const f = FORMATS.get(name);
    return f ? Optional.of(f) : Optional.none();
  });
  fn(env, 'kubernetes.NamedFormat.validate(string): optional<list<string>>', (f: CelNamedFormat, s: string) => {
    chargeTraversal(s.length);
    const errs = f.check(s);
    return errs.length ? Optional.of(errs) : Optional.none();
  });
}
