/**
 * What the two halves of the core/v1 descriptions share: metadata and list texts, the volume-source phrases and the
 * fields of a container (used by Container and, with changes, by EphemeralContainerCommon).
 */
import type { TypeDocs } from '../define.ts';

export const OBJECT_METADATA = 'Standard object metadata: name, namespace, labels, annotations, owners, finalizers and the fields the server maintains.';
export const CLUSTER_OBJECT_METADATA = 'Standard object metadata of this cluster-scoped object: name, labels, annotations, owners, finalizers and the fields the server maintains.';
export const LIST_METADATA = 'Metadata of the list as a whole: the resourceVersion it was read at and, for paged reads, the continue token.';

/** A `…List` kind. */
export function list(things: string): TypeDocs {
  return { $: `A list of ${things}, as a list call returns it.`, metadata: LIST_METADATA, items: `The ${things}.` };
}

// Shared by the volume sources (in pods and in persistent volumes).
export const FS_TYPE = 'Filesystem type of the volume, such as ext4, xfs or ntfs; the node must support it. Treated as ext4 when empty.';
export const READ_ONLY = 'Mount the volume read-only. Default false.';
export const IN_TREE_MIGRATED = (driver: string) => `Deprecated: the in-tree plugin is gone and operations are redirected to the ${driver} CSI driver.`;
export const IN_TREE_REMOVED = 'Deprecated: the in-tree plugin is no longer supported.';
export const DEFAULT_MODE = (mode: string) => `Permission bits of the files created in the volume, as an octal number from 0000 to 0777 in YAML (a decimal number in JSON); ${mode} when unset. An item's own mode wins; fsGroup and other options may add bits.`;
export const FILE_MODE = 'Permission bits of this file, 0000 to 0777 (octal in YAML, decimal in JSON); the volume\'s defaultMode when unset. fsGroup and other options may add bits.';
export const ITEMS = (what: string) => `Which keys of the ${what} to project, and to which relative paths; every key becomes a file named after it when empty. A listed key that is missing fails the volume unless optional is set.`;
export const PORT_PROTOCOL = 'The transport protocol: TCP, UDP or SCTP. Defaults to TCP.';
export const CONDITION_STATUS = 'Whether the condition holds: True, False or Unknown.';
export const TRANSITION_TIME = 'When the condition last changed from one status to another.';
export const CONDITION_REASON = 'A CamelCase word giving the cause of the last transition, for programs to match.';
export const CONDITION_MESSAGE = 'Details of the last transition for humans.';
export const AFFINITY_REQUIRED = (what: string) => `Rules the node must meet for the pod to be scheduled there (${what}). Checked only at scheduling time: a pod already running stays when the rules stop holding.`;

/** The fields of a container, shared by Container and EphemeralContainerCommon. */
export const CONTAINER: TypeDocs = {
  name: 'Name of the container, a DNS label unique among all containers of the pod (init and ephemeral ones included). Cannot be changed.',
  image: 'The image to run, as a reference such as nginx:1.27 or registry.example.com/app@sha256:<digest>; how it is pulled follows imagePullPolicy. Workload templates may leave it for tooling to fill in.',
  command: 'The program to run and its first arguments, replacing the image\'s ENTRYPOINT; the image\'s own is used when empty. Not run in a shell. $(NAME) expands to the value of environment variable NAME ($$ writes a literal $). Cannot be changed.',
  args: 'Arguments for the program, replacing the image\'s CMD; the image\'s own are used when empty. $(NAME) expands to the value of environment variable NAME ($$ writes a literal $). Cannot be changed.',
  workingDir: 'Directory the program starts in; the image\'s default when empty. Cannot be changed.',
  ports: 'Ports the container listens on. Mostly informational: a port left out is still reachable on the pod IP; a named entry lets services and probes refer to it by name. Cannot be changed.',
  envFrom: 'ConfigMaps and Secrets whose keys all become environment variables. A key present in several sources takes the value of the last one; entries of env win over all of them. Cannot be changed.',
  env: 'Environment variables to set in the container, each with a literal value or a value taken from elsewhere. Later entries can refer to earlier ones with $(NAME). Cannot be changed.',
  resources: 'Compute resources the container asks for (requests, used to schedule the pod) and may not exceed (limits). For pods, CPU and memory may be changed in place through the resize sub-resource; otherwise they cannot be changed.',
  resizePolicy: 'For each resource (cpu, memory), whether changing it in place restarts the container; NotRequired when not listed.',
  restartPolicy: 'Only for init containers: Always turns the container into a sidecar, started in order with the other init containers but then kept running (and restarted) for the life of the pod. No other value exists; regular containers must leave it unset.',
  volumeMounts: 'Volumes of the pod to mount into the container\'s filesystem, and where. Cannot be changed.',
  volumeDevices: 'Volumes of the pod (raw block persistent volumes) to expose to the container as block devices.',
  livenessProbe: 'Periodic check that the container is still alive; the kubelet restarts the container when it fails. Cannot be changed.',
  readinessProbe: 'Periodic check that the container is ready for traffic; while it fails the pod is left out of service endpoints. Cannot be changed.',
  startupProbe: 'Check that the container has started; liveness and readiness probes wait until it succeeds, and the container is restarted if it fails. Useful for slow starters. Cannot be changed.',
  lifecycle: 'Handlers the kubelet runs right after the container starts and right before it is stopped. Cannot be changed.',
  terminationMessagePath: 'Path of the file whose contents, written by the program, become the termination message in the container status (at most 4096 bytes are read, 12 KiB for all containers together). Defaults to /dev/termination-log; cannot be changed.',
  terminationMessagePolicy: 'Where the termination message comes from: File (the file at terminationMessagePath; the default) or FallbackToLogsOnError (that file, or when it is empty and the container failed, the end of the log: up to 2048 bytes or 80 lines). Cannot be changed.',
  imagePullPolicy: 'When the kubelet pulls the image: Always, IfNotPresent (only when not on the node) or Never (the image must already be there). Defaults to Always for the :latest tag or no tag, IfNotPresent otherwise. Cannot be changed.',
  securityContext: 'Security settings for this container (user, capabilities, privilege, profiles); where set, they override those of the pod\'s securityContext.',
  stdin: 'Keep a stdin buffer open for the container, so that it can be attached to; without it reads from stdin see end-of-file. Default false.',
  stdinOnce: 'With stdin: close stdin when the first attached session ends, so that the program sees end-of-file, and keep it closed until the container restarts. Default false.',
  tty: 'Give the container a terminal (TTY); needs stdin as well. Default false.',
};

/** An ephemeral container has a container's fields, but many of them may not be set. */
export const NOT_FOR_EPHEMERAL = 'Not allowed for ephemeral containers.';
export const EPHEMERAL_CONTAINER: TypeDocs = {
  ...CONTAINER,
  name: 'Name of the ephemeral container, a DNS label unique among all containers of the pod.',
  ports: `${NOT_FOR_EPHEMERAL} It may still listen on the pod IP, like any process of the pod.`,
  resources: `${NOT_FOR_EPHEMERAL} An ephemeral container uses the resources already given to the pod.`,
  resizePolicy: NOT_FOR_EPHEMERAL,
  restartPolicy: `${NOT_FOR_EPHEMERAL} Ephemeral containers are never restarted.`,
  volumeMounts: 'Volumes of the pod to mount into the container\'s filesystem, and where; subPath and subPathExpr may not be used.',
  livenessProbe: NOT_FOR_EPHEMERAL,
  readinessProbe: NOT_FOR_EPHEMERAL,
  startupProbe: NOT_FOR_EPHEMERAL,
  lifecycle: NOT_FOR_EPHEMERAL,
};
