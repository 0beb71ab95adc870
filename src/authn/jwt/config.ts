/**
 * AuthenticationConfiguration (`apiserver.config.k8s.io/v1`, `v1beta1`, `v1alpha1`): the document
 * `--authentication-config` names, decoded strictly as kube-apiserver does (YAML or JSON, unknown fields and
 * wrongly typed values are errors), and the single JWT authenticator the legacy `--oidc-*` flags stand for.
 *
 * Invariant: a decoded configuration only holds the declared fields with their declared JS types; semantic
 * rules live in validate.ts.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { OidcOptions } from '../options.ts';

export const CONFIG_GROUP = 'apiserver.config.k8s.io';
export const CONFIG_KIND = 'AuthenticationConfiguration';
const VERSIONS = ['v1', 'v1beta1', 'v1alpha1'];

export interface PrefixedClaimOrExpression {
  claim?: string;
  /** Required with `claim` (may be empty); undefined = not given. */
  prefix?: string;
  expression?: string;
}

export interface ClaimOrExpression {
  claim?: string;
  expression?: string;
}

export interface ExtraMapping {
  key: string;
  valueExpression: string;
}

export interface ClaimValidationRule {
  claim?: string;
  requiredValue?: string;
  expression?: string;
  message?: string;
}

export interface UserValidationRule {
  expression: string;
  message?: string;
}

export interface Issuer {
  url: string;
  discoveryURL?: string;
  /** PEM bundle trusted for discovery and JWKS connections; default the host's roots. */
  certificateAuthority?: string;
  audiences: string[];
  audienceMatchPolicy?: string;
}

export interface JwtAuthenticatorConfig {
  issuer: Issuer;
  claimValidationRules: ClaimValidationRule[];
  claimMappings: {
    username: PrefixedClaimOrExpression;
    groups: PrefixedClaimOrExpression;
    uid: ClaimOrExpression;
    extra: ExtraMapping[];
  };
  userValidationRules: UserValidationRule[];
}

export interface AnonymousConfig {
  enabled: boolean;
  conditions: { path: string }[];
}

export interface AuthenticationConfiguration {
  jwt: JwtAuthenticatorConfig[];
  /** Present only when the document has an `anonymous` block. */
  anonymous?: AnonymousConfig;
}

export class ConfigDecodeError extends Error {
  override name = 'ConfigDecodeError';
}

type Shape = 'string' | 'bool' | { list: Shape } | { object: Record<string, Shape>; goName: string };

const prefixed = (goName: string): Shape => ({ object: { claim: 'string', prefix: 'string', expression: 'string' }, goName });
const SHAPE: Shape = {
  goName: 'AuthenticationConfiguration',
  object: {
    apiVersion: 'string',
    kind: 'string',
    jwt: {
      list: {
        goName: 'JWTAuthenticator',
        object: {
          issuer: {
            goName: 'Issuer',
            object: {
              url: 'string', discoveryURL: 'string', certificateAuthority: 'string', audiences: { list: 'string' },
              audienceMatchPolicy: 'string',
            },
          },
          claimValidationRules: {
            list: { goName: 'ClaimValidationRule', object: { claim: 'string', requiredValue: 'string', expression: 'string', message: 'string' } },
          },
          claimMappings: {
            goName: 'ClaimMappings',
            object: {
              username: prefixed('PrefixedClaimOrExpression'),
              groups: prefixed('PrefixedClaimOrExpression'),
              uid: { goName: 'ClaimOrExpression', object: { claim: 'string', expression: 'string' } },
              extra: { list: { goName: 'ExtraMapping', object: { key: 'string', valueExpression: 'string' } } },
            },
          },
          userValidationRules: { list: { goName: 'UserValidationRule', object: { expression: 'string', message: 'string' } } },
        },
      },
    },
    anonymous: {
      goName: 'AnonymousAuthConfig',
      object: { enabled: 'bool', conditions: { list: { goName: 'AnonymousAuthCondition', object: { path: 'string' } } } },
    },
  },
};

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Walks `v` against `shape`, collecting unknown fields (strict decoding) and type mismatches (json.Unmarshal). */
function check(v: unknown, shape: Shape, path: string, parentGo: string, unknown: string[], typeErrs: string[]): void {
  if (v === null || v === undefined) return; // JSON null leaves a Go field at its zero value
  const mismatch = (goType: string): void => {
    typeErrs.push(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${parentGo}.${path} of type ${goType}`);
  };
  if (shape === 'string') {
    if (typeof v !== 'string') mismatch('string');
    return;
  }
  if (shape === 'bool') {
    if (typeof v !== 'boolean') mismatch('bool');
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(v)) return mismatch(`[]${typeof shape.list === 'string' ? shape.list : 'list' in shape.list ? '[]' : `apiserver.${shape.list.goName}`}`);
    v.forEach((item, i) => check(item, shape.list, `${path}[${i}]`, parentGo, unknown, typeErrs));
    return;
  }
  if (typeof v !== 'object' || Array.isArray(v)) return mismatch(`apiserver.${shape.goName}`);
  for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
    const sub = shape.object[k];
    const childPath = path ? `${path}.${k}` : k;
    if (!sub) unknown.push(`unknown field "${childPath}"`);
    else check(child, sub, childPath, path ? parentGo : shape.goName, unknown, typeErrs);
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : {});

function prefixedOf(v: unknown): PrefixedClaimOrExpression {
  const o = obj(v);
  const out: PrefixedClaimOrExpression = {};
  if (str(o.claim)) out.claim = str(o.claim);
  // `prefix: ""` is meaningful (no prefixing), so it survives while an absent prefix stays undefined.
  if (typeof o.prefix === 'string') out.prefix = o.prefix;
  if (str(o.expression)) out.expression = str(o.expression);
  return out;
}

/** Parses and strictly decodes a configuration document (kube's loadAuthenticationConfigFromData). */
export function decodeAuthenticationConfiguration(text: string): AuthenticationConfiguration {
  if (text.length === 0) throw new ConfigDecodeError('empty config data');
  let doc: unknown;
  try {
    doc = parseYaml(text, { version: '1.1', uniqueKeys: true });
  } catch (e) {
    throw new ConfigDecodeError(`error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigDecodeError(`couldn't get version/kind; json parse error: cannot unmarshal ${jsonType(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const d = doc as Record<string, unknown>;
  const kind = str(d.kind) ?? '';
  const apiVersion = str(d.apiVersion) ?? '';
  if (!kind) throw new ConfigDecodeError(`Object 'Kind' is missing in '${JSON.stringify(doc)}'`);
  if (!apiVersion) throw new ConfigDecodeError(`Object 'apiVersion' is missing in '${JSON.stringify(doc)}'`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) as [string, string] : ['', apiVersion];
  if (group !== CONFIG_GROUP || !VERSIONS.includes(version) || kind !== CONFIG_KIND) {
    throw new ConfigDecodeError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:100"`);
  }
  const unknown: string[] = [];
  const typeErrs: string[] = [];
  check(doc, SHAPE, '', 'AuthenticationConfiguration', unknown, typeErrs);
  if (typeErrs.length) throw new ConfigDecodeError(typeErrs[0]!);
  if (unknown.length) throw new ConfigDecodeError(`strict decoding error: ${unknown.join(', ')}`);

  const jwt = arr(d.jwt).map((raw): JwtAuthenticatorConfig => {
    const j = obj(raw);
    const iss = obj(j.issuer);
    const cm = obj(j.claimMappings);
    const uid = obj(cm.uid);
    return {
      issuer: {
        url: str(iss.url) ?? '',
        discoveryURL: str(iss.discoveryURL) || undefined,
        certificateAuthority: str(iss.certificateAuthority) || undefined,
        audiences: arr(iss.audiences).map((a) => str(a) ?? ''),
        audienceMatchPolicy: str(iss.audienceMatchPolicy) || undefined,
      },
      claimValidationRules: arr(j.claimValidationRules).map((r) => {
        const o = obj(r);
        return { claim: str(o.claim) || undefined, requiredValue: str(o.requiredValue) || undefined, expression: str(o.expression) || undefined, message: str(o.message) || undefined };
      }),
      claimMappings: {
        username: prefixedOf(cm.username),
        groups: prefixedOf(cm.groups),
        uid: { claim: str(uid.claim) || undefined, expression: str(uid.expression) || undefined },
        extra: arr(cm.extra).map((e) => ({ key: str(obj(e).key) ?? '', valueExpression: str(obj(e).valueExpression) ?? '' })),
      },
      userValidationRules: arr(j.userValidationRules).map((r) => ({ expression: str(obj(r).expression) ?? '', message: str(obj(r).message) || undefined })),
    };
  });
  const out: AuthenticationConfiguration = { jwt };
  if (d.anonymous !== undefined && d.anonymous !== null) {
    const a = obj(d.anonymous);
    out.anonymous = { enabled: a.enabled === true, conditions: arr(a.conditions).map((c) => ({ path: str(obj(c).path) ?? '' })) };
  }
  return out;
}

/** Reads and decodes the file; the text is returned too so reloads can tell whether anything changed. */
export async function loadAuthenticationConfiguration(file: string): Promise<{ config: AuthenticationConfiguration; text: string }> {
  const text = await readFile(file, 'utf8');
  return { config: decodeAuthenticationConfiguration(text), text };
}

/**
 * The JWT authenticator the `--oidc-*` flags describe (kube's ToAuthenticationConfig): audience = client id,
 * username claim with the legacy prefix rule (`<issuer>#` unless the claim is `email`; `-` = no prefix),
 * groups claim with its prefix, required claims as claim rules. `caPem` is the `--oidc-ca-file` content.
 */
export function oidcFlagsToJwtAuthenticator(o: OidcOptions, caPem?: string): JwtAuthenticatorConfig {
  const usernameClaim = o.usernameClaim || 'sub';
  let usernamePrefix = o.usernamePrefix ?? '';
  if (usernamePrefix === '' && usernameClaim !== 'email') usernamePrefix = `${o.issuerUrl}#`;
  if (o.usernamePrefix === '-') usernamePrefix = '';
  return {
    issuer: { url: o.issuerUrl, audiences: [o.clientId], certificateAuthority: caPem },
    claimValidationRules: Object.entries(o.requiredClaims ?? {}).map(([claim, requiredValue]) => ({ claim, requiredValue })),
    claimMappings: {
      username: { claim: usernameClaim, prefix: usernamePrefix },
      groups: o.groupsClaim ? { claim: o.groupsClaim, prefix: o.groupsPrefix ?? '' } : {},
      uid: {},
      extra: [],
    },
    userValidationRules: [],
  };
}
