import { defineDocs } from './define.ts';
import * as a from './shared/admissionregistration.ts';

/** The v1beta1 webhooks kept older defaults and allowed side-effect classes that v1 dropped. */
const BETA_WEBHOOK = {
  failurePolicy: 'Ignore (admit the request) or Fail (reject it) when the webhook cannot be reached or answers with an error. Defaults to Ignore in this version.',
  matchPolicy: 'Exact (only the listed group, version and resource) or Equivalent (also the same resource under another group or version, converted to a listed one). Defaults to Exact in this version.',
  sideEffects: 'Whether the webhook changes anything outside the request: Unknown, Some, None or NoneOnDryRun; dry-run requests are rejected unless None or NoneOnDryRun. Defaults to Unknown.',
  timeoutSeconds: 'Seconds to wait for the webhook\'s answer before the failure policy applies; between 1 and 30. Defaults to 30 in this version.',
  admissionReviewVersions: 'AdmissionReview versions the webhook accepts, most preferred first; the API server sends the first it supports. Defaults to v1beta1.',
};

const docs = {
  ...a.VALIDATING_POLICY,
  MutatingWebhook: { ...a.MutatingWebhook, ...BETA_WEBHOOK },
  MutatingWebhookConfiguration: a.MutatingWebhookConfiguration,
  MutatingWebhookConfigurationList: a.MutatingWebhookConfigurationList,
  ServiceReference: a.ServiceReference,
  ValidatingWebhook: { ...a.ValidatingWebhook, ...BETA_WEBHOOK },
  ValidatingWebhookConfiguration: a.ValidatingWebhookConfiguration,
  ValidatingWebhookConfigurationList: a.ValidatingWebhookConfigurationList,
  WebhookClientConfig: a.WebhookClientConfig,
};

defineDocs('admissionregistration.v1beta1', docs);
export default docs;
