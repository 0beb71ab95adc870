/** Descriptions for authorization.k8s.io, written for v1 and reused by v1beta1 (see ../define.ts). */

const REVIEW_METADATA = 'Standard object metadata; ignored, since a review is answered at once and never stored.';

export const ExtraValue = {
  $: 'A list of strings: the values of one extra attribute of the user being checked.',
  items: 'The values.',
};

export const LocalSubjectAccessReview = {
  $: 'Asks whether a user or group may perform an action within one namespace; like SubjectAccessReview but created in that namespace, so namespace admins may use it.',
  metadata: 'Standard object metadata; its namespace must equal spec.resourceAttributes.namespace.',
  spec: 'The user and action to check; nonResourceAttributes are not allowed.',
  status: 'The authorizer\'s answer.',
};

export const NonResourceAttributes = {
  $: 'A request to a URL path that is not an API resource, such as /healthz.',
  path: 'The path requested, such as /healthz or /metrics.',
  verb: 'Lowercase HTTP-style verb, such as get or post.',
};

export const NonResourceRule = {
  $: 'A permission over non-resource URLs.',
  verbs: 'Lowercase verbs allowed, such as get; * means all.',
  nonResourceURLs: 'URL paths allowed; a trailing * matches any suffix, such as /metrics*.',
};

export const ResourceAttributes = {
  $: 'A request on an API resource, as an authorizer sees it.',
  namespace: 'Namespace of the action: empty for cluster-scoped resources, and for namespaced ones it means all namespaces for list, watch and the like.',
  verb: 'Kubernetes verb: get, list, watch, create, update, patch, delete, deletecollection, or a special one such as use, bind, escalate or impersonate; * for all.',
  group: 'API group, such as apps; the empty string is the core group and * any group.',
  version: 'API version, such as v1; * stands for any version.',
  resource: 'Plural resource name, such as pods; * for all.',
  subresource: 'Subresource, such as log or scale; empty for the resource itself.',
  name: 'Name of the object acted on; empty means any or all, as for create and list.',
  fieldSelector: 'The field selector of a list or watch, for authorizers that decide per selector; passed on as written.',
  labelSelector: 'The label selector of a list or watch, for authorizers that decide per selector; passed on as written.',
};

export const ResourceRule = {
  $: 'A permission over API resources.',
  verbs: 'Verbs allowed, such as get or list; * means all.',
  apiGroups: 'API groups the rule covers; * means all.',
  resources: 'Resources the rule covers; * means all, and */sub any resource\'s subresource.',
  resourceNames: 'Names of the objects covered; empty means all of them.',
};

export const SelfSubjectAccessReview = {
  $: 'Asks whether the caller may perform an action; anyone may create one, since it only reveals the caller\'s own permissions.',
  metadata: REVIEW_METADATA,
  spec: 'The action to check; the user is the caller.',
  status: 'The authorizer\'s answer.',
};

export const SelfSubjectAccessReviewSpec = {
  $: 'The action checked for the caller; exactly one of the two attribute sets is given.',
  resourceAttributes: 'The action, when it is on an API resource.',
  nonResourceAttributes: 'The action, when it is on a non-resource URL.',
};

export const SelfSubjectRulesReview = {
  $: 'Lists what the caller may do within a namespace, for UIs and kubectl auth can-i --list; the answer may be incomplete and is no basis for authorization decisions.',
  metadata: REVIEW_METADATA,
  spec: 'The namespace to list permissions in.',
  status: 'The permissions found.',
};

export const SelfSubjectRulesReviewSpec = {
  $: 'What a SelfSubjectRulesReview asks about.',
  namespace: 'Namespace whose permissions are listed. Required.',
};

export const SubjectAccessReview = {
  $: 'Asks whether a given user or group may perform an action, anywhere in the cluster; used by webhooks and extension API servers to delegate authorization.',
  metadata: REVIEW_METADATA,
  spec: 'The user and the action to check.',
  status: 'The authorizer\'s answer.',
};

export const SubjectAccessReviewSpec = {
  $: 'Who wants to do what; exactly one of resourceAttributes and nonResourceAttributes is given.',
  resourceAttributes: 'The action, when it is on an API resource.',
  nonResourceAttributes: 'The action, when it is on a non-resource URL.',
  user: 'User name to check; at least one of user and groups is needed.',
  groups: 'Groups to check the user as a member of.',
  extra: 'Extra attributes of the user, as an authenticator would give them; each a list of strings.',
  uid: 'The user\'s UID, as an authenticator would report it.',
};

export const SubjectAccessReviewStatus = {
  $: 'The answer to an access review.',
  allowed: 'Whether the action is allowed.',
  denied: 'Whether the action is explicitly denied, so that no later authorizer is asked; false with allowed false means no opinion. Never true with allowed.',
  reason: 'Why the action was allowed or denied, for humans.',
  evaluationError: 'An error met while checking, such as a policy that could not be read; the answer may still be right.',
};

export const SubjectRulesReviewStatus = {
  $: 'The permissions a subject has in a namespace, as far as the authorizers can list them.',
  resourceRules: 'The permissions over API resources; the order is meaningless.',
  nonResourceRules: 'The permissions over non-resource URLs; the order is meaningless.',
  incomplete: 'True when some authorizer cannot list its rules, as a webhook, so that more may be allowed than shown.',
  evaluationError: 'Errors met while listing the rules; may come with incomplete true.',
};
