import { defineDocs } from './define.ts';
import * as a from './shared/admissionregistration.ts';

const docs = {
  ...a.VALIDATING_POLICY,
  MutatingWebhook: a.MutatingWebhook,
  MutatingWebhookConfiguration: a.MutatingWebhookConfiguration,
  MutatingWebhookConfigurationList: a.MutatingWebhookConfigurationList,
  Rule: a.Rule,
  RuleWithOperations: a.RuleWithOperations,
  ServiceReference: a.ServiceReference,
  ValidatingWebhook: a.ValidatingWebhook,
  ValidatingWebhookConfiguration: a.ValidatingWebhookConfiguration,
  ValidatingWebhookConfigurationList: a.ValidatingWebhookConfigurationList,
  WebhookClientConfig: a.WebhookClientConfig,
};

defineDocs('admissionregistration.v1', docs);
export default docs;
