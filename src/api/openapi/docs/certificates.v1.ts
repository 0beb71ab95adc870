import { defineDocs } from './define.ts';
import * as c from './shared/certificates.ts';

const docs = {
  CertificateSigningRequest: c.CertificateSigningRequest,
  CertificateSigningRequestCondition: c.CertificateSigningRequestCondition,
  CertificateSigningRequestList: c.CertificateSigningRequestList,
  CertificateSigningRequestSpec: c.CertificateSigningRequestSpec,
  CertificateSigningRequestStatus: c.CertificateSigningRequestStatus,
  ExtraValue: c.ExtraValue,
};

defineDocs('certificates.v1', docs);
export default docs;
