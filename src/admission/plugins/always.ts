/** AlwaysAdmit and AlwaysDeny: kube's deprecated test plugins (off by default). */
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { ALL_OPERATIONS } from '../types.ts';

registerPlugin('AlwaysAdmit', () => ({ name: 'AlwaysAdmit', operations: ALL_OPERATIONS, admit: () => {}, validate: () => {} }));

registerPlugin('AlwaysDeny', () => ({
  name: 'AlwaysDeny',
  operations: ALL_OPERATIONS,
  admit(a) {
    throw admissionForbidden(a, 'admission control is denying all modifications');
  },
  validate(a) {
    throw admissionForbidden(a, 'admission control is denying all modifications');
  },
}));
