/**
 * kube's CEL libraries for v1.33's base environment (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go):
 * ext.Strings v2, ext.Sets, URLs, Regex, Lists, Quantity, IP, CIDR, Format, Semver v1, two-variable
 * comprehensions; for the admission profile also kube's authz library (lib/authz.ts).
 */
import type { CelProfile } from '../contract.ts';
import type { CelJsEnv } from './register.ts';
import { registerStrings } from './strings.ts';
import { registerRegex } from './regex.ts';
import { registerLists } from './lists.ts';
import { registerNet } from './net.ts';
import { registerQuantity } from './quantity.ts';
import { registerURLs } from './urls.ts';
import { registerFormat } from './format.ts';
import { registerSemver } from './semver.ts';
import { registerTwoVarComprehensions } from './comprehensions.ts';
import { registerConversions } from './conversions.ts';
import { registerTimestamps } from './timestamps.ts';
import { registerAuthz, registerJsonPatch } from './authz.ts';

/** Register every library on a fresh base environment. */
export function registerLibraries(env: CelJsEnv, profile: CelProfile): void {
  registerStrings(env);
  registerRegex(env);
  registerLists(env);
  registerURLs(env);
  registerQuantity(env);
  registerNet(env);
  registerFormat(env);
  registerSemver(env);
  registerTwoVarComprehensions(env);
  registerConversions(env);
  registerTimestamps(env);
  // The authorizer types only where an `authorizer` variable can exist (admission policies and match conditions).
  if (profile === 'admission') {
    registerAuthz(env);
    registerJsonPatch(env);
  }
}
