/**
 * Explained differences between our generated OpenAPI and kube-apiserver v1.32's reference documents
 * (compare.test.ts). An entry matches a difference at its path or anywhere below it. v1.33 additions are
 * expected: we serve v1.33, the reference is v1.32.
 */
export interface Allowed { path: string; reason: string }

const V133 = 'added in Kubernetes v1.33 (the reference documents are v1.32)';

export const ALLOWED: readonly Allowed[] = [
  { path: 'io.k8s.api.apps.v1.DeploymentStatus.properties.terminatingReplicas', reason: `${V133}: terminating replica counts (DeploymentPodReplacementPolicy, alpha)` },
  { path: 'io.k8s.api.apps.v1.ReplicaSetStatus.properties.terminatingReplicas', reason: `${V133}: terminating replica counts (DeploymentPodReplacementPolicy, alpha)` },
  { path: 'io.k8s.api.autoscaling.v2.HPAScalingRules.properties.tolerance', reason: `${V133}: configurable HPA tolerance (alpha)` },
  { path: 'io.k8s.api.core.v1.ContainerStatus.properties.stopSignal', reason: `${V133}: container stop signals (ContainerStopSignals, alpha)` },
  { path: 'io.k8s.api.core.v1.Lifecycle.properties.stopSignal', reason: `${V133}: container stop signals (ContainerStopSignals, alpha)` },
  { path: 'io.k8s.api.core.v1.NodeSwapStatus', reason: `${V133}: node swap capacity reporting` },
  { path: 'io.k8s.api.core.v1.NodeSystemInfo.properties.swap', reason: `${V133}: node swap capacity reporting` },
  { path: 'io.k8s.api.core.v1.PodCondition.properties.observedGeneration', reason: `${V133}: pod generation in status (PodObservedGenerationTracking)` },
  { path: 'io.k8s.api.core.v1.PodStatus.properties.observedGeneration', reason: `${V133}: pod generation in status (PodObservedGenerationTracking)` },
  { path: 'io.k8s.api.discovery.v1.EndpointHints.properties.forNodes', reason: `${V133}: node hints for traffic distribution` },
  { path: 'io.k8s.api.discovery.v1.ForNode', reason: `${V133}: node hints for traffic distribution` },
  { path: 'io.k8s.api.networking.v1.IPAddress', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.IPAddressList', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.IPAddressSpec', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.ParentReference', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.ServiceCIDR', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.ServiceCIDRList', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.ServiceCIDRSpec', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.networking.v1.ServiceCIDRStatus', reason: `${V133}: IPAddress and ServiceCIDR graduated to networking.k8s.io/v1` },
  { path: 'io.k8s.api.storage.v1.CSIDriverSpec.properties.nodeAllocatableUpdatePeriodSeconds', reason: `${V133}: mutable CSINode allocatable count (alpha)` },
  { path: 'io.k8s.api.storage.v1.VolumeError.properties.errorCode', reason: `${V133}: mutable CSINode allocatable count (alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.BasicDevice.properties.allNodes', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.BasicDevice.properties.consumesCounters', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.BasicDevice.properties.nodeName', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.BasicDevice.properties.nodeSelector', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.ResourceSliceSpec.properties.perDeviceNodeSelection', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.ResourceSliceSpec.properties.sharedCounters', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.BasicDevice.properties.taints', reason: `${V133}: device taints (DRADeviceTaints, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.DeviceRequest.properties.tolerations', reason: `${V133}: device taints (DRADeviceTaints, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.DeviceRequestAllocationResult.properties.tolerations', reason: `${V133}: device taints (DRADeviceTaints, alpha)` },
  { path: 'io.k8s.api.resource.v1alpha3.DeviceRequest.properties.firstAvailable', reason: `${V133}: prioritized device alternatives (DRAPrioritizedList, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.BasicDevice.properties.allNodes', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.BasicDevice.properties.consumesCounters', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.BasicDevice.properties.nodeName', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.BasicDevice.properties.nodeSelector', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.ResourceSliceSpec.properties.perDeviceNodeSelection', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.ResourceSliceSpec.properties.sharedCounters', reason: `${V133}: partitionable devices (DRAPartitionableDevices, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.BasicDevice.properties.taints', reason: `${V133}: device taints (DRADeviceTaints, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.DeviceRequest.properties.tolerations', reason: `${V133}: device taints (DRADeviceTaints, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.DeviceRequestAllocationResult.properties.tolerations', reason: `${V133}: device taints (DRADeviceTaints, alpha)` },
  { path: 'io.k8s.api.resource.v1beta1.DeviceRequest.properties.firstAvailable', reason: `${V133}: prioritized device alternatives (DRAPrioritizedList, alpha)` },
  { path: 'io.k8s.api.apps.v1.StatefulSetSpec.required', reason: `${V133}: serviceName became optional` },
  { path: 'io.k8s.api.resource.v1beta1.DeviceRequest.required', reason: `${V133}: deviceClassName became optional (a request may list alternatives in firstAvailable)` },
  { path: 'io.k8s.api.resource.v1alpha3.DeviceRequest.required', reason: `${V133}: deviceClassName became optional (a request may list alternatives in firstAvailable)` },
  { path: 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions.x-kubernetes-group-version-kind', reason: 'kube tags it with every group version its scheme ever registered (incl. removed ones such as extensions/v1beta1); clients do not look kinds up by these entries' },
  { path: 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent.x-kubernetes-group-version-kind', reason: 'kube tags it with every group version its scheme ever registered (incl. removed ones such as extensions/v1beta1); clients do not look kinds up by these entries' },
  { path: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.properties.managedFields.x-kubernetes-list-type', reason: 'kube differs with itself: only the apiextensions and aggregator documents (other servers inside kube-apiserver) mark managedFields atomic; we render one ObjectMeta everywhere, as the core documents do' },
  { path: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.properties.additionalItems', reason: 'equivalent: kube leaves a v3 $ref bare where the Go field has no doc comment (JSONSchemaProps documents none of these); we always wrap it in allOf' },
  { path: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.properties.additionalProperties', reason: 'equivalent: kube leaves a v3 $ref bare where the Go field has no doc comment (JSONSchemaProps documents none of these); we always wrap it in allOf' },
  { path: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.properties.example', reason: 'equivalent: kube leaves a v3 $ref bare where the Go field has no doc comment (JSONSchemaProps documents none of these); we always wrap it in allOf' },
  { path: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.properties.externalDocs', reason: 'equivalent: kube leaves a v3 $ref bare where the Go field has no doc comment (JSONSchemaProps documents none of these); we always wrap it in allOf' },
  { path: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.properties.items', reason: 'equivalent: kube leaves a v3 $ref bare where the Go field has no doc comment (JSONSchemaProps documents none of these); we always wrap it in allOf' },
  { path: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.properties.not', reason: 'equivalent: kube leaves a v3 $ref bare where the Go field has no doc comment (JSONSchemaProps documents none of these); we always wrap it in allOf' },
  { path: 'io.k8s.api.networking.v1.IngressRule.properties.http', reason: 'equivalent: kube wraps a v3 $ref in allOf only when the field has siblings (a description); this Go field has no doc comment, so kube leaves the $ref bare, while we always wrap' },
];

/** The reason a difference at `path` is expected, or undefined. */
export function allowedReason(path: string): string | undefined {
  return ALLOWED.find((a) => path === a.path || path.startsWith(`${a.path}.`))?.reason;
}
