// Protobuf message descriptions of node (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('node.v1', {
  Overhead: { podFixed: '1 map<string,Quantity>' },
  RuntimeClass: { metadata: '1 ObjectMeta', handler: '2 !string', overhead: '3 *Overhead', scheduling: '4 *Scheduling' },
  RuntimeClassList: { metadata: '1 ListMeta', items: '2 ![]RuntimeClass' },
  Scheduling: { nodeSelector: '1 map<string,string> map=atomic', tolerations: '2 []core.v1.Toleration list=atomic' },
});

