/** certificates.k8s.io: CertificateSigningRequests. */
import type { GroupSpec } from './define.ts';
import { SUB_VERBS, fieldOf, statusSub } from './define.ts';
import * as oc from '../../registry/resources/other/columns.ts';
import { csrStrategy } from '../../registry/resources/other/csr.ts';

export const certificates: GroupSpec = {
  group: 'certificates.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'],
    subresources: [{ name: 'approval', verbs: SUB_VERBS }, statusSub], tableColumns: oc.certificateSigningRequestColumns,
    selectableFields: { 'spec.signerName': fieldOf('spec.signerName') },
    strategy: csrStrategy,
  }] }],
};
