import { defineDocs } from './define.ts';
import * as a from './shared/autoscaling.ts';

const CURRENT = 'The value measured.';
const IDENTIFIER = 'Name of the metric and, optionally, a selector on its series. Required.';

const docs = {
  ContainerResourceMetricSource: {
    $: 'A resource metric (cpu or memory) of one container in each scaled pod, as the kubelet reports it.',
    name: a.RESOURCE_NAME,
    target: 'The target, as a utilization percentage of the container\'s request or an average value. Required.',
    container: a.CONTAINER_NAME,
  },
  ContainerResourceMetricStatus: {
    $: 'What a cpu or memory metric of one container reads now.',
    name: 'The resource measured: cpu or memory.',
    current: CURRENT,
    container: 'Name of the container measured.',
  },
  CrossVersionObjectReference: a.CrossVersionObjectReference,
  ExternalMetricSource: {
    $: 'A metric from outside the cluster, such as a cloud queue length, read through the external metrics API.',
    metric: IDENTIFIER,
    target: 'The target, as a total value or a per-pod average. Required.',
  },
  ExternalMetricStatus: {
    $: 'What an external metric reads now.',
    metric: 'Which metric was measured.',
    current: CURRENT,
  },
  HPAScalingPolicy: {
    $: 'A limit on how much the replica count may change within a period.',
    type: 'Pods (value is a number of pods) or Percent (value is a percentage of the current replicas). Required.',
    value: 'The amount of change allowed per period; greater than 0. Required.',
    periodSeconds: 'Length of the window, in seconds, over which the change is counted; between 1 and 1800. Required.',
  },
  HPAScalingRules: {
    $: 'How fast the autoscaler may scale in one direction.',
    stabilizationWindowSeconds: 'Seconds of past recommendations considered: scaling up uses the lowest, scaling down the highest of them, to avoid flapping. Between 0 and 3600; defaults to 0 for scale-up and 300 for scale-down.',
    selectPolicy: 'Which policy wins when several apply: Max (allow the biggest change), Min (the smallest) or Disabled (no scaling this way). Defaults to Max.',
    policies: 'The allowed rates of change. Defaults: scale-up 4 pods or 100% per 15 s; scale-down 100% per 15 s.',
    tolerance: 'Relative gap between current and desired metric values below which no scaling happens, such as 0.05 for 5%. Unset means the cluster default, 0.1; needs the HPAConfigurableTolerance feature.',
  },
  HorizontalPodAutoscaler: a.HorizontalPodAutoscaler,
  HorizontalPodAutoscalerBehavior: {
    $: 'Separate rate limits for scaling up and scaling down.',
    scaleUp: 'Rules for adding replicas. Defaults to no stabilization and at most 4 pods or 100% more, whichever is greater, per 15 s.',
    scaleDown: 'Rules for removing replicas. Defaults to a 300-second stabilization window and up to 100% of the replicas per 15 s.',
  },
  HorizontalPodAutoscalerCondition: a.HorizontalPodAutoscalerCondition,
  HorizontalPodAutoscalerList: a.HorizontalPodAutoscalerList,
  HorizontalPodAutoscalerSpec: {
    $: 'The desired behaviour of a HorizontalPodAutoscaler.',
    scaleTargetRef: a.SCALE_TARGET,
    minReplicas: a.MIN_REPLICAS,
    maxReplicas: a.MAX_REPLICAS,
    metrics: 'Metrics to follow; the replica count is the highest any of them asks for. Defaults to 80% average CPU utilization.',
    behavior: 'Rate limits for scaling up and down; unset uses the defaults of each direction.',
  },
  HorizontalPodAutoscalerStatus: {
    $: 'The observed state of a HorizontalPodAutoscaler.',
    ...a.STATUS_COMMON,
    currentMetrics: 'The last values read for each metric.',
    conditions: 'Conditions reported for the autoscaler, one per type.',
  },
  MetricIdentifier: {
    $: 'Names a metric and, optionally, which of its series to use.',
    name: 'The metric, by the name the metrics API serves it under. Required.',
    selector: 'Label selector passed to the metrics server to narrow the series; unset uses the metric name alone.',
  },
  MetricSpec: {
    $: 'One metric to scale on; exactly one source field matches type.',
    type: a.METRIC_TYPE,
    object: 'A metric describing one Kubernetes object, such as requests per second of an Ingress.',
    pods: 'A custom metric reported per pod and averaged over the scaled pods.',
    resource: 'A cpu or memory metric of the scaled pods, as the kubelet reports it.',
    containerResource: 'A cpu or memory metric of one container of the scaled pods.',
    external: 'A metric from outside the cluster.',
  },
  MetricStatus: {
    $: 'The current value of one metric; exactly one source field matches type.',
    type: a.METRIC_STATUS_TYPE,
    object: 'Value of an object metric.',
    pods: 'Value of a pods metric.',
    resource: 'Value of a resource metric.',
    containerResource: 'Value of a container resource metric.',
    external: 'Value of an external metric.',
  },
  MetricTarget: {
    $: 'The value a metric should be kept near, in one of three forms.',
    type: 'Utilization (averageUtilization), Value (value) or AverageValue (averageValue): which field holds the target. Required.',
    value: 'Target total value of the metric.',
    averageValue: 'Target value of the metric divided by the number of pods.',
    averageUtilization: 'Target average usage as a percentage of the pods\' resource requests; only for Resource and ContainerResource metrics.',
  },
  MetricValueStatus: {
    $: 'A measured metric value, in the form its target uses.',
    value: 'Current total value.',
    averageValue: 'Current value divided by the number of pods.',
    averageUtilization: 'Current average usage as a percentage of the pods\' resource requests.',
  },
  ObjectMetricSource: {
    $: 'A metric describing one object in the namespace.',
    describedObject: 'The object the metric describes. Required.',
    target: 'The target, as a value or a per-pod average. Required.',
    metric: IDENTIFIER,
  },
  ObjectMetricStatus: {
    $: 'What an object metric reads now.',
    metric: 'Which metric was measured.',
    current: CURRENT,
    describedObject: 'The object the metric describes.',
  },
  PodsMetricSource: {
    $: 'A custom metric reported per pod, averaged over the scaled pods.',
    metric: IDENTIFIER,
    target: 'The target per-pod average value. Required.',
  },
  PodsMetricStatus: {
    $: 'What a per-pod custom metric reads now, averaged.',
    metric: 'Which metric was measured.',
    current: CURRENT,
  },
  ResourceMetricSource: {
    $: 'A resource metric (cpu or memory) of the scaled pods, as the kubelet reports it.',
    name: a.RESOURCE_NAME,
    target: 'The target, as a utilization percentage of the pods\' requests or an average value. Required.',
  },
  ResourceMetricStatus: {
    $: 'What a cpu or memory metric of the scaled pods reads now.',
    name: 'The resource measured: cpu or memory.',
    current: CURRENT,
  },
};

defineDocs('autoscaling.v2', docs);
export default docs;
