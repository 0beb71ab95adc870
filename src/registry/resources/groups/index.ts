/**
 * Every built-in group, in the order kube-apiserver lists them in /apis (its aggregator's priority order),
 * core first (served under /api).
 *
 * Adding a group: write `<group>.ts` exporting a GroupSpec (define.ts describes the format and its
 * defaults), put per-kind columns/strategies under src/registry/resources/, and list it here in kube's
 * order. Versions not enabled by default set `enabledByDefault: false` (--runtime-config turns them on).
 */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { Catalog, type CatalogOptions } from '../../../api/catalog.ts';
import { core } from './core.ts';
import { apps } from './apps.ts';
import { batch } from './batch.ts';
import { admissionregistration } from './admissionregistration.ts';
import { apiextensions } from './apiextensions.ts';
import { apiregistration } from './apiregistration.ts';
import { authentication } from './authentication.ts';
import { authorization } from './authorization.ts';
import { autoscaling } from './autoscaling.ts';
import { certificates } from './certificates.ts';
import { coordination } from './coordination.ts';
import { discovery } from './discovery.ts';
import { events } from './events.ts';
import { flowcontrol } from './flowcontrol.ts';
import { networking } from './networking.ts';
import { node } from './node.ts';
import { policy } from './policy.ts';
import { rbac } from './rbac.ts';
import { scheduling } from './scheduling.ts';
import { storage } from './storage.ts';

export const BUILTIN_GROUPS: readonly GroupSpec[] = [
  core,
  apiregistration,
  apps,
  events,
  authentication,
  authorization,
  autoscaling,
  batch,
  certificates,
  networking,
  policy,
  rbac,
  storage,
  admissionregistration,
  apiextensions,
  scheduling,
  coordination,
  node,
  discovery,
  flowcontrol,
];

/** The built-in resources of kube-apiserver v1.33 that this server serves (`groups`: a subset, for tests). */
export function builtinCatalog(opts: CatalogOptions & { groups?: readonly GroupSpec[] } = {}): Catalog {
  return Catalog.fromGroups(opts.groups ?? BUILTIN_GROUPS, opts);
}
