/**
 * Reading and validating an AuthorizationConfiguration file (apiserver.config.k8s.io v1, v1beta1, v1alpha1)
 * as kube-apiserver does: strict decoding (unknown fields refused), defaults (authorizedTTL 5m0s,
 * unauthorizedTTL 30s), then kube's ValidateAuthorizationConfiguration messages, aggregated into one error
 * (`authorizers[0].name: Required value`, several as `[a, b]`). Match conditions are compiled here, once.
 */
import { collectUnknownFields } from '../../machinery/strict-fields.ts';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { field, type FieldError } from '../../machinery/errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/names.ts';
import { parseDuration, formatDuration } from '../../machinery/duration.ts';
import { compileMatchConditions, type CompiledMatchConditions } from '../webhook/match.ts';

const GROUP = 'apiserver.config.k8s.io';
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];
/** kube-apiserver's AuthorizationModeChoices; only Webhook may repeat. */
export const KNOWN_TYPES = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'];

export interface WebhookSettings {
  readonly timeoutMs: number;
  readonly authorizedTtlMs: number;
  readonly unauthorizedTtlMs: number;
  readonly subjectAccessReviewVersion: 'v1' | 'v1beta1';
  readonly failurePolicy: 'NoOpinion' | 'Deny';
  readonly connection: { readonly type: 'KubeConfigFile'; readonly kubeConfigFile: string };
  readonly matchConditions: CompiledMatchConditions;
}

export interface AuthorizerEntry {
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookSettings;
}

export class AuthorizationConfigError extends Error {
  override name = 'AuthorizationConfigError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const FIELDS: Record<string, readonly string[]> = {
  '': ['apiVersion', 'kind', 'authorizers'],
  authorizer: ['type', 'name', 'webhook'],
  webhook: ['timeout', 'authorizedTTL', 'unauthorizedTTL', 'cacheAuthorizedRequests', 'cacheUnauthorizedRequests', 'subjectAccessReviewVersion',
    'matchConditionSubjectAccessReviewVersion', 'failurePolicy', 'connectionInfo', 'matchConditions'],
  connectionInfo: ['type', 'kubeConfigFile'],
  matchCondition: ['expression'],
};

/** Strict decoding: the first unknown field, named by its path, as kube's strict decoder reports it. */
function unknownFields(doc: Obj): string[] {
  const out: string[] = [];
  const check = (o: unknown, kind: string, prefix: string): void => collectUnknownFields(o, FIELDS[kind]!, prefix, out);
  check(doc, '', '');
  (Array.isArray(doc.authorizers) ? doc.authorizers : []).forEach((a, i) => {
    const p = `authorizers[${i}].`;
    check(a, 'authorizer', p);
    if (!isObj(a) || !isObj(a.webhook)) return;
    check(a.webhook, 'webhook', `${p}webhook.`);
    check(a.webhook.connectionInfo, 'connectionInfo', `${p}webhook.connectionInfo.`);
    (Array.isArray(a.webhook.matchConditions) ? a.webhook.matchConditions : []).forEach((m, j) => check(m, 'matchCondition', `${p}webhook.matchConditions[${j}].`));
  });
  return out;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function duration(v: unknown, dflt: number): number {
  if (v === undefined || v === null || v === '') return dflt;
  const ms = typeof v === 'string' ? parseDuration(v) : undefined;
  if (ms === undefined) throw new AuthorizationConfigError(`time: invalid duration ${JSON.stringify(typeof v === 'string' ? v : JSON.stringify(v))}`);
  return ms === 0 ? dflt : ms;
}

async function validateWebhook(w: Obj, p: string, errs: FieldError[]): Promise<WebhookSettings> {
  const timeoutMs = duration(w.timeout, 0);
  if (timeoutMs === 0) errs.push(field.required(`${p}.timeout`));
  else if (timeoutMs > 30_000 || timeoutMs < 0) errs.push(field.invalid(`${p}.timeout`, formatDuration(timeoutMs), 'must be > 0s and <= 30s'));
  const authorizedTtlMs = duration(w.authorizedTTL, 5 * 60_000);
  if (authorizedTtlMs < 0) errs.push(field.invalid(`${p}.authorizedTTL`, formatDuration(authorizedTtlMs), 'must be > 0s'));
  const unauthorizedTtlMs = duration(w.unauthorizedTTL, 30_000);
  if (unauthorizedTtlMs < 0) errs.push(field.invalid(`${p}.unauthorizedTTL`, formatDuration(unauthorizedTtlMs), 'must be > 0s'));
  // cacheAuthorizedRequests / cacheUnauthorizedRequests default to true; false turns that cache off.
  const cacheAuthorized = w.cacheAuthorizedRequests !== false;
  const cacheUnauthorized = w.cacheUnauthorizedRequests !== false;
  const sarv = str(w.subjectAccessReviewVersion);
  if (!sarv) errs.push(field.required(`${p}.subjectAccessReviewVersion`));
  else if (sarv !== 'v1' && sarv !== 'v1beta1') errs.push(field.notSupported(`${p}.subjectAccessReviewVersion`, sarv, ['v1', 'v1beta1']));
  const conds = Array.isArray(w.matchConditions) ? w.matchConditions : [];
  const mcv = str(w.matchConditionSubjectAccessReviewVersion);
  if (!mcv && conds.length) errs.push(field.required(`${p}.matchConditionSubjectAccessReviewVersion`, 'required if match conditions are specified'));
  else if (mcv && mcv !== 'v1') errs.push(field.notSupported(`${p}.matchConditionSubjectAccessReviewVersion`, mcv, ['v1']));
  const fp = str(w.failurePolicy);
  if (!fp) errs.push(field.required(`${p}.failurePolicy`));
  else if (fp !== 'NoOpinion' && fp !== 'Deny') errs.push(field.notSupported(`${p}.failurePolicy`, fp, ['NoOpinion', 'Deny']));
  const ci = isObj(w.connectionInfo) ? w.connectionInfo : {};
  const ctype = str(ci.type);
  const kubeConfigFile = typeof ci.kubeConfigFile === 'string' ? ci.kubeConfigFile : undefined;
  let connection: WebhookSettings['connection'] = { type: 'KubeConfigFile', kubeConfigFile: '' };
  const kcPath = `${p}.connectionInfo.kubeConfigFile`;
  if (!ctype) errs.push(field.required(`${p}.connectionInfo.type`));
  else if (ctype === 'InClusterConfig') {
    if (kubeConfigFile !== undefined) errs.push(field.invalid(kcPath, kubeConfigFile, 'can only be set when type=KubeConfigFile'));
    // kube-apiserver hosts the SubjectAccessReview API itself: calling it in-cluster would ask itself.
    else errs.push(field.notSupported(`${p}.connectionInfo.type`, ctype, ['KubeConfigFile']));
  } else if (ctype === 'KubeConfigFile') {
    if (!kubeConfigFile) errs.push(field.required(kcPath));
    else if (!path.isAbsolute(kubeConfigFile)) errs.push(field.invalid(kcPath, kubeConfigFile, 'must be an absolute path'));
    else {
      try {
        const st = await stat(kubeConfigFile);
        if (!st.isFile()) errs.push(field.invalid(kcPath, kubeConfigFile, 'must be a regular file'));
      } catch (e) {
        errs.push(field.invalid(kcPath, kubeConfigFile, `error loading file: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? `stat ${kubeConfigFile}: no such file or directory` : (e as Error).message}`));
      }
    }
    connection = { type: 'KubeConfigFile', kubeConfigFile: kubeConfigFile ?? '' };
  } else {
    errs.push(field.notSupported(`${p}.connectionInfo.type`, ctype, ['InClusterConfig', 'KubeConfigFile']));
  }
  const { compiled, errors } = compileMatchConditions(conds, `${p}.matchConditions`);
  errs.push(...errors);
  return {
    timeoutMs, authorizedTtlMs: cacheAuthorized ? authorizedTtlMs : 0, unauthorizedTtlMs: cacheUnauthorized ? unauthorizedTtlMs : 0, subjectAccessReviewVersion: sarv === 'v1' ? 'v1' : 'v1beta1',
    failurePolicy: fp === 'Deny' ? 'Deny' : 'NoOpinion', connection, matchConditions: compiled,
  };
}

const aggregate = (msgs: string[]): string => (msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`);

/** kube's load.LoadFromData: decoding failures, wrapped as LoadAndValidateData wraps them. */
function decode(text: string): Obj {
  const fail = (msg: string): never => {
    throw new AuthorizationConfigError(`failed to load AuthorizationConfiguration from file: ${msg}`);
  };
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (e) {
    fail((e as Error).message);
  }
  if (!isObj(doc) || !str(doc.kind)) return fail(`Object 'Kind' is missing in '${text.trim()}'`);
  const av = str(doc.apiVersion);
  const [group, version] = av.includes('/') ? av.split('/', 2) : ['', av];
  if (group !== GROUP || !VERSIONS.includes(version!) || doc.kind !== 'AuthorizationConfiguration') {
    fail(`no kind ${JSON.stringify(doc.kind)} is registered for version ${JSON.stringify(av)} in scheme "pkg/apis/apiserver"`);
  }
  const unknown = unknownFields(doc);
  if (unknown.length) fail(`strict decoding error: ${unknown.join(', ')}`);
  return doc;
}

/**
 * Parses and validates the text; throws AuthorizationConfigError with kube's aggregated message.
 * `requireTypes`: non-webhook types that must still be present (on reload, those of the initial file: Node,
 * RBAC and ABAC cannot be added or removed while the server runs).
 */
export async function parseAuthorizationConfig(text: string, requireTypes: ReadonlySet<string> = new Set()): Promise<AuthorizerEntry[]> {
  const doc = decode(text);
  const errs: FieldError[] = [];
  const list = Array.isArray(doc.authorizers) ? doc.authorizers : [];
  if (!list.length) errs.push(field.required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const out: AuthorizerEntry[] = [];
  for (let i = 0; i < list.length; i++) {
    const a = isObj(list[i]) ? list[i] as Obj : {};
    const p = `authorizers[${i}]`;
    const type = str(a.type);
    if (!type) {
      errs.push(field.required(`${p}.type`));
      continue;
    }
    if (!KNOWN_TYPES.includes(type)) {
      errs.push(field.notSupported(`${p}.type`, type, KNOWN_TYPES));
      continue;
    }
    if (seenTypes.has(type) && type !== 'Webhook') {
      errs.push(field.duplicate(`${p}.type`, type));
      continue;
    }
    seenTypes.add(type);
    const name = str(a.name);
    if (!name) errs.push(field.required(`${p}.name`));
    else if (seenNames.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else {
      const bad = isDNS1123Subdomain(name);
      if (bad.length) errs.push(field.invalid(`${p}.name`, name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(name);
    if (type === 'Webhook') {
      if (!isObj(a.webhook)) {
        errs.push(field.required(`${p}.webhook`, 'required when type=Webhook'));
        continue;
      }
      out.push({ type, name, webhook: await validateWebhook(a.webhook, `${p}.webhook`, errs) });
    } else {
      if (a.webhook !== undefined && a.webhook !== null) errs.push(field.invalid(`${p}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
      out.push({ type, name });
    }
  }
  if (errs.length) throw new AuthorizationConfigError(aggregate(errs.map((e) => e.toString())));
  // kube-apiserver's own checks: non-webhook authorizers are named after their type, lower-cased.
  const more: string[] = [];
  const seen = new Set<string>();
  for (const e of out) {
    if (e.type === 'Webhook') continue;
    seen.add(e.type);
    if (e.name !== e.type.toLowerCase()) more.push(`expected name ${e.type.toLowerCase()} for authorizer ${e.type} instead of ${e.name}`);
  }
  const missing = [...requireTypes].filter((t) => !seen.has(t)).sort();
  if (missing.length) more.push(`missing required types: [${missing.join(' ')}]`);
  if (more.length) throw new AuthorizationConfigError(aggregate(more));
  return out;
}

export async function loadAuthorizationConfig(file: string): Promise<{ text: string; authorizers: AuthorizerEntry[] }> {
  const text = await readFile(file, 'utf8');
  return { text, authorizers: await parseAuthorizationConfig(text) };
}
