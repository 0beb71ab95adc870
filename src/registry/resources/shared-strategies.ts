/**
 * Strategies shared by many kinds (kube's per-kind strategies differ mostly in these switches): status
 * sub-resource, generation tracking, create-on-update.
 */
import { statusStrategy } from './strategy-kit.ts';

export const plain = statusStrategy({});
export const plainCOU = statusStrategy({ allowCreateOnUpdate: true });
export const withStatus = statusStrategy({ status: true });
export const withStatusGen = statusStrategy({ status: true, generation: true });
export const withStatusGenCOU = statusStrategy({ status: true, generation: true, allowCreateOnUpdate: true });
export const genCOU = statusStrategy({ generation: true, allowCreateOnUpdate: true });

/** RBAC bindings: create-on-update, and SetDefaults_Subject (User and Group subjects belong to the RBAC group). */
export const rbacBinding = statusStrategy({ allowCreateOnUpdate: true }, {
  defaults(o) {
    for (const s of Array.isArray(o['subjects']) ? (o['subjects'] as unknown[]) : []) {
      if (!s || typeof s !== 'object') continue;
      const subj = s as Record<string, unknown>;
      if ((subj['kind'] === 'User' || subj['kind'] === 'Group') && subj['apiGroup'] === undefined) subj['apiGroup'] = 'rbac.authorization.k8s.io';
    }
  },
});
