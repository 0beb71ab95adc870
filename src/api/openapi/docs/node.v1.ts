import { defineDocs } from './define.ts';
import { CLUSTER_OBJECT_METADATA, list } from './shared/common.ts';

const docs = {
  Overhead: {
    $: 'Resources a pod uses because of its runtime, such as a sandbox VM, on top of what its containers request.',
    podFixed: 'Fixed amount of each resource (cpu, memory…) added to every pod of this runtime class, for scheduling, quotas and cgroup sizing.',
  },
  RuntimeClass: {
    $: 'A container runtime configuration that pods can select by name through runtimeClassName, such as a sandboxed runtime.',
    metadata: CLUSTER_OBJECT_METADATA,
    handler: 'Name of the runtime configuration on the nodes (the CRI handler) that runs these pods; a lowercase DNS label. Required; immutable.',
    overhead: 'Extra resources every pod of this class is charged for; applied to pods when they are admitted.',
    scheduling: 'Node constraints so that pods of this class land only on nodes that support it; unset means every node does.',
  },
  RuntimeClassList: list('RuntimeClass', 'RuntimeClasses'),
  Scheduling: {
    $: 'Where pods of a runtime class can run; merged into each pod at admission.',
    nodeSelector: 'Labels a node must have to run pods of this class; merged with the pod\'s own nodeSelector, conflicts rejected.',
    tolerations: 'Tolerations added to pods of this class, so they may run on nodes tainted for it.',
  },
};

defineDocs('node.v1', docs);
export default docs;
