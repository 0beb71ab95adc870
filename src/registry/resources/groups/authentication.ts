/** authentication.k8s.io: review kinds answered by handlers (create only, nothing stored). */
import type { GroupSpec } from '../../../api/resources/define.ts';

export const authentication: GroupSpec = {
  group: 'authentication.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, virtual: true, fields: ['status'] },
    { resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, virtual: true },
  ] }],
};
