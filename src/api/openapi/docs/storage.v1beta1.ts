import { defineDocs } from './define.ts';
import * as s from './shared/storage.ts';

const docs = { ...s };

defineDocs('storage.v1beta1', docs);
export default docs;
