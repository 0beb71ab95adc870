/**
 * Per-kind validation registry: `validateFor(group, kind)` gives the type-specific checks kube-apiserver runs
 * for a built-in kind (everything beyond generic ObjectMeta, which the generic store validates itself).
 *
 * Contract for strategies: `validate(obj)` on create; `validateUpdate(obj, old, ctx)` on update, which already
 * includes the create-time checks kube re-runs on update (the generic store calls one or the other). Writes to
 * a sub-resource (`/status`, `/scale`, `/resize`, ...) skip the spec rules: kube runs separate status
 * validators there, and the spec of such a write is the stored one.
 * Every function is pure and returns kube's field errors, one per field path, in kube's order where it matters.
 */
import type { KObject } from '../../machinery/objects.ts';
import type { FieldError } from '../../machinery/errors.ts';
import { validatePod, validatePodTemplateObject, validatePodUpdate } from './core-pod.ts';
import { validateService, validateServiceUpdate } from './core-service.ts';
import { validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate } from './core-pvc.ts';
import {
  validateConfigMap, validateConfigMapUpdate, validateNamespace, validateNamespaceFinalize, validateReplicationController, validateSecret, validateSecretUpdate,
} from './core-config.ts';
import {
  immutableSelector, validateControllerRevision, validateControllerRevisionUpdate, validateDaemonSet, validateDeployment,
  validateReplicaSet, validateStatefulSet, validateStatefulSetUpdate,
} from './apps.ts';
import { validateCronJob, validateCronJobUpdate, validateJob, validateJobUpdate } from './batch.ts';
import {
  validateClusterRole, validateClusterRoleBinding, validateClusterRoleBindingUpdate, validateRole, validateRoleBinding,
  validateRoleBindingUpdate,
} from './rbac.ts';
import { validateCoreEvent, validateEventsV1, validateEventsV1Update } from './events.ts';
import { validateLease } from './coordination.ts';
import { validateIngress, validateIngressClass, validateIngressClassUpdate, validateNetworkPolicy } from './networking.ts';
import { validatePodDisruptionBudget } from './policy.ts';
import { validateHorizontalPodAutoscaler } from './autoscaling.ts';
import { validatePriorityClass, validatePriorityClassUpdate } from './scheduling.ts';
import { validateStorageClass, validateStorageClassUpdate } from './storage.ts';
import { validateNode, validateNodeUpdate, validateNodeUpdateRules } from './core-node.ts';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './core-pv.ts';
import { validateEndpoints } from './core-endpoints.ts';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './discovery.ts';
import { validateLimitRange, validateResourceQuota, validateResourceQuotaUpdate } from './core-quota.ts';
import {
  validateMutatingWebhookConfiguration, validateMutatingWebhookConfigurationUpdate, validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
} from './admissionregistration.ts';
import {
  validateMutatingAdmissionPolicy, validateMutatingAdmissionPolicyBinding, validateValidatingAdmissionPolicy, validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
} from './admission-policy.ts';
import { validateCertificateSigningRequest, validateCertificateSigningRequestStatus } from './certificates.ts';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './node.ts';
import { validateCSIDriver, validateCSIDriverUpdate, validateVolumeAttachment, validateVolumeAttachmentUpdate } from './storage-more.ts';
import {
  validateFlowSchema, validateFlowSchemaStatus, validatePriorityLevelConfiguration, validatePriorityLevelConfigurationStatus,
} from './flowcontrol.ts';
import type { J } from './util.ts';

export interface UpdateContext {
  readonly subresource?: string;
}

export interface KindValidators {
  validate?(obj: KObject): FieldError[];
  validateUpdate?(obj: KObject, old: KObject, ctx?: UpdateContext): FieldError[];
}

type Create = (o: J) => FieldError[];
type Update = (o: J, old: J) => FieldError[];

/**
 * Validators for a kind; `update` defaults to re-running `create` on the new object; `subresources` holds
 * the rules of writes to a named sub-resource (others skip the spec rules).
 */
function kind(create: Create, update?: Update, subresources: Record<string, Update> = {}): KindValidators {
  const upd: Update = update ?? ((o) => create(o));
  return {
    validate: (o) => create(o as J),
    validateUpdate: (o, old, ctx) => {
      if (!ctx?.subresource) return upd(o as J, old as J);
      return subresources[ctx.subresource]?.(o as J, old as J) ?? [];
    },
  };
}

const withSelector = (create: Create): KindValidators => kind(create, (o, old) => [...create(o), ...immutableSelector(o, old)]);

const REGISTRY: Record<string, KindValidators> = {
  '/Pod': kind(validatePod, validatePodUpdate),
  '/PodTemplate': kind(validatePodTemplateObject),
  '/Service': kind(validateService, validateServiceUpdate),
  '/ConfigMap': kind(validateConfigMap, validateConfigMapUpdate),
  '/Secret': kind(validateSecret, validateSecretUpdate),
  // ValidateNamespaceUpdate checks metadata only; spec.finalizers change through /finalize.
  '/Namespace': kind(validateNamespace, () => [], { finalize: validateNamespaceFinalize }),
  '/ReplicationController': kind(validateReplicationController),
  '/Event': kind(validateCoreEvent),
  // The node status strategy runs ValidateNodeUpdate alone.
  '/Node': kind(validateNode, validateNodeUpdate, { status: validateNodeUpdateRules }),
  '/PersistentVolume': kind(validatePersistentVolume, validatePersistentVolumeUpdate),
  '/Endpoints': kind(validateEndpoints),
  '/ResourceQuota': kind(validateResourceQuota, validateResourceQuotaUpdate, { status: validateResourceQuota }),
  '/LimitRange': kind(validateLimitRange),
  'discovery.k8s.io/EndpointSlice': kind(validateEndpointSlice, validateEndpointSliceUpdate),
  '/PersistentVolumeClaim': kind(validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate),
  'apps/Deployment': withSelector(validateDeployment),
  'apps/ReplicaSet': withSelector(validateReplicaSet),
  'apps/DaemonSet': withSelector(validateDaemonSet),
  'apps/StatefulSet': kind(validateStatefulSet, validateStatefulSetUpdate),
  'apps/ControllerRevision': kind(validateControllerRevision, validateControllerRevisionUpdate),
  'batch/Job': kind(validateJob, validateJobUpdate),
  'batch/CronJob': kind(validateCronJob, validateCronJobUpdate),
  'rbac.authorization.k8s.io/Role': kind(validateRole),
  'rbac.authorization.k8s.io/ClusterRole': kind(validateClusterRole),
  'rbac.authorization.k8s.io/RoleBinding': kind(validateRoleBinding, validateRoleBindingUpdate),
  'rbac.authorization.k8s.io/ClusterRoleBinding': kind(validateClusterRoleBinding, validateClusterRoleBindingUpdate),
  'events.k8s.io/Event': kind(validateEventsV1, validateEventsV1Update),
  'coordination.k8s.io/Lease': kind(validateLease),
  'networking.k8s.io/Ingress': kind(validateIngress),
  'networking.k8s.io/IngressClass': kind(validateIngressClass, validateIngressClassUpdate),
  'networking.k8s.io/NetworkPolicy': kind(validateNetworkPolicy),
  'policy/PodDisruptionBudget': kind(validatePodDisruptionBudget),
  'autoscaling/HorizontalPodAutoscaler': kind(validateHorizontalPodAutoscaler),
  'scheduling.k8s.io/PriorityClass': kind(validatePriorityClass, validatePriorityClassUpdate),
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': kind(validateValidatingWebhookConfiguration, validateValidatingWebhookConfigurationUpdate),
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': kind(validateMutatingWebhookConfiguration, validateMutatingWebhookConfigurationUpdate),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': kind(validateValidatingAdmissionPolicy, undefined, { status: validateValidatingAdmissionPolicyStatus }),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': kind(validateValidatingAdmissionPolicyBinding),
  'admissionregistration.k8s.io/MutatingAdmissionPolicy': kind(validateMutatingAdmissionPolicy),
  'admissionregistration.k8s.io/MutatingAdmissionPolicyBinding': kind(validateMutatingAdmissionPolicyBinding),
  'certificates.k8s.io/CertificateSigningRequest': kind(validateCertificateSigningRequest, undefined, {
    status: validateCertificateSigningRequestStatus, approval: validateCertificateSigningRequestStatus,
  }),
  'node.k8s.io/RuntimeClass': kind(validateRuntimeClass, validateRuntimeClassUpdate),
  'storage.k8s.io/CSIDriver': kind(validateCSIDriver, validateCSIDriverUpdate),
  'storage.k8s.io/VolumeAttachment': kind(validateVolumeAttachment, validateVolumeAttachmentUpdate),
  'flowcontrol.apiserver.k8s.io/FlowSchema': kind(validateFlowSchema, undefined, { status: validateFlowSchemaStatus }),
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': kind(validatePriorityLevelConfiguration, undefined, { status: validatePriorityLevelConfigurationStatus }),
  'storage.k8s.io/StorageClass': kind(validateStorageClass, (o, old) => [...validateStorageClass(o), ...validateStorageClassUpdate(o, old)]),
};

/** The validators for a built-in kind, or undefined when kube has no type-specific rules we implement. */
export function validateFor(group: string, kindName: string): KindValidators | undefined {
  return REGISTRY[`${group}/${kindName}`];
}

/** Every (group, kind) with validators, for wiring and tests. */
export function validatedKinds(): { group: string; kind: string }[] {
  return Object.keys(REGISTRY).map((k) => {
    const i = k.lastIndexOf('/');
    return { group: k.slice(0, i), kind: k.slice(i + 1) };
  });
}

export { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.ts';
