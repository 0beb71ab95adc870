/**
 * Bindings and the users they apply to, as kube's pkg/registry/rbac/validation/rule.go (`appliesTo`,
 * `describeSubject`, the binding describers used in allow reasons).
 */
import type { UserInfo } from '../../../machinery/objects.ts';
import { goQuote } from '../../../machinery/go-quote.ts';

export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

export interface RoleRef {
  readonly kind: string;
  readonly name: string;
  readonly apiGroup?: string;
}

/** A RoleBinding or ClusterRoleBinding reduced to what authorization reads. */
export interface BindingInfo {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly name: string;
  /** '' for ClusterRoleBindings. */
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly Subject[];
}

export const SA_PREFIX = 'system:serviceaccount:';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** From a stored binding object; malformed parts (bad stored data) become empty values that match nothing. */
export function bindingInfo(obj: { kind?: string; metadata: { name?: string; namespace?: string }; [k: string]: unknown }, kind: BindingInfo['kind']): BindingInfo {
  const ref = (obj['roleRef'] && typeof obj['roleRef'] === 'object' ? obj['roleRef'] : {}) as Record<string, unknown>;
  const subjects = Array.isArray(obj['subjects']) ? (obj['subjects'] as unknown[]) : [];
  return {
    kind,
    name: obj.metadata.name ?? '',
    namespace: kind === 'RoleBinding' ? (obj.metadata.namespace ?? '') : '',
    roleRef: { kind: str(ref['kind']), name: str(ref['name']), apiGroup: str(ref['apiGroup']) },
    subjects: subjects.map((s) => {
      const o = (s && typeof s === 'object' ? s : {}) as Record<string, unknown>;
      return { kind: str(o['kind']), name: str(o['name']), namespace: str(o['namespace']), apiGroup: str(o['apiGroup']) };
    }),
  };
}

/** kube's appliesToUser; `namespace` is the binding's namespace ('' for cluster bindings). */
export function appliesToUser(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      // A subject without a namespace means the binding's own (never for cluster bindings).
      const ns = s.namespace || namespace;
      return ns !== '' && user.username === `${SA_PREFIX}${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** Index of the first subject that applies to `user`, or -1. */
export function appliesTo(user: UserInfo, b: BindingInfo): number {
  for (let i = 0; i < b.subjects.length; i++) if (appliesToUser(user, b.subjects[i]!, b.namespace)) return i;
  return -1;
}

/**
 * Keys a binding is indexed under, one per subject that can ever apply: `u\0<username>` for users and
 * service accounts (as their username), `g\0<group>` for groups.
 */
export function subjectKeys(b: BindingInfo): string[] {
  const keys = new Set<string>();
  for (const s of b.subjects) {
    if (s.kind === 'User') keys.add(`u\0${s.name}`);
    else if (s.kind === 'Group') keys.add(`g\0${s.name}`);
    else if (s.kind === 'ServiceAccount') {
      const ns = s.namespace || b.namespace;
      if (ns) keys.add(`u\0${SA_PREFIX}${ns}:${s.name}`);
    }
  }
  return [...keys];
}

/** The keys to look a user up by (the same shapes as `subjectKeys`). */
export function userKeys(user: UserInfo): string[] {
  const keys = [`u\0${user.username}`];
  for (const g of user.groups) keys.push(`g\0${g}`);
  return keys;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/** `ClusterRoleBinding "b" of ClusterRole "r" to User "u"` / `RoleBinding "b/ns" of Role "r" to Group "g"`. */
export function describeBinding(b: BindingInfo, subjectIndex: number): string {
  const name = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name;
  const subject = b.subjects[subjectIndex];
  return `${b.kind} ${goQuote(name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${subject ? describeSubject(subject, b.namespace) : ''}`;
}
