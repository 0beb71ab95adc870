// Protobuf message descriptions of policy (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('policy.v1', {
  Eviction: { metadata: '1 ObjectMeta', deleteOptions: '2 *DeleteOptions' },
  PodDisruptionBudget: { metadata: '1 ObjectMeta', spec: '2 PodDisruptionBudgetSpec', status: '3 PodDisruptionBudgetStatus' },
  PodDisruptionBudgetList: { metadata: '1 ListMeta', items: '2 ![]PodDisruptionBudget' },
  PodDisruptionBudgetSpec: { minAvailable: '1 *IntOrString', selector: '2 *LabelSelector patch=replace', maxUnavailable: '3 *IntOrString', unhealthyPodEvictionPolicy: '4 *string' },
  PodDisruptionBudgetStatus: { observedGeneration: '1 int64', disruptedPods: '2 map<string,Time>', disruptionsAllowed: '3 !int32', currentHealthy: '4 !int32', desiredHealthy: '5 !int32', expectedPods: '6 !int32', conditions: '7 []Condition list=map(type) patch=merge(type)' },
});

