/**
 * Semantic validation of AuthenticationConfiguration, worded as kube's
 * k8s.io/apiserver/pkg/apis/apiserver/validation (field paths, Required/Invalid/Duplicate details), with the CEL
 * expressions compiled on the way so a configuration that validates can be used as is.
 */
import { X509Certificate } from 'node:crypto';
import { FieldError, field } from '../../machinery/errors.ts';
import { CelCompileError, type CelProgram } from '../../cel/index.ts';
import { isDNS1123Subdomain, regexError } from '../../machinery/validation/names.ts';
import type { AuthenticationConfiguration, JwtAuthenticatorConfig, PrefixedClaimOrExpression } from './config.ts';
import { CelTypeError, compileClaimsExpression, compileUserExpression, usesEmailClaim, usesEmailVerifiedClaim } from './cel.ts';

export const MAX_JWT_AUTHENTICATORS = 64;

export interface CompiledRule {
  readonly expression: string;
  readonly message?: string;
  readonly program: CelProgram;
}

/** The compiled CEL of one JWT authenticator (absent = that mapping uses a claim or is unset). */
export interface CelMappers {
  username?: CelProgram;
  groups?: CelProgram;
  uid?: CelProgram;
  extra: { key: string; program: CelProgram }[];
  claimRules: CompiledRule[];
  userRules: CompiledRule[];
}

/** utilerrors.NewAggregate's message: one error as is, several as `[a, b]`. */
export function aggregate(errs: readonly (FieldError | string)[]): string {
  const s = errs.map(String);
  return s.length === 1 ? s[0]! : `[${s.join(', ')}]`;
}

const join = (base: string, child: string): string => (base ? `${base}.${child}` : child);

function celError(path: string, expression: string, e: unknown): FieldError {
  if (e instanceof CelCompileError || e instanceof CelTypeError) return field.invalid(path, expression, e.message);
  return new FieldError('InternalError', path, (e as Error)?.message ?? String(e));
}

function tryCompile(path: string, expression: string, errs: FieldError[], compile: () => CelProgram): CelProgram | undefined {
  try {
    return compile();
  } catch (e) {
    errs.push(celError(path, expression, e));
    return undefined;
  }
}

function validateUrl(url: string, disallowed: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.has(url)) {
    errs.push(field.invalid(path, url, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // Go's url.Parse takes nearly anything; what WHATWG refuses is mostly scheme-less text.
    errs.push(field.invalid(path, url, 'URL scheme must be https'));
    return errs;
  }
  if (u.protocol !== 'https:') errs.push(field.invalid(path, url, 'URL scheme must be https'));
  if (u.username || u.password) errs.push(field.invalid(path, url, 'URL must not contain a username or password'));
  if (u.search) errs.push(field.invalid(path, url, 'URL must not contain a query'));
  if (u.hash) errs.push(field.invalid(path, url, 'URL must not contain a fragment'));
  return errs;
}

/** PEM blocks that parse as certificates; kube's cert.NewPoolFromBytes refuses a bundle with none. */
export function parseCaBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const out: X509Certificate[] = [];
  for (const b of blocks) {
    try {
      out.push(new X509Certificate(b));
    } catch {
      // kube skips blocks that are not certificates, and fails only when nothing is left
    }
  }
  return out;
}

function validateIssuer(a: JwtAuthenticatorConfig, disallowed: ReadonlySet<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const { url, discoveryURL, audiences, audienceMatchPolicy, certificateAuthority } = a.issuer;
  if (!url) errs.push(field.required(join(path, 'url')));
  else errs.push(...validateUrl(url, disallowed, join(path, 'url')));
  if (discoveryURL) {
    if (url && url.replace(/\/+$/, '') === discoveryURL.replace(/\/+$/, '')) {
      errs.push(field.invalid(join(path, 'discoveryURL'), discoveryURL, 'discoveryURL must be different from URL'));
    }
    errs.push(...validateUrl(discoveryURL, new Set(), join(path, 'discoveryURL')));
  }
  const audPath = join(path, 'audiences');
  if (audiences.length === 0) {
    errs.push(field.required(audPath, `at least one ${audPath} is required`));
  } else {
    const seen = new Set<string>();
    audiences.forEach((aud, i) => {
      if (!aud) errs.push(field.required(`${audPath}[${i}]`));
      if (seen.has(aud)) errs.push(field.duplicate(`${audPath}[${i}]`, aud));
      seen.add(aud);
    });
    const policyPath = join(path, 'audienceMatchPolicy');
    if (audiences.length > 1 && audienceMatchPolicy !== 'MatchAny') {
      errs.push(field.invalid(policyPath, audienceMatchPolicy ?? '', 'audienceMatchPolicy must be MatchAny for multiple audiences'));
    }
    if (audiences.length === 1 && audienceMatchPolicy && audienceMatchPolicy !== 'MatchAny') {
      errs.push(field.invalid(policyPath, audienceMatchPolicy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
    }
  }
  if (certificateAuthority && parseCaBundle(certificateAuthority).length === 0) {
    errs.push(field.invalid(join(path, 'certificateAuthority'), '<omitted>', 'data does not contain any valid RSA or ECDSA certificates'));
  }
  return errs;
}

function validatePrefixed(m: PrefixedClaimOrExpression, path: string, required: boolean, errs: FieldError[]): CelProgram | undefined {
  if (m.expression && m.claim) {
    errs.push(field.invalid(path, '', "claim and expression can't both be set"));
  } else if (!m.expression && !m.claim) {
    if (required) errs.push(field.required(path, 'claim or expression is required'));
  } else if (m.expression) {
    if (m.prefix !== undefined) errs.push(field.invalid(join(path, 'prefix'), m.prefix, 'may not be specified when expression is set'));
    return tryCompile(join(path, 'expression'), m.expression, errs, () => compileClaimsExpression(m.expression!));
  } else if (m.prefix === undefined) {
    errs.push(field.required(join(path, 'prefix'), 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return undefined;
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);

/** apimachinery's IsDomainPrefixedPath. */
function domainPrefixedPath(path: string, key: string): FieldError[] {
  if (!key) return [field.required(path)];
  const slash = key.indexOf('/');
  const host = slash < 0 ? '' : key.slice(0, slash);
  const rest = slash < 0 ? '' : key.slice(slash + 1);
  if (!host || !rest) return [field.invalid(path, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((e) => field.invalid(path, host, e));
  if (!HTTP_PATH_RE.test(rest)) errs.push(field.invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

function isKubernetesDomain(key: string): boolean {
  const slash = key.indexOf('/');
  const d = slash < 0 ? '' : key.slice(0, slash);
  return d === 'kubernetes.io' || d.endsWith('.kubernetes.io') || d === 'k8s.io' || d.endsWith('.k8s.io');
}

/**
 * One JWT authenticator (kube's validateJWTAuthenticator). `path` is `jwt[i]` for the file and '' for the
 * flags; `disallowed` holds the service account issuers.
 */
export function validateJwtAuthenticator(a: JwtAuthenticatorConfig, path: string, disallowed: ReadonlySet<string>): { errors: FieldError[]; mappers: CelMappers } {
  const errs: FieldError[] = validateIssuer(a, disallowed, join(path, 'issuer'));
  const mappers: CelMappers = { extra: [], claimRules: [], userRules: [] };
  let usesEmail = false;
  let usesEmailVerified = false;

  const rulesPath = join(path, 'claimValidationRules');
  const seenClaims = new Set<string>();
  const seenExpr = new Set<string>();
  a.claimValidationRules.forEach((r, i) => {
    const p = `${rulesPath}[${i}]`;
    if (r.claim && r.expression) errs.push(field.invalid(p, r.claim, "claim and expression can't both be set"));
    else if (!r.claim && !r.expression) errs.push(field.required(p, 'claim or expression is required'));
    else if (r.claim) {
      if (r.message) errs.push(field.invalid(`${p}.message`, r.message, 'may not be specified when claim is set'));
      if (seenClaims.has(r.claim)) errs.push(field.duplicate(`${p}.claim`, r.claim));
      seenClaims.add(r.claim);
    } else {
      const expression = r.expression!;
      if (r.requiredValue) errs.push(field.invalid(`${p}.requiredValue`, r.requiredValue, 'may not be specified when expression is set'));
      if (seenExpr.has(expression)) {
        errs.push(field.duplicate(`${p}.expression`, expression));
        return;
      }
      seenExpr.add(expression);
      const program = tryCompile(`${p}.expression`, expression, errs, () => compileClaimsExpression(expression, 'bool'));
      if (program) {
        mappers.claimRules.push({ expression, message: r.message, program });
        usesEmailVerified ||= usesEmailVerifiedClaim(expression);
      }
    }
  });

  const cmPath = join(path, 'claimMappings');
  const cm = a.claimMappings;
  mappers.username = validatePrefixed(cm.username, join(cmPath, 'username'), true, errs);
  if (mappers.username) {
    usesEmail ||= usesEmailClaim(cm.username.expression!);
    usesEmailVerified ||= usesEmailVerifiedClaim(cm.username.expression!);
  }
  mappers.groups = validatePrefixed(cm.groups, join(cmPath, 'groups'), false, errs);
  if (cm.uid.claim && cm.uid.expression) errs.push(field.invalid(join(cmPath, 'uid'), '', "claim and expression can't both be set"));
  else if (cm.uid.expression) {
    const e = cm.uid.expression;
    mappers.uid = tryCompile(join(cmPath, 'uid.expression'), e, errs, () => compileClaimsExpression(e));
  }
  const seenKeys = new Set<string>();
  cm.extra.forEach((m, i) => {
    const p = `${cmPath}.extra[${i}]`;
    errs.push(...domainPrefixedPath(`${p}.key`, m.key));
    if (m.key !== m.key.toLowerCase()) errs.push(field.invalid(`${p}.key`, m.key, 'must be lowercase'));
    if (isKubernetesDomain(m.key)) errs.push(field.invalid(`${p}.key`, m.key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (seenKeys.has(m.key)) {
      errs.push(field.duplicate(`${p}.key`, m.key));
      return;
    }
    seenKeys.add(m.key);
    if (!m.valueExpression) {
      errs.push(field.required(`${p}.valueExpression`));
      return;
    }
    const program = tryCompile(`${p}.valueExpression`, m.valueExpression, errs, () => compileClaimsExpression(m.valueExpression));
    if (program) {
      mappers.extra.push({ key: m.key, program });
      usesEmailVerified ||= usesEmailVerifiedClaim(m.valueExpression);
    }
  });
  if (usesEmail && !usesEmailVerified) {
    errs.push(field.invalid(join(cmPath, 'username.expression'), cm.username.expression ?? '',
      'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression'));
  }

  const uvrPath = join(path, 'userValidationRules');
  const seenUser = new Set<string>();
  a.userValidationRules.forEach((r, i) => {
    const p = `${uvrPath}[${i}].expression`;
    if (!r.expression) {
      errs.push(field.required(p));
      return;
    }
    if (seenUser.has(r.expression)) {
      errs.push(field.duplicate(p, r.expression));
      return;
    }
    seenUser.add(r.expression);
    const program = tryCompile(p, r.expression, errs, () => compileUserExpression(r.expression));
    if (program) mappers.userRules.push({ expression: r.expression, message: r.message, program });
  });
  return { errors: errs, mappers };
}

export interface ConfigValidationOptions {
  /** Service account issuers: no JWT authenticator may claim them. */
  readonly disallowedIssuers: readonly string[];
  /** AnonymousAuthConfigurableEndpoints (beta, on by default in v1.33). */
  readonly anonymousConfigurable?: boolean;
}

/** The whole document (kube's ValidateAuthenticationConfiguration). */
export function validateAuthenticationConfiguration(c: AuthenticationConfiguration, o: ConfigValidationOptions): { errors: FieldError[]; mappers: CelMappers[] } {
  if (c.jwt.length > MAX_JWT_AUTHENTICATORS) {
    return { errors: [new FieldError('FieldValueTooMany', 'jwt', `${c.jwt.length}: must have at most ${MAX_JWT_AUTHENTICATORS} items`)], mappers: [] };
  }
  const errs: FieldError[] = [];
  const mappers: CelMappers[] = [];
  const disallowed = new Set(o.disallowedIssuers);
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  c.jwt.forEach((a, i) => {
    const p = `jwt[${i}]`;
    const r = validateJwtAuthenticator(a, p, disallowed);
    errs.push(...r.errors);
    mappers.push(r.mappers);
    if (seenIssuers.has(a.issuer.url)) errs.push(field.duplicate(`${p}.issuer.url`, a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL) {
      if (seenDiscovery.has(a.issuer.discoveryURL)) errs.push(field.duplicate(`${p}.issuer.discoveryURL`, a.issuer.discoveryURL));
      seenDiscovery.add(a.issuer.discoveryURL);
    }
  });
  if (c.anonymous) {
    if (o.anonymousConfigurable === false) {
      errs.push(field.forbidden('anonymous', 'anonymous is not supported when AnonymousAuthConfigurableEndpoints feature gate is disabled'));
    }
    if (!c.anonymous.enabled && c.anonymous.conditions.length > 0) {
      errs.push(field.invalid('anonymous.conditions', c.anonymous.conditions, 'enabled should be set to true when conditions are defined'));
    }
  }
  return { errors: errs, mappers };
}
