/**
 * Defaulting for flowcontrol.apiserver.k8s.io/v1 (k8s.io/kubernetes/pkg/apis/flowcontrol/v1/defaults.go):
 * FlowSchema matchingPrecedence 1000 when 0; a limited priority level's nominalConcurrencyShares 30 when left
 * out (an explicit 0 stays 0 in v1) and lendablePercent 0; queuing handSize 8, queues 64, queueLengthLimit
 * 50 when 0; an exempt priority level's nominalConcurrencyShares and lendablePercent 0.
 */
type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);

const nilOr = (o: J, key: string, value: unknown): void => {
  if (o[key] === undefined || o[key] === null) o[key] = value;
};
const zeroOr = (o: J, key: string, value: number): void => {
  if (o[key] === undefined || o[key] === null || o[key] === 0) o[key] = value;
};

export function flowSchemaDefaults(fs: J): void {
  const spec = isObj(fs['spec']) ? fs['spec'] : undefined;
  if (spec) zeroOr(spec, 'matchingPrecedence', 1000);
}

export function priorityLevelConfigurationDefaults(plc: J): void {
  const spec = isObj(plc['spec']) ? plc['spec'] : undefined;
  if (!spec) return;
  const limited = isObj(spec['limited']) ? spec['limited'] : undefined;
  if (limited) {
    nilOr(limited, 'nominalConcurrencyShares', 30);
    nilOr(limited, 'lendablePercent', 0);
    const lr = isObj(limited['limitResponse']) ? limited['limitResponse'] : undefined;
    const q = lr && isObj(lr['queuing']) ? lr['queuing'] : undefined;
    if (q) {
      zeroOr(q, 'handSize', 8);
      zeroOr(q, 'queues', 64);
      zeroOr(q, 'queueLengthLimit', 50);
    }
  }
  const exempt = isObj(spec['exempt']) ? spec['exempt'] : undefined;
  if (exempt) {
    nilOr(exempt, 'nominalConcurrencyShares', 0);
    nilOr(exempt, 'lendablePercent', 0);
  }
}
