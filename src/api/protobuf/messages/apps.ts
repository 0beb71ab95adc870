// Protobuf message descriptions of apps (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('apps.v1', {
  ControllerRevision: { metadata: '1 ObjectMeta', data: '2 RawExtension', revision: '3 !int64' },
  ControllerRevisionList: { metadata: '1 ListMeta', items: '2 ![]ControllerRevision' },
  DaemonSet: { metadata: '1 ObjectMeta', spec: '2 DaemonSetSpec', status: '3 DaemonSetStatus' },
  DaemonSetCondition: { type: '1 !string', status: '2 !string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  DaemonSetList: { metadata: '1 ListMeta', items: '2 ![]DaemonSet' },
  DaemonSetSpec: { selector: '1 !*LabelSelector', template: '2 !core.v1.PodTemplateSpec', updateStrategy: '3 DaemonSetUpdateStrategy', minReadySeconds: '4 int32', revisionHistoryLimit: '6 *int32' },
  DaemonSetStatus: { currentNumberScheduled: '1 !int32', numberMisscheduled: '2 !int32', desiredNumberScheduled: '3 !int32', numberReady: '4 !int32', observedGeneration: '5 int64', updatedNumberScheduled: '6 int32', numberAvailable: '7 int32', numberUnavailable: '8 int32', collisionCount: '9 *int32', conditions: '10 []DaemonSetCondition list=map(type) patch=merge(type)' },
  DaemonSetUpdateStrategy: { type: '1 string', rollingUpdate: '2 *RollingUpdateDaemonSet' },
  Deployment: { metadata: '1 ObjectMeta', spec: '2 DeploymentSpec', status: '3 DeploymentStatus' },
  DeploymentCondition: { type: '1 !string', status: '2 !string', lastUpdateTime: '6 Time', lastTransitionTime: '7 Time', reason: '4 string', message: '5 string' },
  DeploymentList: { metadata: '1 ListMeta', items: '2 ![]Deployment' },
  DeploymentSpec: { replicas: '1 *int32', selector: '2 !*LabelSelector', template: '3 !core.v1.PodTemplateSpec', strategy: '4 DeploymentStrategy patch=retainKeys', minReadySeconds: '5 int32', revisionHistoryLimit: '6 *int32', paused: '7 bool', progressDeadlineSeconds: '9 *int32' },
  DeploymentStatus: { observedGeneration: '1 int64', replicas: '2 int32', updatedReplicas: '3 int32', readyReplicas: '7 int32', availableReplicas: '4 int32', unavailableReplicas: '5 int32', terminatingReplicas: '9 *int32', conditions: '6 []DeploymentCondition list=map(type) patch=merge(type)', collisionCount: '8 *int32' },
  DeploymentStrategy: { type: '1 string', rollingUpdate: '2 *RollingUpdateDeployment' },
  ReplicaSet: { metadata: '1 ObjectMeta', spec: '2 ReplicaSetSpec', status: '3 ReplicaSetStatus' },
  ReplicaSetCondition: { type: '1 !string', status: '2 !string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  ReplicaSetList: { metadata: '1 ListMeta', items: '2 ![]ReplicaSet' },
  ReplicaSetSpec: { replicas: '1 *int32', minReadySeconds: '4 int32', selector: '2 !*LabelSelector', template: '3 core.v1.PodTemplateSpec' },
  ReplicaSetStatus: { replicas: '1 !int32', fullyLabeledReplicas: '2 int32', readyReplicas: '4 int32', availableReplicas: '5 int32', terminatingReplicas: '7 *int32', observedGeneration: '3 int64', conditions: '6 []ReplicaSetCondition list=map(type) patch=merge(type)' },
  RollingUpdateDaemonSet: { maxUnavailable: '1 *IntOrString', maxSurge: '2 *IntOrString' },
  RollingUpdateDeployment: { maxUnavailable: '1 *IntOrString', maxSurge: '2 *IntOrString' },
  RollingUpdateStatefulSetStrategy: { partition: '1 *int32', maxUnavailable: '2 *IntOrString' },
  StatefulSet: { metadata: '1 ObjectMeta', spec: '2 StatefulSetSpec', status: '3 StatefulSetStatus' },
  StatefulSetCondition: { type: '1 !string', status: '2 !string', lastTransitionTime: '3 Time', reason: '4 string', message: '5 string' },
  StatefulSetList: { metadata: '1 ListMeta', items: '2 ![]StatefulSet' },
  StatefulSetOrdinals: { start: '1 !int32' },
  StatefulSetPersistentVolumeClaimRetentionPolicy: { whenDeleted: '1 string', whenScaled: '2 string' },
  StatefulSetSpec: { replicas: '1 *int32', selector: '2 !*LabelSelector', template: '3 !core.v1.PodTemplateSpec', volumeClaimTemplates: '4 []core.v1.PersistentVolumeClaim list=atomic', serviceName: '5 !string', podManagementPolicy: '6 string', updateStrategy: '7 StatefulSetUpdateStrategy', revisionHistoryLimit: '8 *int32', minReadySeconds: '9 int32', persistentVolumeClaimRetentionPolicy: '10 *StatefulSetPersistentVolumeClaimRetentionPolicy', ordinals: '11 *StatefulSetOrdinals' },
  StatefulSetStatus: { observedGeneration: '1 int64', replicas: '2 !int32', readyReplicas: '3 int32', currentReplicas: '4 int32', updatedReplicas: '5 int32', currentRevision: '6 string', updateRevision: '7 string', collisionCount: '9 *int32', conditions: '10 []StatefulSetCondition list=map(type) patch=merge(type)', availableReplicas: '11 !int32' },
  StatefulSetUpdateStrategy: { type: '1 string', rollingUpdate: '2 *RollingUpdateStatefulSetStrategy' },
});

