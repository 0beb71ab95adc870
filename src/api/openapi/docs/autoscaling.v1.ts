import { defineDocs } from './define.ts';
import * as a from './shared/autoscaling.ts';

/**
 * Besides HorizontalPodAutoscaler v1, this version holds the older metric types that v1 objects carry in
 * annotations when converted from v2.
 */
const docs = {
  ContainerResourceMetricSource: {
    $: 'A resource metric (cpu or memory) of one container in each scaled pod, compared with a target averaged over the pods.',
    name: a.RESOURCE_NAME,
    targetAverageUtilization: 'Target average usage, as a percentage of the container\'s resource request.',
    targetAverageValue: 'Target average usage as an absolute quantity, such as 500m.',
    container: a.CONTAINER_NAME,
  },
  ContainerResourceMetricStatus: {
    $: 'What a cpu or memory metric of one container reads now.',
    name: 'The resource measured: cpu or memory.',
    currentAverageUtilization: 'Current average usage, as a percentage of the container\'s request.',
    currentAverageValue: 'Current average usage as an absolute quantity.',
    container: 'Name of the container measured.',
  },
  CrossVersionObjectReference: a.CrossVersionObjectReference,
  ExternalMetricSource: {
    $: 'A metric from outside the cluster, such as a queue length, read through the external metrics API.',
    metricName: 'Name of the metric. Required.',
    metricSelector: 'Label selector narrowing which series of the metric are used.',
    targetValue: 'Target for the metric\'s total value; exclusive with targetAverageValue.',
    targetAverageValue: 'Target for the metric\'s value divided by the number of pods; exclusive with targetValue.',
  },
  ExternalMetricStatus: {
    $: 'What an external metric reads now.',
    metricName: 'The metric measured.',
    metricSelector: 'Label selector that narrowed the series.',
    currentValue: 'Current total value of the metric.',
    currentAverageValue: 'Current value divided by the number of pods.',
  },
  HorizontalPodAutoscaler: {
    ...a.HorizontalPodAutoscaler,
    $: 'Scales a workload between a minimum and maximum number of replicas to keep average CPU use near a target; v2 supports other metrics.',
  },
  HorizontalPodAutoscalerCondition: a.HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerList: a.HorizontalPodAutoscalerList,
  HorizontalPodAutoscalerSpec: {
    $: 'The desired behaviour of a v1 HorizontalPodAutoscaler.',
    scaleTargetRef: a.SCALE_TARGET,
    minReplicas: a.MIN_REPLICAS,
    maxReplicas: a.MAX_REPLICAS,
    targetCPUUtilizationPercentage: 'Target average CPU use across the pods, as a percentage of their CPU requests. Unset means the default of 80%.',
  },
  HorizontalPodAutoscalerStatus: {
    $: 'The observed state of a v1 HorizontalPodAutoscaler.',
    ...a.STATUS_COMMON,
    currentCPUUtilizationPercentage: 'Current average CPU use across the pods, as a percentage of their CPU requests.',
  },
  MetricSpec: {
    $: 'One metric to scale on, in the older form kept for conversion; exactly one source field matches type.',
    type: a.METRIC_TYPE,
    object: 'A metric describing one Kubernetes object.',
    pods: 'A metric averaged over the scaled pods.',
    resource: 'A cpu or memory metric of the scaled pods.',
    containerResource: 'A cpu or memory metric of one container of the scaled pods.',
    external: 'A metric from outside the cluster.',
  },
  MetricStatus: {
    $: 'The current value of one metric, in the older form kept for conversion.',
    type: a.METRIC_STATUS_TYPE,
    object: 'Value of an object metric.',
    pods: 'Value of a pods metric.',
    resource: 'Value of a resource metric.',
    containerResource: 'Value of a container resource metric.',
    external: 'Value of an external metric.',
  },
  ObjectMetricSource: {
    $: 'A metric describing one object in the namespace, such as requests per second of an Ingress.',
    target: 'The object the metric describes. Required.',
    metricName: 'Name of the metric. Required.',
    targetValue: 'Value of the metric to aim for. Required.',
    selector: 'Label selector narrowing which series of the metric are used.',
    averageValue: 'Target for the metric\'s value divided by the number of pods.',
  },
  ObjectMetricStatus: {
    $: 'What an object metric reads now.',
    target: 'The object the metric describes.',
    metricName: 'The metric measured.',
    currentValue: 'The metric\'s reading, as a quantity.',
    selector: 'Label selector that narrowed the series.',
    averageValue: 'Current value divided by the number of pods.',
  },
  PodsMetricSource: {
    $: 'A custom metric reported per pod, such as transactions per second, averaged over the scaled pods.',
    metricName: 'Name of the metric. Required.',
    targetAverageValue: 'Target per-pod average of the metric. Required.',
    selector: 'Label selector narrowing which series of the metric are used.',
  },
  PodsMetricStatus: {
    $: 'What a per-pod custom metric reads now, averaged.',
    metricName: 'The metric measured.',
    currentAverageValue: 'Current per-pod average of the metric.',
    selector: 'Label selector that narrowed the series.',
  },
  ResourceMetricSource: {
    $: 'A resource metric (cpu or memory) of the scaled pods, as the kubelet reports it, compared with a target averaged over the pods.',
    name: a.RESOURCE_NAME,
    targetAverageUtilization: 'Target average usage, as a percentage of the pods\' resource requests.',
    targetAverageValue: 'Target average usage as an absolute quantity.',
  },
  ResourceMetricStatus: {
    $: 'What a cpu or memory metric of the scaled pods reads now.',
    name: 'The resource measured: cpu or memory.',
    currentAverageUtilization: 'Current average usage, as a percentage of the pods\' requests.',
    currentAverageValue: 'Current average usage as an absolute quantity.',
  },
  Scale: a.Scale,
  ScaleSpec: {
    $: 'The desired size of a scalable object.',
    replicas: 'Number of replicas wanted.',
  },
  ScaleStatus: {
    $: 'The observed size of a scalable object.',
    replicas: 'Number of replicas currently observed.',
    selector: 'Label selector of the object\'s pods, in string form (app=web,tier in (fe)), for autoscalers to count them.',
  },
};

defineDocs('autoscaling.v1', docs);
export default docs;
