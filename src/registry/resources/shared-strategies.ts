/**
 * Strategies shared by many kinds (kube's per-kind strategies differ mostly in these switches): status
 * sub-resource, generation tracking, create-on-update.
 */
import { statusStrategy } from './strategy-kit.ts';

export const plain = statusStrategy({});
export const plainCOU = statusStrategy({ allowCreateOnUpdate: true });
export const withStatus = statusStrategy({ status: true });
export const withStatusGenCOU = statusStrategy({ status: true, generation: true, allowCreateOnUpdate: true });

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * RBAC bindings: create-on-update, and kube's SetDefaults_RoleBinding / SetDefaults_Subject: an empty roleRef
 * apiGroup is the RBAC group, as are empty User and Group subject apiGroups.
 */
export const rbacBinding = statusStrategy({ allowCreateOnUpdate: true }, {
  defaults(o) {
    const ref = o['roleRef'];
    if (ref && typeof ref === 'object' && !Array.isArray(ref) && !(ref as Record<string, unknown>)['apiGroup']) (ref as Record<string, unknown>)['apiGroup'] = RBAC_GROUP;
    for (const s of Array.isArray(o['subjects']) ? (o['subjects'] as unknown[]) : []) {
      if (!s || typeof s !== 'object') continue;
      const subj = s as Record<string, unknown>;
      if ((subj['kind'] === 'User' || subj['kind'] === 'Group') && !subj['apiGroup']) subj['apiGroup'] = RBAC_GROUP;
    }
  },
});
