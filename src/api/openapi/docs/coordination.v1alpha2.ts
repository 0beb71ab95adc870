import { defineDocs } from './define.ts';
import { LeaseCandidate, LeaseCandidateList, LeaseCandidateSpec } from './shared/coordination.ts';

const docs = { LeaseCandidate, LeaseCandidateList, LeaseCandidateSpec };

defineDocs('coordination.v1alpha2', docs);
export default docs;
