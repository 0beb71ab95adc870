/**
 * Defaulting for admissionregistration.k8s.io/v1 (k8s.io/kubernetes/pkg/apis/admissionregistration/v1/defaults.go):
 *   - webhooks: failurePolicy Fail, matchPolicy Equivalent, namespaceSelector and objectSelector `{}`,
 *     timeoutSeconds 10, and for mutating webhooks reinvocationPolicy Never; every rule's scope `*`; a
 *     service reference's port 443. (sideEffects and admissionReviewVersions are required in v1: no default.)
 *   - ValidatingAdmissionPolicy: failurePolicy Fail; its matchConstraints get matchPolicy Equivalent and empty
 *     selectors, and every resource rule (and exclusion) scope `*`;
 *   - ValidatingAdmissionPolicyBinding: the same MatchResources defaults on matchResources when given.
 */
type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isObj) : []);

function setIfMissing(o: J, key: string, value: unknown): void {
  if (o[key] === undefined || o[key] === null) o[key] = value;
}

/** SetDefaults_Rule (also reached through RuleWithOperations and NamedRuleWithOperations). */
function ruleDefaults(rule: J): void {
  setIfMissing(rule, 'scope', '*');
}

function webhookDefaults(w: J, mutating: boolean): void {
  setIfMissing(w, 'failurePolicy', 'Fail');
  setIfMissing(w, 'matchPolicy', 'Equivalent');
  setIfMissing(w, 'namespaceSelector', {});
  setIfMissing(w, 'objectSelector', {});
  setIfMissing(w, 'timeoutSeconds', 10);
  if (mutating) setIfMissing(w, 'reinvocationPolicy', 'Never');
  for (const r of list(w['rules'])) ruleDefaults(r);
  const svc = isObj(w['clientConfig']) && isObj(w['clientConfig']['service']) ? w['clientConfig']['service'] : undefined;
  if (svc) setIfMissing(svc, 'port', 443);
}

export function mutatingWebhookConfigurationDefaults(o: J): void {
  for (const w of list(o['webhooks'])) webhookDefaults(w, true);
}

export function validatingWebhookConfigurationDefaults(o: J): void {
  for (const w of list(o['webhooks'])) webhookDefaults(w, false);
}

/** SetDefaults_MatchResources plus the rules inside it. */
function matchResourcesDefaults(m: unknown): void {
  if (!isObj(m)) return;
  setIfMissing(m, 'matchPolicy', 'Equivalent');
  setIfMissing(m, 'namespaceSelector', {});
  setIfMissing(m, 'objectSelector', {});
  for (const r of [...list(m['resourceRules']), ...list(m['excludeResourceRules'])]) ruleDefaults(r);
}

export function validatingAdmissionPolicyDefaults(o: J): void {
  const spec = isObj(o['spec']) ? o['spec'] : undefined;
  if (!spec) return;
  setIfMissing(spec, 'failurePolicy', 'Fail');
  matchResourcesDefaults(spec['matchConstraints']);
}

export function validatingAdmissionPolicyBindingDefaults(o: J): void {
  const spec = isObj(o['spec']) ? o['spec'] : undefined;
  if (spec) matchResourcesDefaults(spec['matchResources']);
}
