/**
 * kube's CEL libraries for v1.33's base environment (staging/src/k8s.io/apiserver/pkg/cel/environment/base.go):
 * ext.Strings v2, ext.Sets, URLs, Regex, Lists, Quantity, IP, CIDR, Format, Semver v1, two-variable
 * comprehensions. The authz library is left out (no authorizer inside CEL here).
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { CelProfile } from '../contract.ts';

type CelJsEnv = InstanceType<typeof Environment>;

/** Register every library on a fresh base environment. */
export function registerLibraries(_env: CelJsEnv, _profile: CelProfile): void {
  // Libraries are added one file each (see the imports above as they land).
}
