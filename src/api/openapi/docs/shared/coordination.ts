/** Descriptions for coordination.k8s.io, shared by v1, v1beta1 and v1alpha2 (see ../define.ts). */
import { list, OBJECT_METADATA } from './common.ts';

export const Lease = {
  $: 'A lock with a time limit, held by one party at a time; used for leader election and for node and API server heartbeats.',
  metadata: OBJECT_METADATA,
  spec: 'Who holds the lease, since when and for how long.',
};

export const LeaseList = list('Lease');

export const LeaseSpec = {
  $: 'The state of a Lease, written by its holder and by candidates that take it over.',
  holderIdentity: 'Identity of the current holder; empty when nobody holds it.',
  leaseDurationSeconds: 'Seconds after renewTime that others must wait before they may take the lease over.',
  acquireTime: 'When the current holder acquired the lease (microsecond precision).',
  renewTime: 'When the holder last renewed the lease (microsecond precision).',
  leaseTransitions: 'Number of times the lease has passed from one holder to another.',
  strategy: 'With coordinated leader election: how the leader is picked from the LeaseCandidates; OldestEmulationVersion is the one strategy today.',
  preferredHolder: 'With coordinated leader election: the candidate that should hold the lease next; the current holder is expected to let it go.',
};

export const LeaseCandidate = {
  $: 'Announces that a component instance wants to lead for a given Lease, with its versions, so that coordinated leader election can pick the best candidate.',
  metadata: OBJECT_METADATA,
  spec: 'The Lease wanted, the candidate\'s versions and the strategy it asks for.',
};

export const LeaseCandidateList = list('LeaseCandidate');

export const LeaseCandidateSpec = {
  $: 'The claim of one candidate.',
  leaseName: 'Name of the Lease, in the same namespace, the candidate contends for. Immutable.',
  pingTime: 'When the election coordinator last asked the candidate to renew, to learn whether it is still eligible; the candidate answers by updating renewTime.',
  renewTime: 'When the candidate last updated this object; candidates not renewed for hours are garbage-collected.',
  binaryVersion: 'Version of the candidate\'s binary, as semver without a leading v, such as 1.33.0. Required.',
  emulationVersion: 'Kubernetes version the candidate emulates, as semver without a leading v; at most binaryVersion. Required with the OldestEmulationVersion strategy.',
  strategy: 'Leader-picking strategy the candidate asks for, such as OldestEmulationVersion; when candidates disagree, the one with the newest binaryVersion wins. Required.',
};
