/** certificates.k8s.io: CertificateSigningRequests. */
import type { GroupSpec } from '../../../api/resources/define.ts';
import { SUB_VERBS, fieldOf, statusSub } from '../../../api/resources/define.ts';
import * as oc from '../other/columns.ts';
import { csrStrategy } from '../other/csr.ts';

export const certificates: GroupSpec = {
  group: 'certificates.k8s.io',
  versions: [{ version: 'v1', resources: [{
    resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'],
    subresources: [{ name: 'approval', verbs: SUB_VERBS, table: false }, statusSub], tableColumns: oc.certificateSigningRequestColumns,
    selectableFields: { 'spec.signerName': fieldOf('spec.signerName') },
    strategy: csrStrategy,
  }] }],
};
