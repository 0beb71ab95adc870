import { defineDocs } from './define.ts';
import { Lease, LeaseCandidate, LeaseCandidateList, LeaseCandidateSpec, LeaseList, LeaseSpec } from './shared/coordination.ts';

const docs = { Lease, LeaseCandidate, LeaseCandidateList, LeaseCandidateSpec, LeaseList, LeaseSpec };

defineDocs('coordination.v1beta1', docs);
export default docs;
