/**
 * PodSecurityConfiguration (pod-security.admission.config.k8s.io v1, v1beta1, v1alpha1 — the same shape): the
 * default policy for namespaces without labels and the exemptions. Read from the AdmissionConfiguration entry
 * of the plugin; none means all-privileged defaults and no exemptions. Decoded strictly (unknown fields are
 * errors), defaulted (privileged, latest), then checked as kube-apiserver does before it serves: a bad level or
 * version, a bad or repeated exemption refuses the start, in kube's words.
 */
import { FieldError, OptionsError, field } from '../../../machinery/errors.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../machinery/validation/names.ts';
import { Version, aggregateMessage, parseLevel, type Level, type Policy } from './api.ts';

export const CONFIG_GROUP = 'pod-security.admission.config.k8s.io';
const CONFIG_VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];
const SCHEME = 'k8s.io/pod-security-admission/admission/api/scheme/scheme.go:31';

export interface PodSecurityConfiguration {
  readonly defaults: {
    readonly enforce: string; readonly 'enforce-version': string;
    readonly audit: string; readonly 'audit-version': string;
    readonly warn: string; readonly 'warn-version': string;
  };
  readonly exemptions: {
    readonly usernames: readonly string[];
    readonly namespaces: readonly string[];
    readonly runtimeClasses: readonly string[];
  };
}

/** What the plugin runs with: the default policy and the exemptions as sets. */
export interface ResolvedConfiguration {
  readonly defaults: Policy;
  readonly exemptUsernames: ReadonlySet<string>;
  readonly exemptNamespaces: ReadonlySet<string>;
  readonly exemptRuntimeClasses: ReadonlySet<string>;
}

const DEFAULT_KEYS = ['enforce', 'enforce-version', 'audit', 'audit-version', 'warn', 'warn-version'] as const;
const EXEMPTION_KEYS = ['usernames', 'namespaces', 'runtimeClasses'] as const;

const initError = (msg: string) => new OptionsError(`failed to initialize admission plugin "PodSecurity": ${msg}`);
const decodeError = (msg: string) => new OptionsError(`couldn't init admission plugin "PodSecurity": ${msg}`);

const jsonType = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Decodes (strictly), defaults and validates the plugin's configuration; throws OptionsError in kube's words. */
export function loadConfiguration(raw: unknown): ResolvedConfiguration {
  return resolveConfiguration(decodeConfiguration(raw));
}

export function decodeConfiguration(raw: unknown): PodSecurityConfiguration {
  const defaults: Record<string, string> = {};
  const exemptions: Record<string, string[]> = { usernames: [], namespaces: [], runtimeClasses: [] };
  if (raw !== undefined && raw !== null) {
    if (!isObject(raw)) throw decodeError(`couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
    const text = JSON.stringify(raw);
    const kind = typeof raw['kind'] === 'string' ? raw['kind'] : '';
    const apiVersion = typeof raw['apiVersion'] === 'string' ? raw['apiVersion'] : '';
    if (!kind) throw decodeError(`Object 'Kind' is missing in '${text}'`);
    if (!apiVersion) throw decodeError(`Object 'apiVersion' is missing in '${text}'`);
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    if (kind !== 'PodSecurityConfiguration' || group !== CONFIG_GROUP || !CONFIG_VERSIONS.includes(version!)) {
      throw decodeError(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(SCHEME)}`);
    }
    const unknown: string[] = [];
    const typeErrors: string[] = [];
    const mismatch = (v: unknown, struct: string, path: string, goType: string) =>
      typeErrors.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${struct}.${path} of type ${goType}`);
    for (const [k, v] of Object.entries(raw)) {
      if (k === 'apiVersion' || k === 'kind') continue;
      if (k === 'defaults') {
        if (v === null) continue;
        if (!isObject(v)) {
          mismatch(v, 'PodSecurityConfiguration', 'defaults', 'v1.PodSecurityDefaults');
          continue;
        }
        for (const [dk, dv] of Object.entries(v)) {
          if (!(DEFAULT_KEYS as readonly string[]).includes(dk)) unknown.push(`defaults.${dk}`);
          else if (dv === null) continue;
          else if (typeof dv !== 'string') mismatch(dv, 'PodSecurityDefaults', `defaults.${dk}`, 'string');
          else defaults[dk] = dv;
        }
      } else if (k === 'exemptions') {
        if (v === null) continue;
        if (!isObject(v)) {
          mismatch(v, 'PodSecurityConfiguration', 'exemptions', 'v1.PodSecurityExemptions');
          continue;
        }
        for (const [ek, ev] of Object.entries(v)) {
          if (!(EXEMPTION_KEYS as readonly string[]).includes(ek)) unknown.push(`exemptions.${ek}`);
          else if (ev === null) continue;
          else if (!Array.isArray(ev)) mismatch(ev, 'PodSecurityExemptions', `exemptions.${ek}`, '[]string');
          else {
            ev.forEach((item) => { if (typeof item !== 'string') mismatch(item, 'PodSecurityExemptions', `exemptions.${ek}`, 'string'); });
            exemptions[ek] = ev.filter((item): item is string => typeof item === 'string');
          }
        }
      } else {
        unknown.push(k);
      }
    }
    if (typeErrors.length) throw decodeError(typeErrors[0]!);
    if (unknown.length) throw decodeError(`strict decoding error: ${unknown.map((u) => `unknown field ${JSON.stringify(u)}`).join(', ')}`);
  }
  // Defaulting: every unset level is privileged, every unset version latest.
  const d = (k: string, dflt: string) => (defaults[k] ? defaults[k]! : dflt);
  return {
    defaults: {
      enforce: d('enforce', 'privileged'), 'enforce-version': d('enforce-version', 'latest'),
      audit: d('audit', 'privileged'), 'audit-version': d('audit-version', 'latest'),
      warn: d('warn', 'privileged'), 'warn-version': d('warn-version', 'latest'),
    },
    exemptions: { usernames: exemptions['usernames']!, namespaces: exemptions['namespaces']!, runtimeClasses: exemptions['runtimeClasses']! },
  };
}

/**
 * The default policy (kube's ToPolicy: its errors say `PodSecurity configuration error: <field>: <why>`), then
 * the configuration's validation (`PodSecurity invalid: <field errors>`).
 */
export function resolveConfiguration(c: PodSecurityConfiguration): ResolvedConfiguration {
  const errs: string[] = [];
  const level = (key: 'enforce' | 'audit' | 'warn'): Level => {
    const v = c.defaults[key];
    if (!v) {
      errs.push(`${key}: required`);
      return 'privileged';
    }
    const r = parseLevel(v);
    if (r.error) errs.push(`${key}: ${r.error}`);
    return r.level;
  };
  const version = (key: 'enforce-version' | 'audit-version' | 'warn-version'): Version => {
    const v = c.defaults[key];
    if (!v) {
      errs.push(`${key}: required`);
      return Version.LATEST;
    }
    const r = Version.parse(v);
    if (r.error) errs.push(`${key}: ${r.error}`);
    return r.version;
  };
  const defaults: Policy = {
    enforce: { level: level('enforce'), version: version('enforce-version') },
    audit: { level: level('audit'), version: version('audit-version') },
    warn: { level: level('warn'), version: version('warn-version') },
  };
  if (errs.length) throw initError(`PodSecurity configuration error: ${aggregateMessage(errs)}`);
  const fieldErrs = validateConfiguration(c);
  if (fieldErrs.length) throw initError(`PodSecurity invalid: ${aggregateMessage(fieldErrs.map((e) => e.toString()))}`);
  return {
    defaults,
    exemptUsernames: new Set(c.exemptions.usernames),
    exemptNamespaces: new Set(c.exemptions.namespaces),
    exemptRuntimeClasses: new Set(c.exemptions.runtimeClasses),
  };
}

/** kube's ValidatePodSecurityConfiguration. */
export function validateConfiguration(c: PodSecurityConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  for (const [lk, vk] of [['enforce', 'enforce-version'], ['warn', 'warn-version'], ['audit', 'audit-version']] as const) {
    const l = parseLevel(c.defaults[lk]);
    if (l.error) errs.push(field.invalid(`defaults.${lk}`, c.defaults[lk], l.error));
    const v = Version.parse(c.defaults[vk]);
    if (v.error) errs.push(field.invalid(`defaults.${vk}`, c.defaults[vk], v.error));
  }
  const list = (path: string, items: readonly string[], problems: (s: string) => string[]) => {
    const seen = new Set<string>();
    items.forEach((s, i) => {
      const p = problems(s);
      if (p.length) errs.push(field.invalid(`${path}[${i}]`, s, p.join(', ')));
      else if (seen.has(s)) errs.push(field.duplicate(`${path}[${i}]`, s));
      else seen.add(s);
    });
  };
  list('exemptions.namespaces', c.exemptions.namespaces, isDNS1123Label);
  list('exemptions.runtimeClasses', c.exemptions.runtimeClasses, isDNS1123Subdomain);
  list('exemptions.usernames', c.exemptions.usernames, (u) => (u === '' ? ['username must not be empty'] : []));
  return errs;
}
