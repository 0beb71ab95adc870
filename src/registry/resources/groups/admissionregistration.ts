/** admissionregistration.k8s.io: webhook configurations and validating admission policies. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { statusSub, API_EXT } from '../../../api/resources/define.ts';
import * as ac from '../other/columns-admin.ts';
import { statusStrategy } from '../strategy-kit.ts';
import * as d from '../admissionregistration/defaults.ts';

export const admissionregistration: GroupSpec = {
  group: 'admissionregistration.k8s.io',
  versions: [{ version: 'v1', resources: [
    {
      resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, fields: ['webhooks'], categories: API_EXT, tableColumns: ac.mutatingWebhookColumns,
      strategy: statusStrategy({ generation: true, allowCreateOnUpdate: true }, { defaults: d.mutatingWebhookConfigurationDefaults }),
    },
    {
      resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false, categories: API_EXT, subresources: [statusSub], tableColumns: ac.validatingAdmissionPolicyColumns,
      strategy: statusStrategy({ status: true, generation: true }, { defaults: d.validatingAdmissionPolicyDefaults }),
    },
    {
      resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, categories: API_EXT, tableColumns: ac.validatingAdmissionPolicyBindingColumns,
      strategy: statusStrategy({ generation: true }, { defaults: d.validatingAdmissionPolicyBindingDefaults }),
    },
    {
      resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, fields: ['webhooks'], categories: API_EXT, tableColumns: ac.validatingWebhookColumns,
      strategy: statusStrategy({ generation: true, allowCreateOnUpdate: true }, { defaults: d.validatingWebhookConfigurationDefaults }),
    },
  ] }],
};
