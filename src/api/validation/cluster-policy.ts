/**
 * Cluster policy that kube's validation reads from process-wide capabilities (k8s.io/kubernetes/pkg/capabilities,
 * set from kube-apiserver's flags): today `--allow-privileged` (default false), which decides whether a
 * container may set `securityContext.privileged: true`.
 *
 * Several servers may share this process (tests embed them), so the policy is not a global setting: the
 * registry runs each validation inside `withPolicy` with its server's policy, and validators read
 * `currentPolicy()`. Validation is synchronous, so the scope cannot leak into another request. Outside any
 * scope the kube-apiserver defaults apply.
 */
export interface ClusterPolicy {
  /** kube-apiserver --allow-privileged. */
  readonly allowPrivileged: boolean;
}

export const DEFAULT_POLICY: ClusterPolicy = Object.freeze({ allowPrivileged: false });

let current: ClusterPolicy = DEFAULT_POLICY;

export function currentPolicy(): ClusterPolicy {
  return current;
}

/** Runs `fn` (synchronous) with `policy` in force. */
export function withPolicy<T>(policy: ClusterPolicy, fn: () => T): T {
  const saved = current;
  current = policy;
  try {
    return fn();
  } finally {
    current = saved;
  }
}
