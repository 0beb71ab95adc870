/**
 * The authentication flags as options (src/controlplane/options.ts composes them into ServerOptions; the CLI maps
 * kube-apiserver's flags onto them in src/cli/flags.ts).
 */

/** `--service-account-*` and `--api-audiences`. Without key files a signing key is generated into the cert dir. */
export interface ServiceAccountOptions {
  /** `--service-account-key-file` (repeatable): PEM public or private keys that verify tokens. */
  keyFiles?: string[];
  /** `--service-account-signing-key-file`: the private key new tokens are signed with. */
  signingKeyFile?: string;
  /** `--service-account-issuer` (repeatable): the first signs, all are accepted. */
  issuers?: string[];
  /** `--service-account-lookup` (default true): tokens of deleted accounts/secrets/pods are refused. */
  lookup?: boolean;
  /** `--service-account-max-token-expiration` in ms (0 = none). */
  maxTokenExpirationMs?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  extendTokenExpiration?: boolean;
  /** `--service-account-jwks-uri`. */
  jwksUri?: string;
}

/** `--oidc-*` (the legacy single-issuer OpenID Connect flags). */
export interface OidcOptions {
  issuerUrl: string;
  clientId: string;
  caFile?: string;
  usernameClaim?: string;
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  requiredClaims?: Record<string, string>;
  signingAlgs?: string[];
}

/** `--requestheader-*` (authenticating proxy). */
export interface RequestHeaderOptions {
  clientCaFile: string;
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
  uidHeaders: string[];
  allowedNames: string[];
}

/** `--authentication-token-webhook-*`. */
export interface TokenWebhookOptions {
  configFile: string;
  /** default 2m */
  cacheTtlMs?: number;
  /** `v1` or `v1beta1` (default v1beta1, as kube). */
  version?: string;
}

/** `--enable-bootstrap-token-auth`, `--service-account-*`, `--api-audiences`, `--oidc-*`, `--authentication-*`, `--requestheader-*`. */
export interface AuthenticationOptions {
  /** `--enable-bootstrap-token-auth`. */
  enableBootstrapTokenAuth?: boolean;
  serviceAccounts?: ServiceAccountOptions;
  /** `--api-audiences` (default: the service account issuers). */
  apiAudiences?: string[];
  oidc?: OidcOptions;
  /** `--authentication-config`. */
  authenticationConfigFile?: string;
  authenticationTokenWebhook?: TokenWebhookOptions;
  requestHeader?: RequestHeaderOptions;
}

/** The resolved server options authentication reads (src/controlplane/options.ts's ResolvedOptions has them all). */
export interface AuthnServerOptions extends AuthenticationOptions {
  /** `--anonymous-auth`, resolved. */
  readonly anonymousAuth: boolean;
  /** `--anonymous-auth` was given explicitly (it may not be combined with the configuration file's `anonymous`). */
  readonly anonymousAuthFlagSet?: boolean;
  readonly clientCaFile?: string;
  readonly tokenAuthFile?: string;
  /** Where the generated keys live (the service account signing key among them). */
  readonly certDir: string | undefined;
  /** `--tls-private-key-file`: kube's fallback service account key. */
  readonly tlsPrivateKeyFile?: string;
  /** The external host the service account issuer discovery document names (`--advertise-address`). */
  readonly advertiseAddress: string;
  readonly featureGates: Record<string, boolean>;
}
