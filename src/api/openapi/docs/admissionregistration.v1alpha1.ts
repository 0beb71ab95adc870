import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, list } from './shared/common.ts';
import * as a from './shared/admissionregistration.ts';

const CEL_CONTEXT = 'object, oldObject, request, params, namespaceObject, variables and authorizer';

const docs = {
  ...a.VALIDATING_POLICY,
  ApplyConfiguration: {
    $: 'A mutation written as a CEL expression that builds a partial object, merged into the request\'s object the way server-side apply merges.',
    expression: `CEL expression returning an Object{...} value with only the fields to set, with ${CEL_CONTEXT} in scope; it may not change atomic lists, maps or structs. Required.`,
  },
  JSONPatch: {
    $: 'A mutation written as a CEL expression that builds JSON Patch operations (RFC 6902).',
    expression: `CEL expression returning a list of JSONPatch{op, path, from, value} values applied in order, with ${CEL_CONTEXT} in scope; jsonpatch.escapeKey escapes path keys. Required.`,
  },
  MutatingAdmissionPolicy: {
    $: 'Changes requests with CEL expressions inside the API server, without a webhook; it acts once a binding selects it.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'What the policy matches and which mutations it applies.',
  },
  MutatingAdmissionPolicyBinding: {
    $: 'Puts a MutatingAdmissionPolicy into effect, optionally with parameters and narrower matching.',
    metadata: CLUSTER_OBJECT_METADATA,
    spec: 'The bound policy, its parameters and its scope.',
  },
  MutatingAdmissionPolicyBindingList: list('MutatingAdmissionPolicyBinding'),
  MutatingAdmissionPolicyBindingSpec: {
    $: 'The desired behaviour of a MutatingAdmissionPolicyBinding.',
    policyName: 'Name of the MutatingAdmissionPolicy bound; if it does not exist the binding has no effect. Required.',
    paramRef: 'Which parameter objects the policy is evaluated with, once per object; needed when the policy sets paramKind.',
    matchResources: 'Further limits which requests the binding applies to, within the policy\'s matchConstraints; DELETE cannot be matched.',
  },
  MutatingAdmissionPolicyList: list('MutatingAdmissionPolicy', 'MutatingAdmissionPolicies'),
  MutatingAdmissionPolicySpec: {
    $: 'The desired behaviour of a MutatingAdmissionPolicy.',
    paramKind: 'Kind of the parameter objects the policy reads as params; unset means the policy takes no parameters.',
    matchConstraints: 'Requests the policy can apply to; CREATE, UPDATE and CONNECT can be matched, DELETE cannot. Required.',
    variables: 'Named CEL expressions usable as variables.<name> in the mutations; each may use those defined before it.',
    mutations: 'The mutations, applied in order for each binding; at least one is required.',
    failurePolicy: 'Ignore (admit the request unchanged) or Fail (reject it) when the policy cannot be evaluated or applied. Defaults to Fail.',
    matchConditions: 'CEL filters applied after matchConstraints; the policy runs only if all are true. At most 64.',
    reinvocationPolicy: 'Never (apply once per binding) or IfNeeded (apply again if later admission steps changed the object). Required.',
  },
  Mutation: {
    $: 'One change to the object under admission, as an apply configuration or a JSON Patch built by CEL.',
    patchType: 'ApplyConfiguration or JSONPatch: which of the two fields below holds the mutation. Required.',
    applyConfiguration: 'The mutation as a partial object merged into the request\'s object; set when patchType is ApplyConfiguration.',
    jsonPatch: 'The mutation as JSON Patch operations; set when patchType is JSONPatch.',
  },
};

defineDocs('admissionregistration.v1alpha1', docs);
export default docs;
