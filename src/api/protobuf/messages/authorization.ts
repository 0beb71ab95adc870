// Protobuf message descriptions of authorization (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('authorization.v1', {
  ExtraValue: { items: '1 []string' },
  FieldSelectorAttributes: { rawSelector: '1 string', requirements: '2 []FieldSelectorRequirement list=atomic' },
  LabelSelectorAttributes: { rawSelector: '1 string', requirements: '2 []LabelSelectorRequirement list=atomic' },
  LocalSubjectAccessReview: { metadata: '1 ObjectMeta', spec: '2 !SubjectAccessReviewSpec', status: '3 SubjectAccessReviewStatus' },
  NonResourceAttributes: { path: '1 string', verb: '2 string' },
  NonResourceRule: { verbs: '1 ![]string list=atomic', nonResourceURLs: '2 []string list=atomic' },
  ResourceAttributes: { namespace: '1 string', verb: '2 string', group: '3 string', version: '4 string', resource: '5 string', subresource: '6 string', name: '7 string', fieldSelector: '8 *FieldSelectorAttributes', labelSelector: '9 *LabelSelectorAttributes' },
  ResourceRule: { verbs: '1 ![]string list=atomic', apiGroups: '2 []string list=atomic', resources: '3 []string list=atomic', resourceNames: '4 []string list=atomic' },
  SelfSubjectAccessReview: { metadata: '1 ObjectMeta', spec: '2 !SelfSubjectAccessReviewSpec', status: '3 SubjectAccessReviewStatus' },
  SelfSubjectAccessReviewSpec: { resourceAttributes: '1 *ResourceAttributes', nonResourceAttributes: '2 *NonResourceAttributes' },
  SelfSubjectRulesReview: { metadata: '1 ObjectMeta', spec: '2 !SelfSubjectRulesReviewSpec', status: '3 SubjectRulesReviewStatus' },
  SelfSubjectRulesReviewSpec: { namespace: '1 string' },
  SubjectAccessReview: { metadata: '1 ObjectMeta', spec: '2 !SubjectAccessReviewSpec', status: '3 SubjectAccessReviewStatus' },
  SubjectAccessReviewSpec: { resourceAttributes: '1 *ResourceAttributes', nonResourceAttributes: '2 *NonResourceAttributes', user: '3 string', groups: '4 []string list=atomic', extra: '5 map<string,ExtraValue>', uid: '6 string' },
  SubjectAccessReviewStatus: { allowed: '1 !bool', denied: '4 bool', reason: '2 string', evaluationError: '3 string' },
  SubjectRulesReviewStatus: { resourceRules: '1 ![]ResourceRule list=atomic', nonResourceRules: '2 ![]NonResourceRule list=atomic', incomplete: '3 !bool', evaluationError: '4 string' },
}, {"ExtraValue": "stringlist"});

definePackage('authorization.v1beta1', {
  ExtraValue: { items: '1 []string' },
  LocalSubjectAccessReview: { metadata: '1 ObjectMeta', spec: '2 !SubjectAccessReviewSpec', status: '3 SubjectAccessReviewStatus' },
  NonResourceAttributes: { path: '1 string', verb: '2 string' },
  NonResourceRule: { verbs: '1 ![]string list=atomic', nonResourceURLs: '2 []string list=atomic' },
  ResourceAttributes: { namespace: '1 string', verb: '2 string', group: '3 string', version: '4 string', resource: '5 string', subresource: '6 string', name: '7 string', fieldSelector: '8 *authorization.v1.FieldSelectorAttributes', labelSelector: '9 *authorization.v1.LabelSelectorAttributes' },
  ResourceRule: { verbs: '1 ![]string list=atomic', apiGroups: '2 []string list=atomic', resources: '3 []string list=atomic', resourceNames: '4 []string list=atomic' },
  SelfSubjectAccessReview: { metadata: '1 ObjectMeta', spec: '2 !SelfSubjectAccessReviewSpec', status: '3 SubjectAccessReviewStatus' },
  SelfSubjectAccessReviewSpec: { resourceAttributes: '1 *ResourceAttributes', nonResourceAttributes: '2 *NonResourceAttributes' },
  SelfSubjectRulesReview: { metadata: '1 ObjectMeta', spec: '2 !SelfSubjectRulesReviewSpec', status: '3 SubjectRulesReviewStatus' },
  SelfSubjectRulesReviewSpec: { namespace: '1 string' },
  SubjectAccessReview: { metadata: '1 ObjectMeta', spec: '2 !SubjectAccessReviewSpec', status: '3 SubjectAccessReviewStatus' },
  SubjectAccessReviewSpec: { resourceAttributes: '1 *ResourceAttributes', nonResourceAttributes: '2 *NonResourceAttributes', user: '3 string', group: '4 []string list=atomic', extra: '5 map<string,ExtraValue>', uid: '6 string' },
  SubjectAccessReviewStatus: { allowed: '1 !bool', denied: '4 bool', reason: '2 string', evaluationError: '3 string' },
  SubjectRulesReviewStatus: { resourceRules: '1 ![]ResourceRule list=atomic', nonResourceRules: '2 ![]NonResourceRule list=atomic', incomplete: '3 !bool', evaluationError: '4 string' },
}, {"ExtraValue": "stringlist"});

