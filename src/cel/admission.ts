/**
 * The CEL declarations admission expressions are compiled against (kube's plugin/cel compile.go), shared by the
 * validation of webhook configurations and admission policies (src/api/validation) and by the admission plugins
 * that evaluate them (src/admission):
 * - `object`, `oldObject`: dyn (null when the request has none);
 * - `request`: kube's AdmissionRequest type (no uid, no objects: those are the root variables);
 * - `namespaceObject`: the Namespace type (null for cluster-scoped requests; webhooks never set it);
 * - `params` (dyn) only when asked for (policies with a paramKind).
 */
import type { CelObjectType, CelType } from './contract.ts';

const strings: CelType = { list: 'string' };

const GVK_TYPE: CelObjectType = { object: 'kubernetes.GroupVersionKind', fields: { group: 'string', version: 'string', kind: 'string' } };
const GVR_TYPE: CelObjectType = { object: 'kubernetes.GroupVersionResource', fields: { group: 'string', version: 'string', resource: 'string' } };
const USER_INFO_TYPE: CelObjectType = {
  object: 'kubernetes.UserInfo',
  fields: { username: 'string', uid: 'string', groups: strings, extra: { map: strings } },
};

/** kube's BuildRequestType. */
export const ADMISSION_REQUEST_TYPE: CelObjectType = {
  object: 'kubernetes.AdmissionRequest',
  fields: {
    kind: GVK_TYPE, resource: GVR_TYPE, subResource: 'string', requestKind: GVK_TYPE, requestResource: GVR_TYPE,
    requestSubResource: 'string', name: 'string', namespace: 'string', operation: 'string', userInfo: USER_INFO_TYPE,
    dryRun: 'bool', options: 'dyn',
  },
  required: ['kind', 'resource', 'requestKind', 'requestResource', 'name', 'operation', 'userInfo'],
};

/** kube's BuildNamespaceType. */
export const NAMESPACE_TYPE: CelObjectType = {
  object: 'kubernetes.Namespace',
  fields: {
    metadata: {
      object: 'kubernetes.NamespaceMetadata',
      fields: {
        name: 'string', generateName: 'string', namespace: 'string', labels: { map: 'string' }, annotations: { map: 'string' },
        UID: 'string', creationTimestamp: 'timestamp', deletionGracePeriodSeconds: 'int', deletionTimestamp: 'timestamp',
        generation: 'int', resourceVersion: 'string', finalizers: strings,
      },
    },
    spec: { object: 'kubernetes.NamespaceSpec', fields: { finalizers: strings } },
    status: {
      object: 'kubernetes.NamespaceStatus',
      fields: {
        conditions: {
          list: {
            object: 'kubernetes.NamespaceCondition',
            fields: { status: 'string', type: 'string', lastTransitionTime: 'timestamp', message: 'string', reason: 'string' },
          },
        },
        phase: 'string',
      },
    },
  },
};

/** The variables of an admission expression (kube's OptionalVariableDeclarations: params only with a paramKind). */
export function admissionVariables(o: { params?: boolean } = {}): Record<string, CelType> {
  const vars: Record<string, CelType> = { object: 'dyn', oldObject: 'dyn', namespaceObject: NAMESPACE_TYPE, request: ADMISSION_REQUEST_TYPE };
  if (o.params) vars['params'] = 'dyn';
  return vars;
}

/** kube's RuntimeCELCostBudgetMatchConditions: the runtime cost all match conditions of one webhook may spend. */
export const MATCH_CONDITIONS_COST_BUDGET = 2_500_000;
