/**
 * Pod Security admission's decisions (k8s.io/pod-security-admission/admission at v1.33), free of the chain so
 * they can be tested with plain objects:
 *
 * - pods (create, and updates that change something the policy reads: an image, a container added, an
 *   ephemeral container added or changed — metadata-only and status updates pass unevaluated; the status,
 *   binding, eviction, log, exec, attach, portforward and proxy sub-resources are never evaluated): refused
 *   when they break the namespace's enforce level, audit annotations for the audit level, Warning headers for
 *   the warn level;
 * - workload objects with a pod template (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs,
 *   ReplicationControllers, PodTemplates): never refused; their template is evaluated against the audit and warn
 *   levels only (warn follows an explicitly stricter enforce label, which is why a template breaking the enforce
 *   level is warned about);
 * - namespaces: pod security labels must be valid (422 on create, and on update when they changed); when an
 *   update tightens the enforce level, the namespace's existing pods are evaluated against it (at most 3000, at
 *   most one second, one pod per controller first) and the violations come back as warnings.
 *
 * Exempt namespaces, users and runtime classes are let through with an `exempt` audit annotation.
 */
import { errors, type FieldError, type StatusError } from '../../../machinery/errors.ts';
import type { KObject, ObjectMeta } from '../../../machinery/objects.ts';
import {
  AUDIT_VIOLATIONS_ANNOTATION, ENFORCED_POLICY_ANNOTATION, EXEMPTION_REASON_ANNOTATION, Version, aggregateMessage, compareLevels,
  fullyPrivileged, lvEqual, lvString, policyEquivalent, policyToEvaluate, type LevelVersion, type Policy,
  AUDIT_LEVEL_LABEL, AUDIT_VERSION_LABEL, ENFORCE_LEVEL_LABEL, ENFORCE_VERSION_LABEL, WARN_LEVEL_LABEL, WARN_VERSION_LABEL,
} from './api.ts';
import type { PodMetaLike, PodSpecLike } from './checks.ts';
import type { ResolvedConfiguration } from './configuration.ts';
import { forbiddenDetail, forbiddenReason, type AggregateResult, type Evaluator } from './evaluator.ts';

export const DEFAULT_MAX_PODS_TO_CHECK = 3000;
export const DEFAULT_POD_CHECK_TIMEOUT_MS = 1000;

/** What a decision needs to know about the request (kube's api.Attributes). */
export interface PodSecurityRequest {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly object: KObject | undefined;
  readonly oldObject: KObject | undefined;
  readonly username: string;
}

export interface PodSecurityResponse {
  readonly allowed: boolean;
  /** The refusal, when not allowed. */
  readonly error?: StatusError;
  readonly warnings: readonly string[];
  /** Keys without the `pod-security.kubernetes.io/` prefix. */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

export interface PodSecurityDeps {
  readonly config: ResolvedConfiguration;
  readonly evaluator: Evaluator;
  /** The namespace (from a cache, else a live read); rejects when it cannot be found. */
  getNamespace(name: string): Promise<KObject>;
  /** Every pod of a namespace; `signal` aborts when the check's time is up. */
  listPods(namespace: string, signal: AbortSignal): Promise<readonly KObject[]>;
  /** Milliseconds clock (tests replace it). */
  readonly now?: () => number;
  readonly maxPodsToCheck?: number;
  readonly podCheckTimeoutMs?: number;
}

/** The resources whose objects embed a pod template, and where it is. */
const TEMPLATE_OF: Readonly<Record<string, (o: KObject) => unknown>> = {
  '/podtemplates': (o) => o['template'] ?? {},
  // A ReplicationController's template is optional: none, nothing to check.
  '/replicationcontrollers': (o) => spec(o)['template'],
  'apps/replicasets': (o) => spec(o)['template'] ?? {},
  'apps/deployments': (o) => spec(o)['template'] ?? {},
  'apps/statefulsets': (o) => spec(o)['template'] ?? {},
  'apps/daemonsets': (o) => spec(o)['template'] ?? {},
  'batch/jobs': (o) => spec(o)['template'] ?? {},
  'batch/cronjobs': (o) => spec(asObject(spec(o)['jobTemplate']))['template'] ?? {},
};

/** Pod sub-resources whose requests never change what the policy reads. */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const asObject = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : {});
const spec = (o: KObject | Record<string, unknown>): Record<string, unknown> => asObject(o['spec']);

const ALLOWED: PodSecurityResponse = Object.freeze({ allowed: true, warnings: [], auditAnnotations: {} });
const allowedWith = (auditAnnotations: Record<string, string>, warnings: string[] = []): PodSecurityResponse => ({ allowed: true, warnings, auditAnnotations });
const EXEMPT_NAMESPACE = allowedWith({ [EXEMPTION_REASON_ANNOTATION]: 'namespace' });
const EXEMPT_USER = allowedWith({ [EXEMPTION_REASON_ANNOTATION]: 'user' });
const EXEMPT_RUNTIME_CLASS = allowedWith({ [EXEMPTION_REASON_ANNOTATION]: 'runtimeClass' });
const PRIVILEGED = allowedWith({ [ENFORCED_POLICY_ANNOTATION]: lvString({ level: 'privileged', version: Version.LATEST }) });

/** Whether the plugin looks at requests for this group and resource at all. */
export function appliesTo(group: string, resource: string): boolean {
  return (group === '' && (resource === 'pods' || resource === 'namespaces')) || Object.hasOwn(TEMPLATE_OF, `${group}/${resource}`);
}

export class PodSecurityAdmission {
  private readonly now: () => number;
  private readonly maxPods: number;
  private readonly timeoutMs: number;
  /** Namespace objects (the informer's, unchanged until the namespace changes) → their parsed policy. */
  private readonly namespacePolicies = new WeakMap<KObject, { policy: Policy; errors: FieldError[] }>();

  constructor(private readonly deps: PodSecurityDeps) {
    this.now = deps.now ?? Date.now;
    this.maxPods = deps.maxPodsToCheck ?? DEFAULT_MAX_PODS_TO_CHECK;
    this.timeoutMs = deps.podCheckTimeoutMs ?? DEFAULT_POD_CHECK_TIMEOUT_MS;
  }

  private get defaults(): Policy {
    return this.deps.config.defaults;
  }

  policyFor(labels: Readonly<Record<string, string>> | undefined): { policy: Policy; errors: FieldError[] } {
    return policyToEvaluate(labels, this.defaults);
  }

  private namespacePolicy(ns: KObject): { policy: Policy; errors: FieldError[] } {
    let p = this.namespacePolicies.get(ns);
    if (!p) {
      p = this.policyFor(ns.metadata.labels);
      this.namespacePolicies.set(ns, p);
    }
    return p;
  }

  async validate(r: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (r.group === '' && r.resource === 'namespaces') return this.validateNamespace(r);
    if (r.group === '' && r.resource === 'pods') return this.validatePod(r);
    if (appliesTo(r.group, r.resource)) return this.validatePodController(r);
    return ALLOWED;
  }

  async validateNamespace(r: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (r.subresource !== '' || !r.object) return ALLOWED;
    const ns = r.object;
    const name = ns.metadata.name ?? r.name;
    const labels = ns.metadata.labels;
    const { policy, errors: errs } = this.policyFor(labels);
    const invalid = () => ({ allowed: false, error: errors.invalid({ kind: r.kind, name: r.name }, errs), warnings: [], auditAnnotations: {} });
    if (r.operation === 'CREATE') {
      if (errs.length) return invalid();
      if (this.exemptNamespace(name)) {
        const w = this.exemptNamespaceWarning(name, policy, labels ?? {});
        if (w) return allowedWith({}, [w]);
      }
      return ALLOWED;
    }
    if (r.operation !== 'UPDATE' || !r.oldObject) return ALLOWED;
    const old = this.policyFor(r.oldObject.metadata.labels);
    // Labels that were already wrong the same way may stay (the update is about something else).
    if (errs.length && (!old.errors.length || !sameErrors(errs, old.errors))) return invalid();
    // Nothing to check against existing pods unless the enforce level got stricter.
    if (lvEqual(policy.enforce, old.policy.enforce)) return ALLOWED;
    if (policy.enforce.level === 'privileged') return ALLOWED;
    if (policy.enforce.version.equals(old.policy.enforce.version) && compareLevels(policy.enforce.level, old.policy.enforce.level) < 1) return ALLOWED;
    if (this.exemptNamespace(name)) {
      const w = this.exemptNamespaceWarning(name, policy, labels ?? {});
      return w ? allowedWith({}, [w]) : ALLOWED;
    }
    return allowedWith({}, await this.evaluatePodsInNamespace(name, policy.enforce));
  }

  async validatePod(r: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (IGNORED_POD_SUBRESOURCES.has(r.subresource)) return ALLOWED;
    if (this.exemptNamespace(r.namespace)) return EXEMPT_NAMESPACE;
    if (this.exemptUser(r.username)) return EXEMPT_USER;
    let ns: KObject;
    try {
      ns = await this.deps.getNamespace(r.namespace);
    } catch (e) {
      const err = errors.internal(`failed to lookup namespace ${JSON.stringify(r.namespace)}`);
      return { allowed: false, error: err, warnings: [], auditAnnotations: { error: `${err.message}: ${(e as Error).message}` } };
    }
    const { policy, errors: errs } = this.namespacePolicy(ns);
    if (!errs.length && fullyPrivileged(policy)) return PRIVILEGED;
    const pod = r.object;
    if (!pod) return ALLOWED;
    if (r.operation === 'UPDATE' && r.oldObject && !isSignificantPodUpdate(pod, r.oldObject)) return ALLOWED;
    return this.evaluatePod(r, policy, errs, pod.metadata, asObject(pod['spec']), true);
  }

  async validatePodController(r: PodSecurityRequest): Promise<PodSecurityResponse> {
    if (r.subresource !== '') return ALLOWED;
    if (this.exemptNamespace(r.namespace)) return EXEMPT_NAMESPACE;
    if (this.exemptUser(r.username)) return EXEMPT_USER;
    let ns: KObject;
    try {
      ns = await this.deps.getNamespace(r.namespace);
    } catch (e) {
      return allowedWith({ error: `failed to lookup namespace ${JSON.stringify(r.namespace)}: ${(e as Error).message}` });
    }
    const { policy, errors: errs } = this.namespacePolicy(ns);
    if (!errs.length && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return ALLOWED;
    if (!r.object) return ALLOWED;
    const template = TEMPLATE_OF[`${r.group}/${r.resource}`]!(r.object);
    if (template === undefined || template === null) return ALLOWED;
    const t = asObject(template);
    return this.evaluatePod(r, policy, errs, asObject(t['metadata']), asObject(t['spec']), false);
  }

  /** One pod (or template) against the policy: the enforce level only for pods themselves. */
  evaluatePod(r: PodSecurityRequest, policy: Policy, policyErrors: readonly FieldError[], meta: PodMetaLike | ObjectMeta, podSpec: PodSpecLike, enforce: boolean): PodSecurityResponse {
    if (this.exemptRuntimeClass(podSpec.runtimeClassName)) return EXEMPT_RUNTIME_CLASS;
    const annotations: Record<string, string> = {};
    if (policyErrors.length) annotations['error'] = `Failed to parse policy: ${aggregateMessage(policyErrors.map((e) => e.toString()))}`;
    const cache = new Map<string, AggregateResult>();
    const evaluate = (lv: LevelVersion): AggregateResult => {
      const key = lvString(lv);
      let res = cache.get(key);
      if (!res) {
        res = this.deps.evaluator.evaluate(lv, meta as PodMetaLike, podSpec);
        cache.set(key, res);
      }
      return res;
    };
    let error: StatusError | undefined;
    if (enforce) {
      annotations[ENFORCED_POLICY_ANNOTATION] = lvString(policy.enforce);
      const res = evaluate(policy.enforce);
      if (!res.allowed) {
        error = errors.forbidden({ kind: r.resource, group: r.group, ...(r.name ? { name: r.name } : {}) },
          `violates PodSecurity ${JSON.stringify(lvString(policy.enforce))}: ${forbiddenDetail(res)}`);
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotations[AUDIT_VIOLATIONS_ANNOTATION] = `would violate PodSecurity ${JSON.stringify(lvString(policy.audit))}: ${forbiddenDetail(audit)}`;
    const warnings: string[] = [];
    // No warnings on a request that is refused anyway.
    if (!error) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) warnings.push(`would violate PodSecurity ${JSON.stringify(lvString(policy.warn))}: ${forbiddenDetail(warn)}`);
    }
    return error ? { allowed: false, error, warnings, auditAnnotations: annotations } : { allowed: true, warnings, auditAnnotations: annotations };
  }

  /**
   * The namespace's pods against a new enforce level, as warnings: a count line when not all pods could be
   * checked (the limit or the time ran out), a headline when any breaks it, then one line per distinct set of
   * reasons naming the first pod by name and how many others share it.
   */
  async evaluatePodsInNamespace(namespace: string, enforce: LevelVersion): Promise<string[]> {
    const deadline = this.now() + this.timeoutMs;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let pods: readonly KObject[];
    try {
      pods = await Promise.race([
        this.deps.listPods(namespace, abort.signal),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out listing pods')), this.timeoutMs);
        }),
      ]);
    } catch {
      return ['failed to list pods while checking new PodSecurity enforce level'];
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    const prioritized = this.prioritizePods(pods);
    const total = prioritized.length;
    const toCheck = prioritized.slice(0, this.maxPods);
    let checked = toCheck.length;
    const byReason = new Map<string, { podName: string; count: number }>();
    const order: string[] = [];
    for (let i = 0; i < toCheck.length; i++) {
      const pod = toCheck[i]!;
      const res = this.deps.evaluator.evaluate(enforce, pod.metadata, asObject(pod['spec']));
      if (!res.allowed) {
        const reason = forbiddenReason(res);
        const podName = pod.metadata.name ?? '';
        const seen = byReason.get(reason);
        if (!seen) {
          byReason.set(reason, { podName, count: 1 });
          order.push(reason);
        } else {
          if (podName < seen.podName) seen.podName = podName;
          seen.count++;
        }
      }
      if (this.now() >= deadline) {
        checked = i + 1;
        break;
      }
    }
    const warnings: string[] = [];
    if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
    if (order.length) warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(lvString(enforce))}`);
    const lines = order.map((reason) => {
      const { podName, count } = byReason.get(reason)!;
      if (count === 1) return `${podName}: ${reason}`;
      if (count === 2) return `${podName} (and 1 other pod): ${reason}`;
      return `${podName} (and ${count - 1} other pods): ${reason}`;
    });
    lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return [...warnings, ...lines];
  }

  /** Pods of exempt runtime classes left out; one pod per controller first, the other replicas after. */
  private prioritizePods(pods: readonly KObject[]): KObject[] {
    const first: KObject[] = [];
    const replicas: KObject[] = [];
    const controllers = new Set<string>();
    for (const pod of pods) {
      if (this.exemptRuntimeClass(asObject(pod['spec'])['runtimeClassName'] as string | undefined)) continue;
      const ref = (pod.metadata.ownerReferences ?? []).find((o) => o.controller === true);
      if (!ref) first.push(pod);
      else if (controllers.has(ref.uid)) replicas.push(pod);
      else {
        controllers.add(ref.uid);
        first.push(pod);
      }
    }
    return [...first, ...replicas];
  }

  private exemptNamespace(ns: string): boolean {
    return ns !== '' && this.deps.config.exemptNamespaces.has(ns);
  }

  private exemptUser(user: string): boolean {
    return user !== '' && this.deps.config.exemptUsernames.has(user);
  }

  private exemptRuntimeClass(rc: string | null | undefined): boolean {
    return typeof rc === 'string' && rc !== '' && this.deps.config.exemptRuntimeClasses.has(rc);
  }

  /**
   * For a label change on an exempt namespace that asks for more than privileged (and differs from the
   * defaults): the modes it sets explicitly, and that they do nothing.
   */
  private exemptNamespaceWarning(name: string, policy: Policy, labels: Readonly<Record<string, string>>): string {
    if (fullyPrivileged(policy) || policyEquivalent(policy, this.defaults)) return '';
    const has = (k: string) => Object.hasOwn(labels, k);
    const parts: string[] = [];
    if (policy.enforce.level !== 'privileged' && (has(ENFORCE_LEVEL_LABEL) || has(ENFORCE_VERSION_LABEL))) parts.push(`enforce=${lvString(policy.enforce)}`);
    if (policy.audit.level !== 'privileged' && (has(AUDIT_LEVEL_LABEL) || has(AUDIT_VERSION_LABEL))) parts.push(`audit=${lvString(policy.audit)}`);
    if (policy.warn.level !== 'privileged' && (has(WARN_LEVEL_LABEL) || has(WARN_VERSION_LABEL))) parts.push(`warn=${lvString(policy.warn)}`);
    return `namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
  }
}

function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return a.length === b.length && a.every((e, i) => e.toString() === b[i]!.toString() && e.type === b[i]!.type);
}

type ContainerList = Array<{ name?: string; image?: string }>;
const containersOf = (pod: KObject, key: string): ContainerList => {
  const list = asObject(pod['spec'])[key];
  return Array.isArray(list) ? list.map((c) => asObject(c) as { name?: string; image?: string }) : [];
};

/**
 * Whether an update changes what the policy reads: the number of containers or init containers, an image, an
 * ephemeral container added or its image changed. Everything else a pod update may change (labels,
 * annotations, tolerations, resources, …) leaves the policy's verdict as it was.
 */
export function isSignificantPodUpdate(pod: KObject, oldPod: KObject): boolean {
  for (const key of ['containers', 'initContainers']) {
    const now = containersOf(pod, key);
    const before = containersOf(oldPod, key);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => (c.image ?? '') !== (before[i]!.image ?? ''))) return true;
  }
  const oldEphemeral = containersOf(oldPod, 'ephemeralContainers');
  for (const c of containersOf(pod, 'ephemeralContainers')) {
    const old = oldEphemeral.find((o) => (o.name ?? '') === (c.name ?? ''));
    if (!old || (old.image ?? '') !== (c.image ?? '')) return true;
  }
  return false;
}
