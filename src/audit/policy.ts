/**
 * `--audit-policy-file`: an audit.k8s.io/v1 Policy, read as kube's policy.LoadPolicyFromFile does (strict decoding
 * first; unknown fields only warn and fall back to lenient decoding; then kube's ValidatePolicy messages and the
 * 0-rule refusal), and evaluated as kube's policyRuleEvaluator: the first matching rule gives the level, the
 * omitted stages (policy-level ∪ rule-level) and omitManagedFields; no match = level None.
 */
import { collectUnknownFields as unknownFields } from '../machinery/strict-fields.ts';
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { field, type FieldError } from '../machinery/errors.ts';
import { isDNS1123Subdomain } from '../machinery/validation/names.ts';
import type { Attributes } from '../request/authorizer.ts';
import { LEVELS, STAGES, type Level, type Stage } from './types.ts';

export interface GroupResources {
  readonly group: string;
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

export interface PolicyRule {
  readonly level: Level;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  /** Already joined with the policy's omitStages. */
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields?: boolean;
}

export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

/** What the policy decides for one request (kube's RequestAuditConfig). */
export interface RequestAuditConfig {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

export class AuditPolicyError extends Error {
  override name = 'AuditPolicyError';
}

const GROUP_VERSION = 'audit.k8s.io/v1';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const POLICY_FIELDS = ['apiVersion', 'kind', 'metadata', 'rules', 'omitStages', 'omitManagedFields'];
const RULE_FIELDS = ['level', 'users', 'userGroups', 'verbs', 'resources', 'namespaces', 'nonResourceURLs', 'omitStages', 'omitManagedFields'];
const GROUP_RESOURCE_FIELDS = ['group', 'resources', 'resourceNames'];

/** Go's names for the JSON kinds, as encoding/json's UnmarshalTypeError prints them. */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function typeError(v: unknown, goField: string, goType: string): AuditPolicyError {
  return new AuditPolicyError(`failed decoding: json: cannot unmarshal ${jsonKind(v)} into Go struct field ${goField} of type ${goType}`);
}

function strings(v: unknown, goField: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw typeError(v, goField, '[]string');
  for (const s of v) if (typeof s !== 'string') throw typeError(s, goField, 'string');
  return v as string[];
}

function bool(v: unknown, goField: string, goType = 'bool'): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw typeError(v, goField, goType);
  return v;
}

/** Validation (kube's ValidatePolicy), on the decoded document. */
function validate(rules: readonly Obj[], omitStages: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  const stages = (list: readonly string[], p: string): void => list.forEach((s, i) => {
    if (!(STAGES as readonly string[]).includes(s)) errs.push(field.invalid(`${p}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`));
  });
  stages(omitStages, 'omitStages');
  rules.forEach((r, i) => {
    const p = `rules[${i}]`;
    const level = typeof r.level === 'string' ? r.level : '';
    if (level === '') errs.push(field.required(`${p}.level`));
    else if (!(LEVELS as readonly string[]).includes(level)) errs.push(field.notSupported(`${p}.level`, level, [...LEVELS]));
    const urls = r.nonResourceURLs as string[];
    urls.forEach((u, j) => {
      if (u === '*') return;
      if (!u.startsWith('/')) errs.push(field.invalid(`${p}.nonResourceURLs[${j}]`, u, "non-resource URL rules must begin with a '/' character"));
      if (u !== '' && u.slice(0, -1).includes('*')) errs.push(field.invalid(`${p}.nonResourceURLs[${j}]`, u, "non-resource URL wildcards '*' must be the final character of the rule"));
    });
    for (const gr of r.resources as GroupResources[]) {
      if (gr.group !== '' && gr.group !== '*') {
        const msgs = isDNS1123Subdomain(gr.group);
        if (msgs.length) errs.push(field.invalid(`${p}.resources.group`, gr.group, msgs.join(',')));
      }
      if (gr.resourceNames.length && !gr.resources.length) errs.push(field.invalid(`${p}.resources.resourceNames`, gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
    stages(r.omitStages as string[], `${p}.omitStages`);
    if (urls.length && ((r.resources as unknown[]).length || (r.namespaces as unknown[]).length)) {
      errs.push(field.invalid(`${p}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
  });
  return errs;
}

/** kube's utilerrors.NewAggregate message: one error as is, several as `[a, b]`. */
function aggregate(msgs: readonly string[]): string {
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/**
 * Parses a policy document. `warn` receives kube's lenient-decoding warning when the document has unknown fields.
 * Throws AuditPolicyError with kube's message (without the file suffix; see loadPolicyFile).
 */
export function parsePolicy(text: string, warn: (line: string) => void = () => {}): Policy {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, prettyErrors: false });
  const yerr = doc.errors[0];
  if (yerr) {
    const line = yerr.linePos?.[0]?.line ?? (yerr.pos ? text.slice(0, yerr.pos[0]).split('\n').length : undefined);
    throw new AuditPolicyError(`failed decoding: error converting YAML to JSON: yaml: ${line !== undefined ? `line ${line}: ` : ''}${yerr.message.split('\n')[0]}`);
  }
  const raw = doc.toJS() as unknown;
  if (!isObj(raw)) {
    throw new AuditPolicyError(`failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(raw)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const kind = typeof raw.kind === 'string' ? raw.kind : '';
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  if (!kind) throw new AuditPolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  if (apiVersion !== GROUP_VERSION || kind !== 'Policy') {
    if (!apiVersion) throw new AuditPolicyError(`failed decoding: Object 'apiVersion' is missing in '${JSON.stringify(raw)}'`);
    throw new AuditPolicyError(`failed decoding: no kind "${kind}" is registered for version "${apiVersion}" in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"`);
  }

  const strict: string[] = [];
  unknownFields(raw, POLICY_FIELDS, '', strict);
  if (raw.rules !== undefined && raw.rules !== null && !Array.isArray(raw.rules)) throw typeError(raw.rules, 'Policy.rules', '[]v1.PolicyRule');
  const policyStages = strings(raw.omitStages, 'Policy.omitStages');
  const policyOmitManaged = bool(raw.omitManagedFields, 'Policy.omitManagedFields') ?? false;
  const rawRules = (raw.rules as unknown[] | undefined) ?? [];
  const rules: Obj[] = rawRules.map((r, i) => {
    if (!isObj(r)) throw typeError(r, 'Policy.rules', 'v1.PolicyRule');
    unknownFields(r, RULE_FIELDS, `rules[${i}].`, strict);
    if (r.level !== undefined && typeof r.level !== 'string') throw typeError(r.level, 'Policy.rules.level', 'v1.Level');
    if (r.resources !== undefined && r.resources !== null && !Array.isArray(r.resources)) throw typeError(r.resources, 'Policy.rules.resources', '[]v1.GroupResources');
    const resources = ((r.resources as unknown[] | undefined) ?? []).map((gr, j): GroupResources => {
      if (!isObj(gr)) throw typeError(gr, 'Policy.rules.resources', 'v1.GroupResources');
      unknownFields(gr, GROUP_RESOURCE_FIELDS, `rules[${i}].resources[${j}].`, strict);
      if (gr.group !== undefined && gr.group !== null && typeof gr.group !== 'string') throw typeError(gr.group, 'Policy.rules.resources.group', 'string');
      return {
        group: typeof gr.group === 'string' ? gr.group : '',
        resources: strings(gr.resources, 'Policy.rules.resources.resources'),
        resourceNames: strings(gr.resourceNames, 'Policy.rules.resources.resourceNames'),
      };
    });
    return {
      level: r.level ?? '',
      users: strings(r.users, 'Policy.rules.users'),
      userGroups: strings(r.userGroups, 'Policy.rules.userGroups'),
      verbs: strings(r.verbs, 'Policy.rules.verbs'),
      resources,
      namespaces: strings(r.namespaces, 'Policy.rules.namespaces'),
      nonResourceURLs: strings(r.nonResourceURLs, 'Policy.rules.nonResourceURLs'),
      omitStages: strings(r.omitStages, 'Policy.rules.omitStages'),
      omitManagedFields: bool(r.omitManagedFields, 'Policy.rules.omitManagedFields', '*bool'),
    };
  });
  if (strict.length) warn(`Audit policy contains errors, falling back to lenient decoding: strict decoding error: ${strict.join(', ')}`);

  const errs = validate(rules, policyStages);
  if (errs.length) throw new AuditPolicyError(aggregate(errs.map((e) => e.toString())));
  if (!rules.length) throw new AuditPolicyError('loaded illegal policy with 0 rules');

  return {
    omitStages: policyStages as Stage[],
    omitManagedFields: policyOmitManaged,
    rules: rules.map((r) => ({
      ...(r as unknown as PolicyRule),
      omitStages: [...new Set([...policyStages, ...(r.omitStages as string[])])] as Stage[],
    })),
  };
}

/** Reads the file; errors carry kube's wording: `failed to read file path "…"` or `…: from file <path>`. */
export function loadPolicyFile(file: string, warn?: (line: string) => void): Policy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? `open ${file}: no such file or directory` : err.code === 'EACCES' ? `open ${file}: permission denied` : err.message;
    throw new AuditPolicyError(`failed to read file path ${JSON.stringify(file)}: ${why}`);
  }
  try {
    return parsePolicy(text, warn);
  } catch (e) {
    throw new AuditPolicyError(`${(e as Error).message}: from file ${file}`);
  }
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, a: Attributes): boolean {
  if (!a.isResourceRequest) return false;
  // Cluster-scoped requests have the namespace "".
  if (r.namespaces.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if (gr.group !== a.apiGroup && gr.group !== '*') continue;
    if (!gr.resources.length) return true;
    if (gr.resourceNames.length && !gr.resourceNames.includes(a.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && a.subresource === res.slice(2)) return true;
      if (res.endsWith('/*') && a.resource === res.slice(0, -2)) return true;
    }
  }
  return false;
}

/** kube's ruleMatches. */
export function ruleMatches(r: PolicyRule, a: Attributes): boolean {
  if (r.users.length && !r.users.includes(a.user.username)) return false;
  if (r.userGroups.length && !(a.user.groups ?? []).some((g) => r.userGroups.includes(g))) return false;
  if (r.verbs.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces.length || r.resources.length) return resourceMatches(r, a);
  if (r.nonResourceURLs.length) return !a.isResourceRequest && r.nonResourceURLs.some((s) => pathMatches(a.path, s));
  return true;
}

/** The first matching rule decides; no match = None with the policy's own omitStages. */
export function evaluatePolicy(p: Policy, a: Attributes): RequestAuditConfig {
  for (const r of p.rules) {
    if (ruleMatches(r, a)) return { level: r.level, omitStages: r.omitStages, omitManagedFields: r.omitManagedFields ?? p.omitManagedFields };
  }
  return { level: 'None', omitStages: p.omitStages, omitManagedFields: p.omitManagedFields };
}
