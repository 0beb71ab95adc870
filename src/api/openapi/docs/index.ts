/**
 * Loads every package's descriptions: one file per protobuf package, named after it (`docs/<package>.ts`), each
 * calling defineDocs. Add a package's file here when it is written.
 */
import './meta.ts';
import './util.ts';
import './runtime.ts';
import './core.v1.ts';
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
import './certificates.v1.ts';
import './certificates.v1beta1.ts';
import './certificates.v1alpha1.ts';
import './coordination.v1.ts';
import './coordination.v1beta1.ts';
import './coordination.v1alpha2.ts';
import './discovery.v1.ts';
import './events.v1.ts';
import './flowcontrol.v1.ts';
import './networking.v1.ts';
import './networking.v1beta1.ts';
import './networking.v1alpha1.ts';
import './node.v1.ts';
import './policy.v1.ts';
import './rbac.v1.ts';
import './resource.v1beta1.ts';
import './resource.v1beta2.ts';
import './resource.v1alpha3.ts';
import './scheduling.v1.ts';
import './storage.v1.ts';
import './storage.v1beta1.ts';
import './storage.v1alpha1.ts';
import './storagemigration.v1alpha1.ts';
export { typeDoc, fieldDoc, documentedPackages, packageDocs } from './define.ts';
