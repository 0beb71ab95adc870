import { defineDocs } from './define.ts';
import * as a from './shared/authentication.ts';

const docs = { ...a };

defineDocs('authentication.v1beta1', docs);
export default docs;
