/**
 * Every admission plugin kube-apiserver v1.33 knows, in the order the chain runs them (kube's AllOrderedPlugins;
 * the order of `--enable-admission-plugins` never matters), which are on by default, and the factories the
 * plugin modules register (src/admission/plugins/index.ts loads them all).
 */
import type { PluginFactory } from './types.ts';

export const ORDERED_PLUGINS: readonly string[] = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'PodTopologyLabels',
  // Webhooks, policies, quota and deny come last, as in kube.
  'MutatingAdmissionPolicy',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

/** On unless `--disable-admission-plugins` names them (kube-apiserver v1.33's default set). */
export const DEFAULT_ON_PLUGINS: ReadonlySet<string> = new Set([
  'NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'DefaultStorageClass', 'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota',
  'StorageObjectInUseProtection', 'Priority', 'TaintNodesByCondition', 'RuntimeClass', 'CertificateApproval',
  'CertificateSigning', 'ClusterTrustBundleAttest', 'CertificateSubjectRestriction', 'DefaultIngressClass',
  'PodSecurity', 'PodTopologyLabels', 'MutatingAdmissionPolicy', 'ValidatingAdmissionPolicy',
]);

const factories = new Map<string, PluginFactory>();

/** Called once per plugin by its module. */
export function registerPlugin(name: string, factory: PluginFactory): void {
  if (!ORDERED_PLUGINS.includes(name)) throw new Error(`admission plugin ${name} is not in ORDERED_PLUGINS`);
  if (factories.has(name)) throw new Error(`admission plugin ${name} registered twice`);
  factories.set(name, factory);
}

export function pluginFactory(name: string): PluginFactory | undefined {
  return factories.get(name);
}
