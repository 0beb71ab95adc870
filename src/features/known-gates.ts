/**
 * kube-apiserver v1.33's feature gates that matter to Keelson, with their v1.33 stage and default (facts from
 * k8s.io/apiserver/pkg/features and k8s.io/kubernetes/pkg/features at v1.33). `lockToDefault` gates refuse any
 * other value. `AllAlpha`/`AllBeta` are component-base's meta gates (they flip every alpha/beta gate not set
 * explicitly).
 */
export type FeatureStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  readonly default: boolean;
  readonly stage: FeatureStage;
  readonly lockToDefault?: boolean;
}

const alpha = (): FeatureSpec => ({ default: false, stage: 'ALPHA' });
const beta = (on: boolean): FeatureSpec => ({ default: on, stage: 'BETA' });
const ga = (locked: boolean): FeatureSpec => ({ default: true, stage: 'GA', lockToDefault: locked });
const deprecated = (on: boolean, locked = false): FeatureSpec => ({ default: on, stage: 'DEPRECATED', lockToDefault: locked });

export const ALL_ALPHA_GATE = 'AllAlpha';
export const ALL_BETA_GATE = 'AllBeta';

/** The registered gates (name → v1.33 spec). */
export const KUBE_1_33_GATES: Readonly<Record<string, FeatureSpec>> = Object.freeze({
  [ALL_ALPHA_GATE]: alpha(),
  [ALL_BETA_GATE]: beta(false),
  // k8s.io/apiserver
  AggregatedDiscoveryRemoveBetaType: deprecated(true),
  AllowParsingUserUIDFromCertAuth: beta(true),
  AllowUnsafeMalformedObjectDeletion: alpha(),
  AnonymousAuthConfigurableEndpoints: beta(true),
  APIResponseCompression: beta(true),
  APIServerIdentity: beta(true),
  APIServerTracing: beta(true),
  APIServingWithRoutine: alpha(),
  AuthorizeWithSelectors: beta(true),
  BtreeWatchCache: ga(true),
  CBORServingAndStorage: alpha(),
  ConcurrentWatchObjectDecode: beta(false),
  ConsistentListFromCache: beta(true),
  CoordinatedLeaderElection: beta(false),
  KMSv1: deprecated(false),
  ListFromCacheSnapshot: alpha(),
  MutatingAdmissionPolicy: alpha(),
  OpenAPIEnums: beta(true),
  RemoteRequestHeaderUID: beta(true),
  ResilientWatchCacheInitialization: beta(true),
  RetryGenerateName: ga(true),
  SeparateCacheWatchRPC: deprecated(false),
  StorageVersionAPI: alpha(),
  StorageVersionHash: beta(true),
  StreamingCollectionEncodingToJSON: beta(true),
  StreamingCollectionEncodingToProtobuf: beta(true),
  StrictCostEnforcementForVAP: ga(true),
  StrictCostEnforcementForWebhooks: ga(true),
  StructuredAuthenticationConfiguration: beta(true),
  StructuredAuthorizationConfiguration: ga(true),
  UnauthenticatedHTTP2DOSMitigation: beta(true),
  WatchCacheInitializationPostStartHook: beta(false),
  WatchFromStorageWithoutResourceVersion: deprecated(false, true),
  // v1.33 turned WatchList back off by default (still beta).
  WatchList: beta(false),
  // k8s.io/kubernetes/pkg/features
  AllowInsecureKubeletCertificateSigningRequests: deprecated(false),
  AuthorizeNodeWithSelectors: beta(true),
  ClusterTrustBundle: beta(false),
  DynamicResourceAllocation: beta(false),
  // GA in 1.33 but not locked: it can still be turned off.
  MultiCIDRServiceAllocator: ga(false),
  OrderedNamespaceDeletion: beta(true),
  PodTopologyLabelsAdmission: alpha(),
  RecoverVolumeExpansionFailure: beta(true),
  SeparateTaintEvictionController: beta(true),
  ServiceAccountNodeAudienceRestriction: beta(true),
  UserNamespacesPodSecurityStandards: alpha(),
});
