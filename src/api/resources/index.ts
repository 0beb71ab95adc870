/**
 * Every built-in group, in the order kube-apiserver lists them in /apis (its aggregator's priority order),
 * core first (served under /api).
 */
import type { GroupSpec } from './define.ts';
import { core } from './core.ts';
import { apps } from './apps.ts';
import { batch } from './batch.ts';
import * as m from './groups-misc.ts';

export const BUILTIN_GROUPS: readonly GroupSpec[] = [
  core,
  m.apiregistration,
  apps,
  m.events,
  m.authentication,
  m.authorization,
  m.autoscaling,
  batch,
  m.certificates,
  m.networking,
  m.policy,
  m.rbac,
  m.storage,
  m.admissionregistration,
  m.apiextensions,
  m.scheduling,
  m.coordination,
  m.node,
  m.discovery,
  m.flowcontrol,
];
