/** Descriptions for autoscaling, shared by v1 and v2 where the fields mean the same (see ../define.ts). */
import { condition, list, OBJECT_METADATA, OBSERVED_GENERATION } from './common.ts';

export const CrossVersionObjectReference = {
  $: 'Points at an object in the same namespace by API version, kind and name.',
  kind: 'Kind of the object, such as Deployment. Required.',
  name: 'The object\'s name. Required.',
  apiVersion: 'API version of the object, such as apps/v1.',
};

export const HorizontalPodAutoscaler = {
  $: 'Scales a workload (anything with a scale subresource) between a minimum and maximum number of replicas to keep metrics such as CPU use near a target.',
  metadata: OBJECT_METADATA,
  spec: 'The workload to scale, its bounds and the metrics to follow.',
  status: 'What the autoscaler last observed and decided; read-only.',
};

export const HorizontalPodAutoscalerCondition = condition('a HorizontalPodAutoscaler', 'One of AbleToScale, ScalingActive or ScalingLimited.');
export const HorizontalPodAutoscalerList = list('HorizontalPodAutoscaler');

export const MIN_REPLICAS = 'Fewest replicas the autoscaler scales down to. Defaults to 1; 0 is allowed only with the HPAScaleToZero feature and an object or external metric.';
export const MAX_REPLICAS = 'Most replicas the autoscaler scales up to; at least minReplicas. Required.';
export const SCALE_TARGET = 'The workload whose scale subresource is read and written. Required.';

export const STATUS_COMMON = {
  observedGeneration: OBSERVED_GENERATION,
  lastScaleTime: 'When the autoscaler last changed the replica count.',
  currentReplicas: 'Replica count of the target when the autoscaler last looked.',
  desiredReplicas: 'Replica count the autoscaler last computed as wanted.',
};

export const METRIC_TYPE = 'Which kind of metric this is, naming the one field set next to it: Resource, ContainerResource, Pods, Object or External. Required.';
export const METRIC_STATUS_TYPE = 'Which kind of metric this is, naming the one field set next to it: Resource, ContainerResource, Pods, Object or External.';

export const RESOURCE_NAME = 'Name of the resource measured, cpu or memory. Required.';
export const CONTAINER_NAME = 'Container, in each scaled pod, whose usage is measured. Required.';

export const Scale = {
  $: 'The scale subresource of a workload: its desired and observed replica counts, used by kubectl scale and autoscalers.',
  metadata: 'Standard object metadata of the scaled object.',
  spec: 'The desired replica count.',
  status: 'The observed replica count and the pod selector.',
};
