/** Descriptions of k8s.io/apimachinery/pkg/runtime: RawExtension. In the order of ../../protobuf/messages/util.ts. */
import { defineDocs } from './define.ts';

const docs = {
  RawExtension: {
    $: 'An embedded object of any kind, written in JSON as the object itself, usually with its own apiVersion and kind.',
    raw: 'The embedded object\'s serialized bytes (protobuf form), JSON unless the object says otherwise.',
  },
};

defineDocs('runtime', docs);
export default docs;
