/**
 * Descriptions of the value types of k8s.io/apimachinery that have a JSON form of their own: resource.Quantity and
 * intstr.IntOrString. In the order of ../../protobuf/messages/util.ts.
 */
import { defineDocs } from './define.ts';

const docs = {
  Quantity: {
    $: 'An amount written as a number with an optional suffix: decimal SI (m for thousandths, k, M, G, T, P, E), binary (Ki, Mi, Gi, Ti, Pi, Ei) or an exponent (e3); for example 250m, 1.5, 128Mi or 2e3. Parsed exactly, without floating-point rounding.',
    string: 'The amount in its canonical text form (protobuf form).',
  },
  IntOrString: {
    $: 'A value that is either an integer or a string, such as a port number or a port name, or a count or a percentage (25%).',
    type: 'Which of the two is set: 0 for the integer, 1 for the string (protobuf form).',
    intVal: 'The integer, when type is 0 (protobuf form).',
    strVal: 'The string, when type is 1 (protobuf form).',
  },
};

defineDocs('util', docs);
export default docs;
