/** Descriptions for certificates.k8s.io, written for v1 and reused by v1beta1 and v1alpha1 (see ../define.ts). */
import { CLUSTER_OBJECT_METADATA, condition, list } from './common.ts';

export const CertificateSigningRequest = {
  $: 'A request for a signer to issue an X.509 certificate; once approved, the named signer puts the certificate in status.',
  metadata: CLUSTER_OBJECT_METADATA,
  spec: 'The PKCS#10 request, the signer chosen, the usages wanted and who asked; immutable.',
  status: 'Approval conditions and, once issued, the certificate.',
};

export const CertificateSigningRequestCondition = {
  ...condition('a CertificateSigningRequest', 'Approved, Denied or Failed; Approved and Denied exclude each other, and none of them can be removed once added.'),
  lastUpdateTime: 'When the condition was last written (RFC 3339).',
};

export const CertificateSigningRequestList = list('CertificateSigningRequest');

export const CertificateSigningRequestSpec = {
  $: 'What a CertificateSigningRequest asks for; all of it is immutable.',
  request: 'The PKCS#10 certificate request, PEM-encoded as a CERTIFICATE REQUEST block. Required.',
  signerName: 'The signer asked to issue the certificate, a qualified name such as kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet or kubernetes.io/kubelet-serving, or a custom example.com/name. Required.',
  expirationSeconds: 'Lifetime wanted for the certificate, in seconds; at least 600. Signers may ignore it or issue a shorter one.',
  usages: 'Key usages wanted, such as digital signature, key encipherment, client auth or server auth; the signer decides which it grants. Required.',
  username: 'The requester\'s user name, copied in by the API server at creation.',
  uid: 'The requester\'s UID, copied in by the API server at creation.',
  groups: 'The requester\'s groups, copied in by the API server at creation.',
  extra: 'The requester\'s extra authentication attributes, copied in by the API server at creation.',
};

export const CertificateSigningRequestStatus = {
  $: 'The state of a CertificateSigningRequest.',
  conditions: 'Approved, Denied and Failed conditions; changed through the approval subresource.',
  certificate: 'The issued certificate chain, PEM-encoded, written by the signer through the status subresource once the request is approved; empty until then.',
};

export const ExtraValue = {
  $: 'A list of strings: the values of one extra attribute of the requesting user.',
  items: 'The values.',
};

export const ClusterTrustBundle = {
  $: 'A set of trusted X.509 CA certificates published cluster-wide, optionally tied to a signer; pods can mount them through projected volumes.',
  metadata: 'Standard object metadata. With a signerName, the name must start with that signer name, its slashes turned into colons, followed by a colon.',
  spec: 'The signer and the certificates.',
};

export const ClusterTrustBundleList = list('ClusterTrustBundle');

export const ClusterTrustBundleSpec = {
  $: 'The contents of a ClusterTrustBundle.',
  signerName: 'Signer whose trust anchors this bundle carries; writing such a bundle needs the attest verb on that signer. Unset for bundles tied to no signer. Immutable.',
  trustBundle: 'One or more PEM CERTIFICATE blocks, with nothing between them but whitespace; order is not significant and duplicates may be dropped. Required.',
};

