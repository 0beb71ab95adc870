import { defineDocs } from './define.ts';
import { condition, list, OBJECT_METADATA, OBSERVED_GENERATION } from './shared/common.ts';

const SELECTOR = 'Label query that picks the pods this controller owns; the template\'s labels must satisfy it, and it cannot be changed after creation.';
const TEMPLATE = 'Pod template from which new pods are made; its labels must be matched by the selector.';
const MIN_READY = 'Seconds a new pod must be ready, with no container crashing, before it counts as available. Defaults to 0: available as soon as ready.';
const HISTORY = 'How many old revisions to keep so that a rollback is possible; older ones are garbage-collected. Defaults to 10.';
const COLLISIONS = 'Counter the controller bumps when the hash of a new revision collides with an existing name, so that the next name differs.';

const docs = {
  ControllerRevision: {
    $: 'An immutable snapshot of the state a DaemonSet or StatefulSet controller rolled out, kept for rollback and history.',
    metadata: OBJECT_METADATA,
    data: 'The serialized state captured by this revision, usually a patch against the owner\'s pod template.',
    revision: 'Sequence number of this revision among those of the same owner; higher is newer. Required.',
  },
  ControllerRevisionList: list('ControllerRevision'),
  DaemonSet: {
    $: 'Runs one copy of a pod on every node, or on each node that a selector and the scheduling rules admit.',
    metadata: OBJECT_METADATA,
    spec: 'The desired pods and how to roll out changes to them.',
    status: 'The most recently observed state of the daemon pods; read-only, written by the controller.',
  },
  DaemonSetCondition: condition('a DaemonSet', ''),
  DaemonSetList: list('DaemonSet'),
  DaemonSetSpec: {
    $: 'The desired behaviour of a DaemonSet.',
    selector: SELECTOR,
    template: 'Pod template run on each eligible node; its restartPolicy must be Always (the default).',
    updateStrategy: 'How existing daemon pods are replaced when the template changes. Defaults to RollingUpdate.',
    minReadySeconds: MIN_READY,
    revisionHistoryLimit: HISTORY,
  },
  DaemonSetStatus: {
    $: 'Counts of daemon pods as observed by the DaemonSet controller.',
    currentNumberScheduled: 'Count of eligible nodes that already run one or more daemon pods.',
    numberMisscheduled: 'Number of nodes that run a daemon pod although they are not supposed to.',
    desiredNumberScheduled: 'Number of nodes that should run the daemon pod, including those that already do.',
    numberReady: 'Count of eligible nodes with a daemon pod whose Ready condition is True.',
    observedGeneration: OBSERVED_GENERATION,
    updatedNumberScheduled: 'Count of nodes running a daemon pod built from the latest template.',
    numberAvailable: 'Count of eligible nodes whose daemon pod has stayed ready for minReadySeconds or longer.',
    numberUnavailable: 'Number of nodes that should run the daemon pod but have none available yet.',
    collisionCount: COLLISIONS,
    conditions: 'Conditions reported for the DaemonSet, one per type.',
  },
  DaemonSetUpdateStrategy: {
    $: 'How a DaemonSet replaces its pods after a template change.',
    type: 'RollingUpdate (replace pods automatically, a few nodes at a time) or OnDelete (a new pod only once the old one is deleted by hand). Defaults to RollingUpdate.',
    rollingUpdate: 'Pacing of the rollout; only allowed when type is RollingUpdate.',
  },
  Deployment: {
    $: 'Declarative updates for a set of identical pods: the Deployment controller rolls changes out through ReplicaSets.',
    metadata: OBJECT_METADATA,
    spec: 'The desired pods, their number and how to replace them.',
    status: 'The most recently observed state of the rollout; read-only, written by the controller.',
  },
  DeploymentCondition: {
    ...condition('a Deployment', 'One of Available, Progressing or ReplicaFailure.'),
    lastUpdateTime: 'When the controller last wrote this condition, even if its status did not change (RFC 3339).',
  },
  DeploymentList: list('Deployment'),
  DeploymentSpec: {
    $: 'The desired behaviour of a Deployment.',
    replicas: 'Number of pods wanted; 0 is allowed. Defaults to 1.',
    selector: SELECTOR,
    template: 'Pod template for the ReplicaSets the Deployment creates; its restartPolicy must be Always.',
    strategy: 'How old pods are replaced by new ones. Defaults to RollingUpdate with 25% max unavailable and 25% max surge.',
    minReadySeconds: MIN_READY,
    revisionHistoryLimit: 'How many old, scaled-down ReplicaSets to keep for rollback. Defaults to 10.',
    paused: 'While true, changes to the template do not start a rollout; the controller still scales.',
    progressDeadlineSeconds: 'Seconds a rollout may go without progress before the Progressing condition turns False with reason ProgressDeadlineExceeded. Defaults to 600; must exceed minReadySeconds.',
  },
  DeploymentStatus: {
    $: 'Counts of pods and the conditions of a Deployment\'s rollout.',
    observedGeneration: OBSERVED_GENERATION,
    replicas: 'Number of non-terminating pods across all of the Deployment\'s ReplicaSets.',
    updatedReplicas: 'Number of non-terminating pods made from the current template.',
    readyReplicas: 'Non-terminating pods whose Ready condition is True.',
    availableReplicas: 'Non-terminating pods counted as available, having stayed ready for minReadySeconds or longer.',
    unavailableReplicas: 'Pods still needed for full availability: the replicas its ReplicaSets want minus those available, never below 0.',
    terminatingReplicas: 'Number of pods of this Deployment that are being deleted (have a deletionTimestamp) but not yet gone; only set with the DeploymentReplicaSetTerminatingReplicas feature.',
    conditions: 'Conditions reported for the rollout, one per type.',
    collisionCount: COLLISIONS,
  },
  DeploymentStrategy: {
    $: 'How a Deployment replaces old pods with new ones.',
    type: 'Recreate (delete all old pods before creating new ones) or RollingUpdate (replace them gradually). Defaults to RollingUpdate.',
    rollingUpdate: 'Pacing of a rolling update; only allowed when type is RollingUpdate.',
  },
  ReplicaSet: {
    $: 'Keeps a given number of pods matching a selector running; usually managed by a Deployment.',
    metadata: OBJECT_METADATA,
    spec: 'The desired pods and their number.',
    status: 'The most recently observed counts of the ReplicaSet\'s pods; read-only.',
  },
  ReplicaSetCondition: condition('a ReplicaSet', 'ReplicaFailure is the one set today.'),
  ReplicaSetList: list('ReplicaSet'),
  ReplicaSetSpec: {
    $: 'The pods a ReplicaSet keeps running: how many, which ones, and from what template.',
    replicas: 'Number of pods wanted. Defaults to 1.',
    minReadySeconds: MIN_READY,
    selector: 'Label query for the pods this ReplicaSet counts and adopts; must match the template\'s labels. Required.',
    template: 'Pod template used to create missing pods; its restartPolicy must be Always.',
  },
  ReplicaSetStatus: {
    $: 'Counts of pods observed by the ReplicaSet controller.',
    replicas: 'Number of non-terminating pods the ReplicaSet currently owns.',
    fullyLabeledReplicas: 'Number of non-terminating pods whose labels match the template\'s labels.',
    readyReplicas: 'Non-terminating pods whose Ready condition is True.',
    availableReplicas: 'Non-terminating pods counted as available, having stayed ready for minReadySeconds or longer.',
    terminatingReplicas: 'Number of owned pods being deleted but not yet gone; only set with the DeploymentReplicaSetTerminatingReplicas feature.',
    observedGeneration: OBSERVED_GENERATION,
    conditions: 'Conditions reported for the ReplicaSet, one per type.',
  },
  RollingUpdateDaemonSet: {
    $: 'Pacing of a DaemonSet rolling update.',
    maxUnavailable: 'How many nodes may lack an available daemon pod during the update: a count or a percentage of desired nodes (rounded up). Defaults to 1; it and maxSurge cannot both be 0.',
    maxSurge: 'How many nodes may briefly run an old and a new daemon pod at once: a count or a percentage of desired nodes (rounded up). Defaults to 0; it and maxUnavailable cannot both be 0.',
  },
  RollingUpdateDeployment: {
    $: 'Pacing of a Deployment rolling update.',
    maxUnavailable: 'How many of the desired pods may be unavailable during the update: a count or a percentage (rounded down). Defaults to 25%; cannot be 0 when maxSurge is 0.',
    maxSurge: 'How many pods may exist above the desired number during the update: a count or a percentage (rounded up). Defaults to 25%; cannot be 0 when maxUnavailable is 0.',
  },
  RollingUpdateStatefulSetStrategy: {
    $: 'Pacing of a StatefulSet rolling update.',
    partition: 'Only pods with an ordinal at or above this number are updated; lower ones keep the old revision. Defaults to 0 (update all).',
    maxUnavailable: 'How many pods may be unavailable at once during the update: a count or a percentage (rounded up, at least 1). Defaults to 1; needs the MaxUnavailableStatefulSet feature.',
  },
  StatefulSet: {
    $: 'Runs pods with stable, ordinal identities and per-pod persistent volumes, created and updated in order.',
    metadata: OBJECT_METADATA,
    spec: 'The desired pods, their volumes and how to update them.',
    status: 'The most recently observed state of the StatefulSet\'s pods; read-only.',
  },
  StatefulSetCondition: condition('a StatefulSet', ''),
  StatefulSetList: list('StatefulSet'),
  StatefulSetOrdinals: {
    $: 'The range of ordinals a StatefulSet gives its pods.',
    start: 'First ordinal: pods are numbered start to start+replicas-1. Defaults to 0.',
  },
  StatefulSetPersistentVolumeClaimRetentionPolicy: {
    $: 'Whether claims created from volumeClaimTemplates outlive the deletion of the StatefulSet or a scale-down.',
    whenDeleted: 'Retain (keep the claims) or Delete (remove them) when the StatefulSet itself is deleted. Defaults to Retain.',
    whenScaled: 'Retain or Delete the claims of pods removed by a scale-down. Defaults to Retain.',
  },
  StatefulSetSpec: {
    $: 'The desired behaviour of a StatefulSet.',
    replicas: 'Number of pods wanted. Defaults to 1.',
    selector: SELECTOR,
    template: 'Pod template for every ordinal; each pod gets a unique name and hostname from the StatefulSet name and its ordinal.',
    volumeClaimTemplates: 'Claims created once per pod (named template-statefulset-ordinal) and mounted by the template\'s volumes of the same name. Immutable.',
    serviceName: 'Name of the headless Service that gives the pods their network identity (pod.service.namespace.svc); it must exist and is not created for you. Immutable.',
    podManagementPolicy: 'OrderedReady (create and delete pods one at a time, in ordinal order) or Parallel (all at once). Defaults to OrderedReady; immutable.',
    updateStrategy: 'How pods are replaced when the template changes. Defaults to RollingUpdate with partition 0.',
    revisionHistoryLimit: HISTORY,
    minReadySeconds: MIN_READY,
    persistentVolumeClaimRetentionPolicy: 'Whether claims from volumeClaimTemplates are kept or deleted when pods go away. Defaults to Retain for both cases.',
    ordinals: 'Where pod numbering starts. Defaults to ordinal 0.',
  },
  StatefulSetStatus: {
    $: 'Counts and revisions of a StatefulSet\'s pods.',
    observedGeneration: OBSERVED_GENERATION,
    replicas: 'Pods that currently exist for this StatefulSet, whatever their revision.',
    readyReplicas: 'Number of pods that are Ready.',
    currentReplicas: 'Number of pods made from the revision named in currentRevision.',
    updatedReplicas: 'Number of pods made from the revision named in updateRevision.',
    currentRevision: 'Name of the ControllerRevision the pods in ordinals [0, currentReplicas) were made from.',
    updateRevision: 'Name of the ControllerRevision the pods in [replicas-updatedReplicas, replicas) are made from: the latest one.',
    collisionCount: COLLISIONS,
    conditions: 'Conditions reported for the StatefulSet, one per type.',
    availableReplicas: 'Pods counted as available, having stayed ready for minReadySeconds or longer.',
  },
  StatefulSetUpdateStrategy: {
    $: 'How a StatefulSet replaces its pods after a template change.',
    type: 'RollingUpdate (replace pods automatically, highest ordinal first) or OnDelete (new pods only once old ones are deleted). Defaults to RollingUpdate.',
    rollingUpdate: 'Pacing of a rolling update; only allowed when type is RollingUpdate.',
  },
};

defineDocs('apps.v1', docs);
export default docs;
