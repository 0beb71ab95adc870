// Protobuf message descriptions of certificates (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('certificates.v1', {
  CertificateSigningRequest: { metadata: '1 ObjectMeta', spec: '2 !CertificateSigningRequestSpec', status: '3 CertificateSigningRequestStatus' },
  CertificateSigningRequestCondition: { type: '1 !string', status: '6 !string', reason: '2 string', message: '3 string', lastUpdateTime: '4 Time', lastTransitionTime: '5 Time' },
  CertificateSigningRequestList: { metadata: '1 ListMeta', items: '2 ![]CertificateSigningRequest' },
  CertificateSigningRequestSpec: { request: '1 !bytes list=atomic', signerName: '7 !string', expirationSeconds: '8 *int32', usages: '5 []string list=atomic', username: '2 string', uid: '3 string', groups: '4 []string list=atomic', extra: '6 map<string,ExtraValue>' },
  CertificateSigningRequestStatus: { conditions: '1 []CertificateSigningRequestCondition list=map(type)', certificate: '2 bytes list=atomic' },
  ExtraValue: { items: '1 []string' },
}, {"ExtraValue": "stringlist"});

definePackage('certificates.v1beta1', {
  CertificateSigningRequest: { metadata: '1 ObjectMeta', spec: '2 !CertificateSigningRequestSpec', status: '3 CertificateSigningRequestStatus' },
  CertificateSigningRequestCondition: { type: '1 !string', status: '6 !string', reason: '2 string', message: '3 string', lastUpdateTime: '4 Time', lastTransitionTime: '5 Time' },
  CertificateSigningRequestList: { metadata: '1 ListMeta', items: '2 ![]CertificateSigningRequest' },
  CertificateSigningRequestSpec: { request: '1 !bytes list=atomic', signerName: '7 *string', expirationSeconds: '8 *int32', usages: '5 []string list=atomic', username: '2 string', uid: '3 string', groups: '4 []string list=atomic', extra: '6 map<string,ExtraValue>' },
  CertificateSigningRequestStatus: { conditions: '1 []CertificateSigningRequestCondition list=map(type)', certificate: '2 bytes list=atomic' },
  ClusterTrustBundle: { metadata: '1 ObjectMeta', spec: '2 !ClusterTrustBundleSpec' },
  ClusterTrustBundleList: { metadata: '1 ListMeta', items: '2 ![]ClusterTrustBundle' },
  ClusterTrustBundleSpec: { signerName: '1 string', trustBundle: '2 !string' },
  ExtraValue: { items: '1 []string' },
}, {"ExtraValue": "stringlist"});

definePackage('certificates.v1alpha1', {
  ClusterTrustBundle: { metadata: '1 ObjectMeta', spec: '2 !ClusterTrustBundleSpec' },
  ClusterTrustBundleList: { metadata: '1 ListMeta', items: '2 ![]ClusterTrustBundle' },
  ClusterTrustBundleSpec: { signerName: '1 string', trustBundle: '2 !string' },
});

