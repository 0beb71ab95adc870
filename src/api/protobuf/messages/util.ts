// Value types from k8s.io/apimachinery with a JSON form of their own (custom MarshalJSON in Go).
import { definePackage } from '../schema.ts';

definePackage('util', {
  // resource.Quantity: JSON is its canonical string ("100m", "1Gi").
  Quantity: { string: '1 string' },
  // intstr.IntOrString: JSON is a number or a string; the wire always carries all three fields.
  IntOrString: { type: '1 int64', intVal: '2 int32', strVal: '3 string' },
}, { Quantity: 'quantity', IntOrString: 'intorstring' });

definePackage('runtime', {
  // runtime.RawExtension: JSON is the embedded object itself; the wire carries its JSON bytes.
  RawExtension: { raw: '1 bytes' },
}, { RawExtension: 'rawextension' });
