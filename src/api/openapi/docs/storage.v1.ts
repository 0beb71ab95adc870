import { defineDocs } from './define.ts';
import * as s from './shared/storage.ts';

// VolumeAttributesClass is not served as v1 in 1.33.
const { VolumeAttributesClass: _a, VolumeAttributesClassList: _b, ...ga } = s;
const docs = { ...ga };

defineDocs('storage.v1', docs);
export default docs;
