/** Loads every package's descriptions (each file calls defineDocs once). */
import './admissionregistration.v1.ts';
import './admissionregistration.v1beta1.ts';
import './admissionregistration.v1alpha1.ts';
import './apiextensions.v1.ts';
import './apiregistration.v1.ts';
import './apiserverinternal.v1alpha1.ts';
import './apps.v1.ts';
import './authentication.v1.ts';
import './authentication.v1beta1.ts';
import './authentication.v1alpha1.ts';
import './authorization.v1.ts';
import './authorization.v1beta1.ts';
import './autoscaling.v1.ts';
import './autoscaling.v2.ts';
import './batch.v1.ts';
import './storagemigration.v1alpha1.ts';
export { typeDoc, fieldDoc, documentedPackages } from './define.ts';
