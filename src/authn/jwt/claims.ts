/**
 * ID token claims → user, as kube's jwtAuthenticator does after verification: username, groups, uid and extra
 * from claims or CEL, `jti` as the credential id, then required claims, claim validation rules and user
 * validation rules. Every refusal is a TokenError whose message is kube's (for the log; clients see 401).
 */
import type { UserInfo } from '../../machinery/objects.ts';
import type { JwtAuthenticatorConfig } from './config.ts';
import type { CelMappers, CompiledRule } from './validate.ts';
import { evaluate } from './cel.ts';

export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

/** A token refused for a reason worth logging. */
export class TokenError extends Error {}

export const fail = (m: string): never => {
  throw new TokenError(m);
};

function stringClaim(claims: Record<string, unknown>, name: string, what: string): string {
  if (!Object.hasOwn(claims, name)) fail(`oidc: parse ${what} ${JSON.stringify(name)}: claim not present`);
  const v = claims[name];
  if (typeof v !== 'string') fail(`oidc: parse ${what} ${JSON.stringify(name)}: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type string`);
  return v as string;
}

/** kube's convertCELValueToStringList: "" and [] are absent, empty strings in lists dropped. */
function stringList(v: unknown, what: string): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v === 'string') return v ? [v] : [];
  if (Array.isArray(v)) {
    if (!v.every((x) => typeof x === 'string')) fail(`oidc: error evaluating ${what}: expression must return a string or a list of strings`);
    return (v as string[]).filter((x) => x !== '');
  }
  return fail(`oidc: error evaluating ${what}: expression must return a string or a list of strings`);
}

function runRules(rules: readonly CompiledRule[], vars: Record<string, unknown>, what: string): void {
  for (const r of rules) {
    let v: unknown;
    try {
      v = evaluate(r.program, vars);
    } catch (e) {
      fail(`oidc: error evaluating ${what}: ${(e as Error).message}`);
    }
    if (typeof v !== 'boolean') fail(`oidc: error evaluating ${what}: validation expression must return a boolean`);
    if (!v) fail(`oidc: error evaluating ${what}: validation expression '${r.expression}' failed: ${r.message ?? ''}`);
  }
}

/** Claims → user (kube's getUsername/getGroups/getUID/getExtra), then required claims and validation rules. */
export function userFromClaims(claims: Record<string, unknown>, config: JwtAuthenticatorConfig, mappers: CelMappers): UserInfo {
  const cm = config.claimMappings;
  const vars = { claims };
  let username: string;
  if (mappers.username) {
    let v: unknown;
    try {
      v = evaluate(mappers.username, vars);
    } catch (e) {
      return fail(`oidc: error evaluating username claim expression: ${(e as Error).message}`);
    }
    if (typeof v !== 'string') fail('oidc: error evaluating username claim expression: username claim expression must return a string');
    if (v === '') fail('oidc: empty username via CEL expression is not allowed');
    username = v as string;
  } else {
    const claim = cm.username.claim ?? '';
    username = stringClaim(claims, claim, 'username claims');
    if (claim === 'email' && Object.hasOwn(claims, 'email_verified')) {
      const ev = claims.email_verified;
      if (typeof ev !== 'boolean') fail("oidc: parse 'email_verified' claim: json: cannot unmarshal into Go value of type bool");
      if (!ev) fail('oidc: email not verified');
    }
    if (cm.username.prefix) username = cm.username.prefix + username;
  }

  let groups: string[] = [];
  if (cm.groups.claim) {
    if (Object.hasOwn(claims, cm.groups.claim)) {
      const v = claims[cm.groups.claim];
      const list = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((g) => typeof g === 'string') ? [...v as string[]] : undefined;
      if (!list) fail(`oidc: parse groups claim ${JSON.stringify(cm.groups.claim)}: json: cannot unmarshal into Go value of type string`);
      groups = cm.groups.prefix ? list!.map((g) => cm.groups.prefix + g) : list!;
    }
  } else if (mappers.groups) {
    let v: unknown;
    try {
      v = evaluate(mappers.groups, vars);
    } catch (e) {
      return fail(`oidc: error evaluating group claim expression: ${(e as Error).message}`);
    }
    groups = stringList(v, 'group claim expression');
  }

  let uid = '';
  if (cm.uid.claim) uid = stringClaim(claims, cm.uid.claim, 'uid claim');
  else if (mappers.uid) {
    let v: unknown;
    try {
      v = evaluate(mappers.uid, vars);
    } catch (e) {
      return fail(`oidc: error evaluating uid claim expression: ${(e as Error).message}`);
    }
    if (typeof v !== 'string') fail('oidc: error evaluating uid claim expression: uid claim expression must return a string');
    uid = v as string;
  }

  const extra: Record<string, string[]> = {};
  if (typeof claims.jti === 'string') extra[CREDENTIAL_ID_KEY] = [`JTI=${claims.jti}`];
  for (const m of mappers.extra) {
    let v: unknown;
    try {
      v = evaluate(m.program, vars);
    } catch (e) {
      return fail(`oidc: error evaluating extra claim expression: ${(e as Error).message}`);
    }
    const values = stringList(v, 'extra claim expression');
    if (values.length) extra[m.key] = values;
  }

  for (const r of config.claimValidationRules) {
    if (!r.claim) continue;
    if (!Object.hasOwn(claims, r.claim)) fail(`oidc: required claim ${r.claim} not present in ID token`);
    const v = claims[r.claim];
    if (typeof v !== 'string') fail(`oidc: parse claim ${r.claim}: json: cannot unmarshal into Go value of type string`);
    if (v !== (r.requiredValue ?? '')) fail(`oidc: required claim ${r.claim} value does not match. Got = ${String(v)}, want = ${r.requiredValue ?? ''}`);
  }
  runRules(mappers.claimRules, vars, 'claim validation expression');

  const user: UserInfo = { username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  if (mappers.userRules.length) {
    // authenticationv1.UserInfo as unstructured: empty fields are omitted, as kube's conversion does.
    const u: Record<string, unknown> = { username };
    if (uid) u.uid = uid;
    if (groups.length) u.groups = groups;
    if (user.extra) u.extra = user.extra;
    runRules(mappers.userRules, { user: u }, 'user info validation rule');
  }
  return user;
}
