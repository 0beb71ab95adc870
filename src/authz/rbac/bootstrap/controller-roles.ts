/**
 * The `system:controller:<name>` ClusterRoles of kube-controller-manager's controllers in v1.33 (kube's
 * bootstrappolicy controller_policy), each bound by a ClusterRoleBinding of the same name to the ServiceAccount
 * `kube-system/<name>`. Feature-gated roles follow the gates: with v1.33's defaults `service-cidrs-controller`
 * (MultiCIDRServiceAllocator, GA) and `selinux-warning-controller` (SELinuxChangePolicy, beta on) are present;
 * the roles of gates that are off by default in v1.33 (DynamicResourceAllocation, VolumeAttributesClass,
 * ClusterTrustBundle, StorageVersionAPI, StorageVersionMigrator) are present when those gates are turned on.
 */
import { eventsRule, LEGACY, READ, rule, type PolicyRule } from './rule.ts';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

export interface ControllerRoleSpec {
  /** Without the `system:controller:` prefix: the ServiceAccount's name in kube-system. */
  controller: string;
  rules: PolicyRule[];
}

/** Answers whether a feature gate is on (defaults: v1.33's). */
export type GateCheck = (gate: string) => boolean;

const V1_33_DEFAULT_ON = new Set(['MultiCIDRServiceAllocator', 'SELinuxChangePolicy', 'APIServerIdentity']);
export const v133DefaultGates: GateCheck = (gate) => V1_33_DEFAULT_ON.has(gate);

const APPS = 'apps';
const EXT = 'extensions';
const BATCH = 'batch';
const STORAGE = 'storage.k8s.io';
const CERTS = 'certificates.k8s.io';
const NET = 'networking.k8s.io';
const RESOURCE = 'resource.k8s.io';

function role(controller: string, rules: PolicyRule[]): ControllerRoleSpec {
  return { controller, rules };
}

/** In kube's registration order (which is also the order bindings are created). */
export function controllerRoleSpecs(gate: GateCheck = v133DefaultGates): ControllerRoleSpec[] {
  const out: ControllerRoleSpec[] = [
    role('attachdetach-controller', [
      rule('list', 'watch').groups(LEGACY).resources('persistentvolumes', 'persistentvolumeclaims').build(),
      rule(...READ).groups(LEGACY).resources('nodes').build(),
      rule('patch', 'update').groups(LEGACY).resources('nodes/status').build(),
      rule('list', 'watch').groups(LEGACY).resources('pods').build(),
      eventsRule(),
      rule('get', 'create', 'delete', 'list', 'watch').groups(STORAGE).resources('volumeattachments').build(),
      rule(...READ).groups(STORAGE).resources('csidrivers').build(),
      rule(...READ).groups(STORAGE).resources('csinodes').build(),
    ]),
    role('clusterrole-aggregation-controller', [
      // Full power over clusterroles: it writes whatever the aggregated roles hold.
      rule('escalate', 'get', 'list', 'watch', 'update', 'patch').groups('rbac.authorization.k8s.io').resources('clusterroles').build(),
    ]),
    role('cronjob-controller', [
      rule('get', 'list', 'watch', 'update').groups(BATCH).resources('cronjobs').build(),
      rule('get', 'list', 'watch', 'create', 'update', 'delete', 'patch').groups(BATCH).resources('jobs').build(),
      rule('update').groups(BATCH).resources('cronjobs/status').build(),
      rule('update').groups(BATCH).resources('cronjobs/finalizers').build(),
      rule('list', 'watch', 'delete').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('daemon-set-controller', [
      rule(...READ).groups(EXT, APPS).resources('daemonsets').build(),
      rule('update').groups(EXT, APPS).resources('daemonsets/status').build(),
      rule('update').groups(EXT, APPS).resources('daemonsets/finalizers').build(),
      rule('list', 'watch').groups(LEGACY).resources('nodes').build(),
      rule('list', 'watch', 'create', 'delete', 'patch').groups(LEGACY).resources('pods').build(),
      rule('create').groups(LEGACY).resources('pods/binding').build(),
      rule('get', 'list', 'watch', 'create', 'delete', 'update', 'patch').groups(APPS).resources('controllerrevisions').build(),
      eventsRule(),
    ]),
    role('deployment-controller', [
      rule('get', 'list', 'watch', 'update').groups(EXT, APPS).resources('deployments').build(),
      rule('update').groups(EXT, APPS).resources('deployments/status').build(),
      rule('update').groups(EXT, APPS).resources('deployments/finalizers').build(),
      rule('get', 'list', 'watch', 'create', 'update', 'patch', 'delete').groups(APPS, EXT).resources('replicasets').build(),
      rule('get', 'list', 'watch', 'update').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('disruption-controller', [
      rule(...READ).groups(EXT, APPS).resources('deployments').build(),
      rule(...READ).groups(APPS, EXT).resources('replicasets').build(),
      rule(...READ).groups(LEGACY).resources('replicationcontrollers').build(),
      rule(...READ).groups('policy').resources('poddisruptionbudgets').build(),
      rule(...READ).groups(APPS).resources('statefulsets').build(),
      rule('update').groups('policy').resources('poddisruptionbudgets/status').build(),
      rule('patch', 'update').groups(LEGACY).resources('pods/status').build(),
      rule('get').groups('*').resources('*/scale').build(),
      eventsRule(),
    ]),
    role('endpoint-controller', [
      rule(...READ).groups(LEGACY).resources('services', 'pods').build(),
      rule('get', 'list', 'watch', 'create', 'update', 'delete').groups(LEGACY).resources('endpoints').build(),
      rule('create').groups(LEGACY).resources('endpoints/restricted').build(),
      eventsRule(),
    ]),
    role('endpointslice-controller', [
      rule(...READ).groups(LEGACY).resources('services', 'pods', 'nodes').build(),
      // Owner references with blockOwnerDeletion need update on the owner's finalizers.
      rule('update').groups(LEGACY).resources('services/finalizers').build(),
      rule('get', 'list', 'watch', 'create', 'update', 'delete').groups('discovery.k8s.io').resources('endpointslices').build(),
      eventsRule(),
    ]),
    role('endpointslicemirroring-controller', [
      rule(...READ).groups(LEGACY).resources('services', 'endpoints').build(),
      rule('update').groups(LEGACY).resources('services/finalizers').build(),
      rule('update').groups(LEGACY).resources('endpoints/finalizers').build(),
      rule('get', 'list', 'watch', 'create', 'update', 'delete').groups('discovery.k8s.io').resources('endpointslices').build(),
      eventsRule(),
    ]),
    role('expand-controller', [
      rule('get', 'list', 'watch', 'update', 'patch').groups(LEGACY).resources('persistentvolumes').build(),
      rule('update', 'patch').groups(LEGACY).resources('persistentvolumeclaims/status').build(),
      rule(...READ).groups(LEGACY).resources('persistentvolumeclaims').build(),
      eventsRule(),
      rule('get').groups(LEGACY).resources('services').build(),
    ]),
    role('ephemeral-volume-controller', [
      rule(...READ).groups(LEGACY).resources('pods').build(),
      rule('update').groups(LEGACY).resources('pods/finalizers').build(),
      rule('get', 'list', 'watch', 'create').groups(LEGACY).resources('persistentvolumeclaims').build(),
      eventsRule(),
    ]),
  ];
  if (gate('DynamicResourceAllocation')) {
    out.push(role('resource-claim-controller', [
      rule(...READ).groups(LEGACY).resources('pods').build(),
      rule('update').groups(LEGACY).resources('pods/finalizers').build(),
      rule('get', 'list', 'watch', 'create', 'delete').groups(RESOURCE).resources('resourceclaims').build(),
      rule('update', 'patch').groups(RESOURCE).resources('resourceclaims', 'resourceclaims/status').build(),
      rule('update', 'patch').groups(LEGACY).resources('pods/status').build(),
      eventsRule(),
    ]));
  }
  out.push(
    role('generic-garbage-collector', [
      rule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('*').resources('*').build(),
      eventsRule(),
    ]),
    role('horizontal-pod-autoscaler', [
      rule(...READ).groups('autoscaling').resources('horizontalpodautoscalers').build(),
      rule('update').groups('autoscaling').resources('horizontalpodautoscalers/status').build(),
      rule('get', 'update').groups('*').resources('*/scale').build(),
      rule('list', 'watch').groups(LEGACY).resources('pods').build(),
      rule('list', 'watch').groups('metrics.k8s.io').resources('pods').build(),
      rule(...READ).groups('custom.metrics.k8s.io').resources('*').build(),
      rule(...READ).groups('external.metrics.k8s.io').resources('*').build(),
      eventsRule(),
    ]),
    role('job-controller', [
      rule('get', 'list', 'watch', 'update', 'patch').groups(BATCH).resources('jobs').build(),
      rule('update').groups(BATCH).resources('jobs/status').build(),
      rule('update').groups(BATCH).resources('jobs/finalizers').build(),
      rule('list', 'watch', 'create', 'delete', 'patch').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('namespace-controller', [
      rule('get', 'list', 'watch', 'delete').groups(LEGACY).resources('namespaces').build(),
      rule('update').groups(LEGACY).resources('namespaces/finalize', 'namespaces/status').build(),
      rule('get', 'list', 'watch', 'delete', 'deletecollection').groups('*').resources('*').build(),
    ]),
    role('node-controller', [
      rule('get', 'list', 'watch', 'update', 'delete', 'patch').groups(LEGACY).resources('nodes').build(),
      rule('patch', 'update').groups(LEGACY).resources('nodes/status').build(),
      rule('patch', 'update').groups(LEGACY).resources('pods/status').build(),
      rule('list', 'watch', 'get', 'delete').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('persistent-volume-binder', [
      rule('get', 'list', 'watch', 'update', 'create', 'delete').groups(LEGACY).resources('persistentvolumes').build(),
      rule('update').groups(LEGACY).resources('persistentvolumes/status').build(),
      rule('get', 'list', 'watch', 'update').groups(LEGACY).resources('persistentvolumeclaims').build(),
      rule('update').groups(LEGACY).resources('persistentvolumeclaims/status').build(),
      rule('list', 'watch', 'get', 'create', 'delete').groups(LEGACY).resources('pods').build(),
      rule(...READ).groups(STORAGE).resources('storageclasses').build(),
      rule('list', 'watch').groups(LEGACY).resources('nodes').build(),
      eventsRule(),
      rule('watch').groups(LEGACY).resources('events').build(),
      rule('get').groups(LEGACY).resources('services').build(),
    ]),
    role('pod-garbage-collector', [
      rule('list', 'watch', 'delete').groups(LEGACY).resources('pods').build(),
      rule(...READ).groups(LEGACY).resources('nodes').build(),
      rule('patch').groups(LEGACY).resources('pods/status').build(),
    ]),
    role('replicaset-controller', [
      rule('get', 'list', 'watch', 'update').groups(APPS, EXT).resources('replicasets').build(),
      rule('update').groups(APPS, EXT).resources('replicasets/status').build(),
      rule('update').groups(APPS, EXT).resources('replicasets/finalizers').build(),
      rule('list', 'watch', 'patch', 'create', 'delete').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('replication-controller', [
      rule('get', 'list', 'watch', 'update').groups(LEGACY).resources('replicationcontrollers').build(),
      rule('update').groups(LEGACY).resources('replicationcontrollers/status').build(),
      rule('update').groups(LEGACY).resources('replicationcontrollers/finalizers').build(),
      rule('list', 'watch', 'patch', 'create', 'delete').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('resourcequota-controller', [
      rule('list', 'watch').groups('*').resources('*').build(),
      rule('update').groups(LEGACY).resources('resourcequotas/status').build(),
      eventsRule(),
    ]),
    role('route-controller', [
      rule('list', 'watch').groups(LEGACY).resources('nodes').build(),
      rule('patch').groups(LEGACY).resources('nodes/status').build(),
      eventsRule(),
    ]),
    role('service-account-controller', [rule('create').groups(LEGACY).resources('serviceaccounts').build(), eventsRule()]),
    role('service-controller', [
      rule(...READ).groups(LEGACY).resources('services').build(),
      rule('patch', 'update').groups(LEGACY).resources('services/status').build(),
      rule('list', 'watch').groups(LEGACY).resources('nodes').build(),
      eventsRule(),
    ]),
  );
  if (gate('MultiCIDRServiceAllocator')) {
    out.push(role('service-cidrs-controller', [
      rule('get', 'list', 'watch', 'patch', 'update').groups(NET).resources('servicecidrs').build(),
      rule('patch', 'update').groups(NET).resources('servicecidrs/finalizers').build(),
      rule('patch', 'update').groups(NET).resources('servicecidrs/status').build(),
      rule(...READ).groups(NET).resources('ipaddresses').build(),
      eventsRule(),
    ]));
  }
  out.push(
    role('statefulset-controller', [
      rule('list', 'watch').groups(LEGACY).resources('pods').build(),
      rule(...READ).groups(APPS).resources('statefulsets').build(),
      rule('update').groups(APPS).resources('statefulsets/status').build(),
      rule('update').groups(APPS).resources('statefulsets/finalizers').build(),
      rule('get', 'create', 'delete', 'update', 'patch').groups(LEGACY).resources('pods').build(),
      rule('get', 'create', 'delete', 'update', 'patch', 'list', 'watch').groups(APPS).resources('controllerrevisions').build(),
      rule('get', 'create', 'list', 'watch').groups(LEGACY).resources('persistentvolumeclaims').build(),
      rule('update', 'delete').groups(LEGACY).resources('persistentvolumeclaims').build(),
      rule('update').groups(LEGACY).resources('pods/finalizers').build(),
      eventsRule(),
    ]),
    role('ttl-controller', [rule('update', 'patch', 'list', 'watch').groups(LEGACY).resources('nodes').build(), eventsRule()]),
    role('certificate-controller', [
      rule('get', 'list', 'watch', 'delete').groups(CERTS).resources('certificatesigningrequests').build(),
      rule('update').groups(CERTS).resources('certificatesigningrequests/status', 'certificatesigningrequests/approval').build(),
      rule('approve').groups(CERTS).resources('signers').names('kubernetes.io/kube-apiserver-client-kubelet').build(),
      rule('sign').groups(CERTS).resources('signers').names('kubernetes.io/legacy-unknown', 'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving').build(),
      rule('create').groups('authorization.k8s.io').resources('subjectaccessreviews').build(),
      eventsRule(),
    ]),
    role('pvc-protection-controller', [
      rule('get', 'list', 'watch', 'update').groups(LEGACY).resources('persistentvolumeclaims').build(),
      rule('list', 'watch', 'get').groups(LEGACY).resources('pods').build(),
      eventsRule(),
    ]),
    role('pv-protection-controller', [rule('get', 'list', 'watch', 'update').groups(LEGACY).resources('persistentvolumes').build(), eventsRule()]),
  );
  if (gate('VolumeAttributesClass')) {
    out.push(role('volumeattributesclass-protection-controller', [
      rule('list', 'watch', 'get').groups(LEGACY).resources('persistentvolumeclaims').build(),
      rule('list', 'watch', 'get').groups(LEGACY).resources('persistentvolumes').build(),
      rule('get', 'list', 'watch', 'update').groups(STORAGE).resources('volumeattributesclasses').build(),
      eventsRule(),
    ]));
  }
  out.push(
    role('ttl-after-finished-controller', [rule('get', 'list', 'watch', 'delete').groups(BATCH).resources('jobs').build(), eventsRule()]),
    role('root-ca-cert-publisher', [rule('create', 'update').groups(LEGACY).resources('configmaps').build(), eventsRule()]),
  );
  if (gate('ClusterTrustBundle')) {
    out.push(role('kube-apiserver-serving-clustertrustbundle-publisher', [
      rule('attest').groups(CERTS).resources('signers').names('kubernetes.io/kube-apiserver-serving').build(),
      rule('create', 'update', 'delete', 'list', 'watch').groups(CERTS).resources('clustertrustbundles').build(),
      eventsRule(),
    ]));
  }
  out.push(role('validatingadmissionpolicy-status-controller', [
    rule(...READ).groups('admissionregistration.k8s.io').resources('validatingadmissionpolicies').build(),
    rule('get', 'patch', 'update').groups('admissionregistration.k8s.io').resources('validatingadmissionpolicies/status').build(),
    eventsRule(),
  ]));
  if (gate('StorageVersionAPI') && gate('APIServerIdentity')) {
    out.push(role('storage-version-garbage-collector', [
      rule(...READ).groups('coordination.k8s.io').resources('leases').build(),
      rule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('internal.apiserver.k8s.io').resources('storageversions').build(),
      rule('get', 'patch', 'update').groups('internal.apiserver.k8s.io').resources('storageversions/status').build(),
    ]));
  }
  out.push(role('legacy-service-account-token-cleaner', [
    rule('get').groups(LEGACY).resources('configmaps').names('kube-apiserver-legacy-service-account-token-tracking').build(),
    rule('patch', 'delete').groups(LEGACY).resources('secrets').build(),
  ]));
  if (gate('StorageVersionMigrator')) {
    out.push(role('storage-version-migrator-controller', [
      // list for the current resourceVersion, patch (apply) to rewrite, create because applying a deleted object creates.
      rule('list', 'watch', 'create', 'patch').groups('*').resources('*').build(),
      rule('update').groups('storagemigration.k8s.io').resources('storageversionmigrations/status').build(),
    ]));
  }
  if (gate('SELinuxChangePolicy')) {
    out.push(role('selinux-warning-controller', [
      eventsRule(),
      rule(...READ).groups(LEGACY).resources('persistentvolumes').build(),
      rule(...READ).groups(LEGACY).resources('persistentvolumeclaims').build(),
      rule(...READ).groups(LEGACY).resources('pods').build(),
      rule(...READ).groups(STORAGE).resources('csidrivers').build(),
    ]));
  }
  return out;
}
