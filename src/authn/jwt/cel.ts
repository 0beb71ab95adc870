/**
 * CEL for JWT authenticators (kube's k8s.io/apiserver/pkg/authentication/cel): claim expressions see
 * `claims` (map(string, dyn)), user validation rules see `user` (username, uid, groups, extra). Validation
 * rules must be typed bool at compile time; mappings may return anything and are checked when evaluated.
 */
import { compileCel, PER_CALL_LIMIT, type CelObjectType, type CelProgram } from '../../cel/index.ts';

const CLAIMS_VARS = { claims: { map: 'dyn' } } as const;
const USER_TYPE: CelObjectType = {
  object: 'kubernetes.UserInfo',
  fields: { username: 'string', uid: 'string', groups: { list: 'string' }, extra: { map: { list: 'string' } } },
};

/** A compile-time type problem worded as kube's ("must evaluate to bool"); carries no position. */
export class CelTypeError extends Error {
  override name = 'CelTypeError';
}

function compile(source: string, variables: Record<string, typeof CLAIMS_VARS.claims | CelObjectType>, want?: 'bool'): CelProgram {
  const program = compileCel(source, { profile: 'authentication', variables });
  if (want && program.resultType !== want) throw new CelTypeError(`must evaluate to ${want}`);
  return program;
}

/** `claims` expression; `want: 'bool'` for claimValidationRules. Throws CelCompileError or CelTypeError. */
export function compileClaimsExpression(source: string, want?: 'bool'): CelProgram {
  return compile(source, CLAIMS_VARS, want);
}

/** `user` expression for userValidationRules (always bool). */
export function compileUserExpression(source: string): CelProgram {
  return compile(source, { user: USER_TYPE }, 'bool');
}

/** Evaluates with kube's per-call cost limit; CEL errors propagate (the token is then refused). */
export function evaluate(program: CelProgram, vars: Record<string, unknown>): unknown {
  return program.evaluate(vars, { costLimit: PER_CALL_LIMIT }).value;
}

// kube inspects the AST for a select of `email` / `email_verified` on the `claims` identifier (also `claims.?x`);
// our CEL contract has no AST, so the same select shapes are found in the source text.
const select = (field: string): RegExp => new RegExp(String.raw`(?<![\w.])claims\s*\.\s*\??\s*${field}(?!\w)`);
const EMAIL = select('email');
const EMAIL_VERIFIED = select('email_verified');

export function usesEmailClaim(source: string): boolean {
  return EMAIL.test(stripStrings(source));
}

export function usesEmailVerifiedClaim(source: string): boolean {
  return EMAIL_VERIFIED.test(stripStrings(source));
}

/** String literals blanked out so `"claims.email"` inside quotes does not count as a select. */
function stripStrings(source: string): string {
  return source.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, '""');
}
