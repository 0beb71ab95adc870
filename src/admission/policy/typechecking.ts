/**
 * Static type checking of ValidatingAdmissionPolicies (kube's validating/typechecking.go and the
 * validatingadmissionpolicy-status controller): the validation expressions and messageExpressions are compiled
 * again with `object`/`oldObject` typed by the schema of each kind the policy's resourceRules name (no wildcards,
 * at most 10 kinds) and `params` by the paramKind's schema; what fails becomes
 * `status.typeChecking.expressionWarnings` (`fieldRef`, and `<group>/<version>, Kind=<kind>: <error>` lines),
 * written with `status.observedGeneration` each time the generation moves. Kinds without a schema here (custom
 * resources) are not checked.
 *
 * It runs inside the ValidatingAdmissionPolicy plugin (kube runs it in kube-controller-manager): it needs the
 * admission CEL environment and nothing of the controllers layer, and Keelson has no separate controller manager.
 */
import { Informer } from '../../client/informer.ts';
import { WorkQueue } from '../../client/work-queue.ts';
import type { ResourceDef } from '../../api/types.ts';
import { collectDefinitions, definitionNameOf, messageNameFor } from '../../api/openapi/generate.ts';
import { celTypeFromSchema, type CelSchema, type CelType } from '../../cel/index.ts';
import type { GroupVersionKind, KObject } from '../../machinery/objects.ts';
import type { RestRegistry, RestStorage } from '../../registry/rest.ts';
import { systemContext } from '../../registry/system-context.ts';
import { compileExpression, declarations, VariableSet } from './cel.ts';
import { ResourceMapper, spec } from './source.ts';

type J = Record<string, unknown>;
const MAX_TYPES_TO_CHECK = 10;

export interface ExpressionWarning {
  readonly fieldRef: string;
  readonly warning: string;
}

const schemaCache = new Map<string, CelSchema | null>();

/** The resolved (no $ref) OpenAPI v3 schema of a built-in kind, from the type descriptions; undefined when none. */
export function builtinSchema(gvk: GroupVersionKind): CelSchema | undefined {
  const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
  if (schemaCache.has(key)) return schemaCache.get(key) ?? undefined;
  let out: CelSchema | null = null;
  const msg = messageNameFor(gvk.group, gvk.version, gvk.kind);
  if (msg) {
    const defs = collectDefinitions([msg], 'v3');
    out = resolve(defs[definitionNameOf(msg)], defs, new Set()) ?? null;
  }
  schemaCache.set(key, out);
  return out ?? undefined;
}

function resolve(s: J | undefined, defs: Record<string, J>, stack: Set<string>): CelSchema | undefined {
  if (!s) return undefined;
  const ref = (s['$ref'] as string | undefined) ?? ((s['allOf'] as J[] | undefined)?.[0]?.['$ref'] as string | undefined);
  if (ref) {
    const name = ref.replace('#/components/schemas/', '');
    // Recursive types (JSONSchemaProps) end as untyped values.
    if (stack.has(name)) return { 'x-kubernetes-preserve-unknown-fields': true };
    const target = defs[name];
    if (!target) return { 'x-kubernetes-preserve-unknown-fields': true };
    stack.add(name);
    try {
      return resolve(target, defs, stack);
    } finally {
      stack.delete(name);
    }
  }
  const out: Record<string, unknown> = {};
  for (const k of ['type', 'format', 'required', 'maxLength', 'maxItems', 'maxProperties', 'enum', 'nullable',
    'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys']) {
    if (s[k] !== undefined) out[k] = s[k];
  }
  if (s['properties']) {
    const props: Record<string, CelSchema> = {};
    for (const [k, v] of Object.entries(s['properties'] as Record<string, J>)) {
      const r = resolve(v, defs, stack);
      if (r) props[k] = r;
    }
    out['properties'] = props;
  }
  if (s['items']) out['items'] = resolve(s['items'] as J, defs, stack);
  if (s['additionalProperties'] !== undefined) {
    const ap = s['additionalProperties'];
    out['additionalProperties'] = typeof ap === 'object' && ap !== null ? resolve(ap as J, defs, stack) : ap;
  }
  // Value types (Time, Quantity, IntOrString, RawExtension) render without a type.
  if (out['type'] === undefined && out['properties'] === undefined && out['x-kubernetes-int-or-string'] === undefined) out['x-kubernetes-preserve-unknown-fields'] = true;
  return out as CelSchema;
}

const gvkString = (g: GroupVersionKind) => `${g.group}/${g.version}, Kind=${g.kind}`;

/** The kinds kube type-checks a policy against (typesToCheck). */
export function typesToCheck(policy: KObject, mapper: ResourceMapper): GroupVersionKind[] {
  const rules = ((spec(policy)['matchConstraints'] as J | undefined)?.['resourceRules'] as J[] | undefined) ?? [];
  const out = new Map<string, GroupVersionKind>();
  for (const rule of rules) {
    const list = (k: string) => ((rule[k] as string[] | undefined) ?? []);
    const groups = list('apiGroups');
    const versions = list('apiVersions');
    const resources = list('resources').filter((r) => !r.includes('/'));
    if (!groups.length || groups.some((g) => g.includes('*'))) continue;
    if (!versions.length || versions.some((v) => v.includes('*'))) continue;
    if (!resources.length || resources.some((r) => r.includes('*'))) continue;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          const kind = mapper.kindFor({ group, version, resource }, '');
          if (!kind) continue;
          out.set(gvkString(kind), kind);
          if (out.size === MAX_TYPES_TO_CHECK) return sortKinds([...out.values()]);
        }
      }
    }
  }
  return sortKinds([...out.values()]);
}

function sortKinds(k: GroupVersionKind[]): GroupVersionKind[] {
  return k.sort((a, b) => (gvkString(a) < gvkString(b) ? -1 : gvkString(a) > gvkString(b) ? 1 : 0));
}

function typeOf(gvk: GroupVersionKind, name: string): CelType | undefined {
  const s = builtinSchema(gvk);
  return s ? celTypeFromSchema(s, { name }).type : undefined;
}

/** kube's TypeChecker.Check. */
export function typeCheck(policy: KObject, mapper: ResourceMapper): ExpressionWarning[] {
  const s = spec(policy);
  const kinds = typesToCheck(policy, mapper).map((k) => ({ k, t: typeOf(k, `${k.kind}`) })).filter((x) => x.t !== undefined);
  const pk = s['paramKind'] as { apiVersion?: string; kind?: string } | undefined;
  let paramsType: CelType | undefined;
  if (pk?.apiVersion && pk.kind) {
    const slash = pk.apiVersion.indexOf('/');
    paramsType = typeOf({ group: slash < 0 ? '' : pk.apiVersion.slice(0, slash), version: slash < 0 ? pk.apiVersion : pk.apiVersion.slice(slash + 1), kind: pk.kind }, `params.${pk.kind}`);
  }
  const check = (expression: string): string => {
    const lines: string[] = [];
    for (const { k, t } of kinds) {
      const opts = { hasParams: paramsType !== undefined, hasAuthorizer: true, objectType: t!, ...(paramsType ? { paramsType } : {}) };
      const vars = new VariableSet();
      for (const v of (s['variables'] as J[] | undefined) ?? []) {
        vars.add(String(v['name'] ?? ''), compileExpression(String(v['expression'] ?? ''), declarations(opts, vars), ['any']));
      }
      const c = compileExpression(expression, declarations(opts, vars), ['any']);
      if (c.error !== undefined) lines.push(`${gvkString(k)}: ${c.error}\n`);
    }
    return lines.join('\n');
  };
  const warnings: ExpressionWarning[] = [];
  ((s['validations'] as J[] | undefined) ?? []).forEach((v, i) => {
    const w = check(String(v['expression'] ?? ''));
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (typeof v['messageExpression'] === 'string' && v['messageExpression']) {
      const m = check(v['messageExpression']);
      if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
    }
  });
  return warnings;
}

/** Publishes type-checking results on each policy's status when its generation moves. */
export class TypeCheckingController {
  readonly #storage: RestStorage | undefined;
  readonly #informer: Informer | undefined;
  readonly #queue: WorkQueue | undefined;
  readonly #mapper: ResourceMapper;

  constructor(private readonly deps: { registry: RestRegistry; resources: () => readonly ResourceDef[]; log: (l: string) => void }) {
    this.#mapper = new ResourceMapper(deps.resources);
    this.#storage = deps.registry.lookup('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies');
    if (!this.#storage) return;
    this.#informer = new Informer({ storage: this.#storage, log: deps.log });
    this.#queue = new WorkQueue({ name: 'validatingadmissionpolicy-status', process: (k) => this.#sync(k), log: deps.log, baseDelayMs: 50, maxDelayMs: 5000 });
    const enqueue = (o: KObject) => this.#queue!.add(o.metadata.name ?? '');
    this.#informer.addHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n) });
  }

  start(): void {
    if (!this.#informer) return;
    this.#informer.start().catch((e: unknown) => this.deps.log(`validatingadmissionpolicy-status: ${(e as Error).message}`));
  }

  async stop(): Promise<void> {
    this.#informer?.stop();
    await this.#queue?.stop();
  }

  async #sync(name: string): Promise<void> {
    const policy = this.#informer!.get('', name);
    if (!policy) return;
    const generation = Number(policy.metadata.generation ?? 0);
    const observed = Number((policy['status'] as J | undefined)?.['observedGeneration'] ?? 0);
    if (generation <= observed) return;
    const warnings = typeCheck(policy, this.#mapper);
    try {
      await this.#storage!.guaranteedUpdate(systemContext({ subresource: 'status' }), name, (cur) => {
        if (!cur || cur.metadata.uid !== policy.metadata.uid) throw Object.assign(new Error('policy replaced'), { code: 409 });
        const status = { ...((cur['status'] as J | undefined) ?? {}) };
        status['observedGeneration'] = cur.metadata.generation ?? generation;
        status['typeChecking'] = warnings.length ? { expressionWarnings: warnings } : {};
        return { ...cur, status };
      }, {});
    } catch (e) {
      if ((e as { code?: number }).code === 404) return;
      throw e;
    }
  }
}
