import { defineDocs } from './define.ts';
import * as c from './shared/certificates.ts';

const docs = {
  CertificateSigningRequest: c.CertificateSigningRequest,
  CertificateSigningRequestCondition: c.CertificateSigningRequestCondition,
  CertificateSigningRequestList: c.CertificateSigningRequestList,
  CertificateSigningRequestSpec: {
    ...c.CertificateSigningRequestSpec,
    signerName: 'The signer asked to issue the certificate, a qualified name such as kubernetes.io/kube-apiserver-client. When unset, it is derived from the request, falling back to kubernetes.io/legacy-unknown.',
    usages: 'Key usages wanted, such as digital signature, key encipherment, client auth or server auth. Defaults to digital signature and key encipherment.',
  },
  CertificateSigningRequestStatus: c.CertificateSigningRequestStatus,
  ClusterTrustBundle: c.ClusterTrustBundle,
  ClusterTrustBundleList: c.ClusterTrustBundleList,
  ClusterTrustBundleSpec: c.ClusterTrustBundleSpec,
  ExtraValue: c.ExtraValue,
};

defineDocs('certificates.v1beta1', docs);
export default docs;
