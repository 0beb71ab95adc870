/**
 * Descriptions for admissionregistration.k8s.io, written once for v1 and reused by v1beta1 and v1alpha1 where the
 * fields mean the same (see ../define.ts).
 */
import { CLUSTER_OBJECT_METADATA, list, OBSERVED_GENERATION } from './common.ts';

const CEL_INPUTS = 'object, oldObject, request, params, namespaceObject, variables and authorizer';

export const AuditAnnotation = {
  $: 'An audit annotation a policy adds to the audit event of each request it evaluates.',
  key: 'Annotation key, unique within the policy; a qualified name of at most 63 characters, recorded as policy-name/key. Required.',
  valueExpression: `CEL expression, with ${CEL_INPUTS} in scope, whose string result becomes the annotation value; a null or empty result leaves the annotation out. Required.`,
};

export const ExpressionWarning = {
  $: 'A type-checking warning about one expression of a policy.',
  fieldRef: 'Path of the field holding the expression, such as spec.validations[0].expression.',
  warning: 'What the type checker found wrong, in human-readable form.',
};

export const MatchCondition = {
  $: 'A CEL filter that a request must pass, after the rules matched, for the webhook or policy to be called.',
  name: 'Identifier of the condition, unique in its list: a qualified name (optional DNS-subdomain prefix and slash, then at most 63 alphanumerics, dashes, underscores or dots). Required.',
  expression: 'CEL expression returning a bool, with object, oldObject, request and authorizer in scope (and params in a policy); false skips the call, an error applies the failure policy. Required.',
};

export const MatchResources = {
  $: 'Which requests an admission policy or binding applies to: resource rules combined with namespace and object label selectors.',
  namespaceSelector: 'Label selector on the namespace of the object (or on a Namespace being admitted); cluster-scoped objects other than namespaces always pass. Defaults to the empty selector, which matches all.',
  objectSelector: 'Label selector on the object itself, tested on both its old and new versions; either one matching is enough. Defaults to the empty selector, which matches all.',
  resourceRules: 'The operations and resources matched; a request must match one of them. Required on a policy\'s matchConstraints.',
  excludeResourceRules: 'Operations and resources never matched, even when resourceRules match; exclusion wins.',
  matchPolicy: 'Exact (only the listed group, version and resource) or Equivalent (also the same resource served under another group or version, with the request converted). Defaults to Equivalent.',
};

export const NamedRuleWithOperations = {
  $: 'A rule on operations, groups, versions and resources, optionally narrowed to objects of given names.',
  resourceNames: 'Names of objects the rule is limited to; empty means any name.',
};

export const Rule = {
  $: 'A match on API groups, versions, resources and scope.',
  apiGroups: 'API groups matched; the empty string is the core group and * is every group (then it must be the only item). Required.',
  apiVersions: 'API versions matched; * is every version (then it must be the only item). Required.',
  resources: 'Resources matched: a plural name, name/subresource, * for all resources (not subresources), */subresource or */* for everything. Required.',
  scope: 'Cluster (cluster-scoped resources, Namespace objects included), Namespaced (namespaced resources) or * (both). Defaults to *.',
};

export const RuleWithOperations = {
  $: 'A rule on groups, versions and resources together with the operations it covers.',
  operations: 'Operations matched, out of CREATE, UPDATE, DELETE and CONNECT; * matches them all and must then stand alone. Required.',
};

export const ServiceReference = {
  $: 'An in-cluster Service that serves a webhook over HTTPS.',
  namespace: 'Namespace the Service lives in. Required.',
  name: 'Which Service in that namespace, by name. Required.',
  path: 'URL path sent with each request to the Service, if any.',
  port: 'Service port to call, between 1 and 65535. Defaults to 443.',
};

export const TypeChecking = {
  $: 'Results of type-checking a policy\'s expressions against the types it matches.',
  expressionWarnings: 'A warning for each expression that failed type checking.',
};

export const ParamKind = {
  $: 'The kind of object that parameterizes a policy.',
  apiVersion: 'Group and version of the parameter kind, such as example.com/v1 or v1 for the core group.',
  kind: 'Kind of the parameter objects, such as ConfigMap.',
};

export const ParamRef = {
  $: 'Which objects of a policy\'s parameter kind a binding uses: one by name, or every one matching a selector, with the policy evaluated once per object.',
  name: 'Name of the single parameter object to use; exclusive with selector.',
  namespace: 'Namespace of the parameter objects when their kind is namespaced; when unset, the namespace of the request\'s object is used. Must be unset for cluster-scoped kinds.',
  selector: 'Label selector choosing the parameter objects, each of which the policy is evaluated against; the empty selector picks them all. Exclusive with name.',
  parameterNotFoundAction: 'What happens when no parameter object is found: Allow (the binding passes) or Deny (the policy\'s failurePolicy applies). Required.',
};

export const Validation = {
  $: 'One CEL check that a request must pass.',
  expression: `CEL expression that must return true for the request to be admitted, with ${CEL_INPUTS} in scope. Required.`,
  message: 'Text returned when the check fails; when unset a message naming the expression is used. Required when the expression spans several lines, and must itself be one line.',
  reason: 'Status reason of the rejection: Unauthorized, Forbidden, Invalid or RequestEntityTooLarge, setting the HTTP code to 401, 403, 422 or 413. Defaults to Invalid.',
  messageExpression: 'CEL expression building the failure message as a string; when it yields a non-empty single-line string it takes precedence over message. It may not use authorizer.',
};

export const Variable = {
  $: 'A named CEL expression whose value other expressions of the policy read as variables.<name>.',
  name: 'Variable name: a CEL identifier unique within the policy.',
  expression: 'CEL expression computing the value; it may read variables declared before it, and runs lazily, at most once per request.',
};

export const ValidatingAdmissionPolicy = {
  $: 'Checks requests with CEL expressions inside the API server, without a webhook; it acts once a binding selects it.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'What the policy matches and which checks it runs.',
  status: 'Type-checking results and conditions of the policy; read-only.',
};

export const ValidatingAdmissionPolicyBinding = {
  $: 'Puts a ValidatingAdmissionPolicy into effect, optionally with parameters and narrower matching, and says what to do with its failures.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The bound policy, its parameters, its scope and its enforcement actions.',
};

export const ValidatingAdmissionPolicyBindingSpec = {
  $: 'The desired behaviour of a ValidatingAdmissionPolicyBinding.',
  policyName: 'Name of the ValidatingAdmissionPolicy bound; if it does not exist the binding has no effect. Required.',
  paramRef: 'Which parameter objects the policy is evaluated with; needed when the policy sets paramKind.',
  matchResources: 'Further limits which requests the binding applies to, within the policy\'s matchConstraints; unset applies it to all of them.',
  validationActions: 'What a failed check does: Deny rejects the request, Warn returns a warning to the client, Audit records it in the audit event. A set without both Deny and Warn. Required.',
};

export const ValidatingAdmissionPolicySpec = {
  $: 'The desired behaviour of a ValidatingAdmissionPolicy.',
  paramKind: 'Kind of the parameter objects the policy reads as params; unset means the policy takes no parameters.',
  matchConstraints: 'Requests the policy can apply to; a request must match all of them. Required, with resourceRules set.',
  validations: 'The CEL checks; every one must pass. At least one of validations and auditAnnotations is required.',
  failurePolicy: 'Ignore (admit the request) or Fail (reject it) when the policy cannot be evaluated: parse, type or runtime errors, or a missing parameter kind. Defaults to Fail.',
  auditAnnotations: 'Annotations added to the audit events of matching requests.',
  matchConditions: 'CEL filters applied after matchConstraints; the policy runs only if all are true. At most 64.',
  variables: 'Named CEL expressions that validations, audit annotations and message expressions can read as variables.<name>; match conditions cannot use them.',
};

export const ValidatingAdmissionPolicyStatus = {
  $: 'What the API server learned about a ValidatingAdmissionPolicy, such as type-checking results.',
  observedGeneration: OBSERVED_GENERATION,
  typeChecking: 'Warnings from type-checking the expressions against the matched resource types.',
  conditions: 'Conditions reported for the policy, one per type.',
};

export const ValidatingWebhook = {
  $: 'One validating admission webhook: which requests it sees and how to call it.',
  name: 'Name of the webhook, unique in its configuration; a fully qualified name such as policy.example.com is advised. Required.',
  clientConfig: 'Where the webhook is reached and how its TLS certificate is verified. Required.',
  rules: 'Operations and resources sent to the webhook; a request matching any rule is sent. The webhook configurations themselves are never sent.',
  failurePolicy: 'Ignore (admit the request) or Fail (reject it) when the webhook cannot be reached or answers with an error. Defaults to Fail.',
  matchPolicy: 'Exact (only the listed group, version and resource) or Equivalent (also the same resource under another group or version, converted to a listed one). Defaults to Equivalent.',
  namespaceSelector: 'Label selector on the namespace of the object (or a Namespace being admitted); decides whether the webhook is called. Defaults to the empty selector, which matches all.',
  objectSelector: 'Label selector on the object\'s old or new version; the webhook is called if either matches. Defaults to the empty selector, which matches all.',
  sideEffects: 'Whether the webhook changes anything outside the request: None, or NoneOnDryRun when it has side effects it skips for dry runs. Dry-run requests are rejected for any other value. Required.',
  timeoutSeconds: 'Seconds to wait for the webhook\'s answer before the failure policy applies; between 1 and 30. Defaults to 10.',
  admissionReviewVersions: 'AdmissionReview versions the webhook accepts, most preferred first; the API server sends the first it supports and fails the call if none. Required.',
  matchConditions: 'CEL filters checked after the rules and selectors; the webhook is called only if all are true. At most 64.',
};

export const MutatingWebhook = {
  ...ValidatingWebhook,
  $: 'One mutating admission webhook: which requests it sees, how to call it and whether to call it again.',
  reinvocationPolicy: 'Never (call once) or IfNeeded (call once more if a later mutating step changed the object). Defaults to Never.',
};

export const ValidatingWebhookConfiguration = {
  $: 'A set of admission webhooks called to accept or reject requests; they run after all mutation.',
  metadata: CLUSTER_OBJECT_METADATA,
  webhooks: 'The webhooks, keyed by name.',
};

export const MutatingWebhookConfiguration = {
  $: 'A set of admission webhooks called, in turn, to change or reject requests before they are validated and stored.',
  metadata: CLUSTER_OBJECT_METADATA,
  webhooks: 'The webhooks, keyed by name.',
};

export const WebhookClientConfig = {
  $: 'How the API server connects to a webhook: a URL or a Service, and the CA that signs its certificate.',
  url: 'Address of the webhook as https://host[:port]/path; no user info, query or fragment. Exactly one of url and service is set.',
  service: 'The in-cluster Service serving the webhook. Exactly one of url and service is set.',
  caBundle: 'PEM-encoded CA certificates that verify the webhook\'s serving certificate; when empty, the API server\'s system trust roots are used.',
};

export const ValidatingAdmissionPolicyList = list('ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicies');
export const ValidatingAdmissionPolicyBindingList = list('ValidatingAdmissionPolicyBinding');
export const ValidatingWebhookConfigurationList = list('ValidatingWebhookConfiguration');
export const MutatingWebhookConfigurationList = list('MutatingWebhookConfiguration');

/** The parts both versions of the ValidatingAdmissionPolicy API share. */
export const VALIDATING_POLICY = {
  AuditAnnotation, ExpressionWarning, MatchCondition, MatchResources, NamedRuleWithOperations, ParamKind, ParamRef,
  TypeChecking, Validation, Variable, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingList, ValidatingAdmissionPolicyBindingSpec, ValidatingAdmissionPolicyList,
  ValidatingAdmissionPolicySpec, ValidatingAdmissionPolicyStatus,
};
