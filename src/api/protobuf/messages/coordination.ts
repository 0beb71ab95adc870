// Protobuf message descriptions of coordination (field numbers, wire types, Go pointer-ness, inline embedding, merge
// markers) as Kubernetes v1.33 defines them; see ../schema.ts for the notation.
import { definePackage } from '../schema.ts';

definePackage('coordination.v1', {
  Lease: { metadata: '1 ObjectMeta', spec: '2 LeaseSpec' },
  LeaseList: { metadata: '1 ListMeta', items: '2 ![]Lease' },
  LeaseSpec: { holderIdentity: '1 *string', leaseDurationSeconds: '2 *int32', acquireTime: '3 *MicroTime', renewTime: '4 *MicroTime', leaseTransitions: '5 *int32', strategy: '6 *string', preferredHolder: '7 *string' },
});

definePackage('coordination.v1beta1', {
  Lease: { metadata: '1 ObjectMeta', spec: '2 LeaseSpec' },
  LeaseCandidate: { metadata: '1 ObjectMeta', spec: '2 LeaseCandidateSpec' },
  LeaseCandidateList: { metadata: '1 ListMeta', items: '2 ![]LeaseCandidate' },
  LeaseCandidateSpec: { leaseName: '1 !string', pingTime: '2 *MicroTime', renewTime: '3 *MicroTime', binaryVersion: '4 !string', emulationVersion: '5 string', strategy: '6 string' },
  LeaseList: { metadata: '1 ListMeta', items: '2 ![]Lease' },
  LeaseSpec: { holderIdentity: '1 *string', leaseDurationSeconds: '2 *int32', acquireTime: '3 *MicroTime', renewTime: '4 *MicroTime', leaseTransitions: '5 *int32', strategy: '6 *string', preferredHolder: '7 *string' },
});

definePackage('coordination.v1alpha2', {
  LeaseCandidate: { metadata: '1 ObjectMeta', spec: '2 LeaseCandidateSpec' },
  LeaseCandidateList: { metadata: '1 ListMeta', items: '2 ![]LeaseCandidate' },
  LeaseCandidateSpec: { leaseName: '1 !string', pingTime: '2 *MicroTime', renewTime: '3 *MicroTime', binaryVersion: '4 !string', emulationVersion: '5 string', strategy: '6 string' },
});

