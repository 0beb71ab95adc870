import { defineDocs } from './define.ts';
import { SelfSubjectReview, SelfSubjectReviewStatus } from './shared/authentication.ts';

const docs = { SelfSubjectReview, SelfSubjectReviewStatus };

defineDocs('authentication.v1alpha1', docs);
export default docs;
