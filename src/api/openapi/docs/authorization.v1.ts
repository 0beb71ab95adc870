import { defineDocs } from './define.ts';
import * as a from './shared/authorization.ts';

const docs = {
  ...a,
  FieldSelectorAttributes: {
    $: 'The field selector of the request being checked, for authorizers that limit access by selector.',
    rawSelector: 'The selector as written in the request; exclusive with requirements.',
    requirements: 'The parsed selector, one requirement per term; exclusive with rawSelector.',
  },
  LabelSelectorAttributes: {
    $: 'The label selector of the request being checked, for authorizers that limit access by selector.',
    rawSelector: 'The selector as written in the request; exclusive with requirements.',
    requirements: 'The parsed selector, one requirement per term; exclusive with rawSelector.',
  },
};

defineDocs('authorization.v1', docs);
export default docs;
