import { defineDocs } from './define.ts';
import * as a from './shared/authorization.ts';

const { groups, ...spec } = a.SubjectAccessReviewSpec;

const docs = {
  ...a,
  SubjectAccessReviewSpec: { ...spec, group: groups },
};

defineDocs('authorization.v1beta1', docs);
export default docs;
