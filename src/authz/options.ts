/** The authorization flags as options (composed into ServerOptions by src/controlplane/options.ts). */

/** `--authorization-webhook-*`. */
export interface AuthorizationWebhookOptions {
  configFile: string;
  /** default 5m */
  authorizedTtlMs?: number;
  /** default 30s */
  unauthorizedTtlMs?: number;
  /** `v1` or `v1beta1` (default v1beta1, as kube). */
  version?: string;
}

/** `--authorization-config`, `--authorization-policy-file`, `--authorization-webhook-*`. */
export interface AuthorizationOptions {
  /** `--authorization-config` (mutually exclusive with authorizationMode). */
  authorizationConfigFile?: string;
  /** `--authorization-policy-file` (ABAC). */
  authorizationPolicyFile?: string;
  authorizationWebhook?: AuthorizationWebhookOptions;
}

/** The resolved server options authorization reads (src/controlplane/options.ts's ResolvedOptions has them all). */
export interface AuthzServerOptions extends AuthorizationOptions {
  /** `--authorization-mode`, in order (empty when the configuration file is given). */
  readonly authorizationMode: string[];
  readonly featureGates: Record<string, boolean>;
}
