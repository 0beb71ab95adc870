import { defineDocs } from './define.ts';
import { Lease, LeaseList, LeaseSpec } from './shared/coordination.ts';

const docs = { Lease, LeaseList, LeaseSpec };

defineDocs('coordination.v1', docs);
export default docs;
