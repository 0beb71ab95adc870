/** authorization.k8s.io: access review kinds answered by handlers (create only, nothing stored). */
import type { GroupSpec } from '../../../api/resources/define.ts';

export const authorization: GroupSpec = {
  group: 'authorization.k8s.io',
  versions: [{ version: 'v1', resources: [
    { resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, virtual: true },
    { resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, virtual: true },
    { resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, virtual: true },
    { resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, virtual: true },
  ] }],
};
