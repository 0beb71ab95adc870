/** Feature gates: the v1.33 registry and the `--feature-gates` parser/validator. */
export { FeatureGates, FeatureGateError, type FeatureGateOptions, type FeatureGateReader } from './gates.ts';
export { KUBE_1_33_GATES, ALL_ALPHA_GATE, ALL_BETA_GATE, type FeatureSpec, type FeatureStage } from './known-gates.ts';
export { klogLine } from './klog.ts';
export { applyServingSwitches, servingSwitches, withServingGates, type ServingSwitches } from './serving.ts';
