/**
 * Defaulting for networking.k8s.io/v1 (k8s.io/kubernetes/pkg/apis/networking/v1/defaults.go): network policy
 * ports default to TCP and a policy without policyTypes gets Ingress (plus Egress when it has egress rules);
 * an IngressClass parameters reference without a scope is Cluster-scoped.
 */
type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isObj) : []);

export function networkPolicyDefaults(np: J): void {
  const spec = isObj(np['spec']) ? np['spec'] : undefined;
  if (!spec) return;
  for (const rule of [...list(spec['ingress']), ...list(spec['egress'])]) {
    for (const port of list(rule['ports'])) if (port['protocol'] === undefined || port['protocol'] === null) port['protocol'] = 'TCP';
  }
  if (!Array.isArray(spec['policyTypes']) || spec['policyTypes'].length === 0) {
    spec['policyTypes'] = Array.isArray(spec['egress']) && spec['egress'].length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

export function ingressClassDefaults(ic: J): void {
  const spec = isObj(ic['spec']) ? ic['spec'] : undefined;
  const params = spec && isObj(spec['parameters']) ? spec['parameters'] : undefined;
  if (params && (params['scope'] === undefined || params['scope'] === null)) params['scope'] = 'Cluster';
}
