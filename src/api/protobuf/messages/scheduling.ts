// Protobuf message descriptions of scheduling (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('scheduling.v1', {
  PriorityClass: { metadata: '1 ObjectMeta', value: '2 !int32', globalDefault: '3 bool', description: '4 string', preemptionPolicy: '5 *string' },
  PriorityClassList: { metadata: '1 ListMeta', items: '2 ![]PriorityClass' },
});

