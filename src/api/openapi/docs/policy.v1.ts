import { defineDocs } from './define.ts';
import { list, OBJECT_METADATA, OBSERVED_GENERATION } from './shared/common.ts';

const docs = {
  Eviction: {
    $: 'Asks to evict a pod, posted to its eviction subresource; unlike a plain delete, it is refused (429) while it would break a PodDisruptionBudget.',
    metadata: 'Name and namespace of the pod to evict.',
    deleteOptions: 'Options of the resulting delete, such as a grace period or preconditions.',
  },
  PodDisruptionBudget: {
    $: 'Limits how many pods of a set may be down at once through voluntary disruptions such as evictions during a node drain.',
    metadata: OBJECT_METADATA,
    spec: 'The pods covered and how many must stay available.',
    status: 'How many pods are healthy and how many disruptions are allowed now; read-only.',
  },
  PodDisruptionBudgetList: list('PodDisruptionBudget'),
  PodDisruptionBudgetSpec: {
    $: 'The desired behaviour of a PodDisruptionBudget.',
    minAvailable: 'Pods that must stay available after an eviction, as a count or a percentage of the expected pods; exclusive with maxUnavailable.',
    selector: 'Label query for the pods covered; the empty selector covers every pod of the namespace, unset covers none.',
    maxUnavailable: 'Pods that may be unavailable after an eviction, as a count or a percentage of the expected pods; exclusive with minAvailable.',
    unhealthyPodEvictionPolicy: 'When pods that run but are not Ready may be evicted: IfHealthyBudget (only while the budget is met) or AlwaysAllow (always). Defaults to IfHealthyBudget.',
  },
  PodDisruptionBudgetStatus: {
    $: 'The observed state of a PodDisruptionBudget.',
    observedGeneration: OBSERVED_GENERATION,
    disruptedPods: 'Pods whose eviction the API server granted but that the controller has not yet seen go, with the time of the grant; entries expire after a few minutes.',
    disruptionsAllowed: 'How many more pods may be evicted now.',
    currentHealthy: 'Number of covered pods that are healthy now.',
    desiredHealthy: 'Fewest healthy pods the budget requires.',
    expectedPods: 'Number of pods the budget counts, from the scale of their controllers.',
    conditions: 'Conditions of the budget; DisruptionAllowed says whether an eviction may happen now, with reasons such as SufficientPods or InsufficientPods.',
  },
};

defineDocs('policy.v1', docs);
export default docs;
