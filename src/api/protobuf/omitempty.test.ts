// The `!` marker (JSON tag without omitempty) against facts read from the Go types of Kubernetes v1.33.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './messages/index.ts';
import { allMessageNames, messageSpec } from './schema.ts';

function omitEmpty(message: string, field: string): boolean {
  const f = messageSpec(message).byJson.get(field);
  assert.ok(f, `${message}.${field} is described`);
  return f.omitEmpty;
}

test('fields without omitempty in Go carry the marker', () => {
  const always: [string, string][] = [
    ['core.v1.ReplicationControllerStatus', 'replicas'],
    ['apps.v1.DaemonSetStatus', 'currentNumberScheduled'],
    ['apps.v1.DaemonSetStatus', 'numberMisscheduled'],
    ['apps.v1.DaemonSetStatus', 'desiredNumberScheduled'],
    ['apps.v1.DaemonSetStatus', 'numberReady'],
    ['policy.v1.PodDisruptionBudgetStatus', 'disruptionsAllowed'],
    ['policy.v1.PodDisruptionBudgetStatus', 'currentHealthy'],
    ['policy.v1.PodDisruptionBudgetStatus', 'desiredHealthy'],
    ['policy.v1.PodDisruptionBudgetStatus', 'expectedPods'],
    ['autoscaling.v2.HorizontalPodAutoscalerStatus', 'desiredReplicas'],
    ['autoscaling.v1.HorizontalPodAutoscalerStatus', 'currentReplicas'],
    ['storage.v1.VolumeAttachmentStatus', 'attached'],
    ['core.v1.Event', 'reportingComponent'],
    ['core.v1.Event', 'reportingInstance'],
    ['core.v1.HostPathVolumeSource', 'path'],
    ['apiextensions.v1.CustomResourceDefinitionStatus', 'conditions'],
    ['apiextensions.v1.CustomResourceDefinitionStatus', 'acceptedNames'],
    ['apiextensions.v1.CustomResourceDefinitionStatus', 'storedVersions'],
    ['apiregistration.v1.APIServiceSpec', 'groupPriorityMinimum'],
    ['apiregistration.v1.APIServiceSpec', 'versionPriority'],
    ['rbac.v1.RoleRef', 'apiGroup'],
    ['rbac.v1.Subject', 'kind'],
    ['rbac.v1.Subject', 'name'],
    ['rbac.v1.PolicyRule', 'verbs'],
    ['core.v1.Container', 'name'],
    ['core.v1.DaemonEndpoint', 'Port'],
    ['core.v1.NodeSystemInfo', 'machineID'],
    ['apps.v1.DaemonSetSpec', 'selector'],
    ['apps.v1.ControllerRevision', 'revision'],
    ['meta.OwnerReference', 'uid'],
    ['meta.LabelSelectorRequirement', 'operator'],
  ];
  for (const [m, f] of always) assert.equal(omitEmpty(m, f), false, `${m}.${f} has no omitempty`);
});

test('omitempty fields carry no marker', () => {
  const omit: [string, string][] = [
    ['meta.ObjectMeta', 'name'], ['meta.ObjectMeta', 'labels'], ['meta.ObjectMeta', 'creationTimestamp'],
    ['core.v1.ConfigMap', 'data'], ['core.v1.HostPathVolumeSource', 'type'], ['apps.v1.DaemonSetStatus', 'numberAvailable'],
    ['core.v1.PodSpec', 'volumes'], ['core.v1.Container', 'image'], ['meta.ManagedFieldsEntry', 'manager'],
    ['core.v1.ServicePort', 'targetPort'], ['apps.v1.DeploymentSpec', 'replicas'],
    // omitempty on a struct value: Go's encoding/json still writes it (the canonicalizer knows; see canonical.ts)
    ['core.v1.Event', 'eventTime'], ['core.v1.NodeStatus', 'daemonEndpoints'], ['networking.v1.IngressStatus', 'loadBalancer'],
  ];
  for (const [m, f] of omit) assert.equal(omitEmpty(m, f), true, `${m}.${f} is omitempty`);
});

test('every package has both kinds and every message parses', () => {
  const byPkg = new Map<string, { always: number; omit: number }>();
  for (const name of allMessageNames()) {
    const spec = messageSpec(name);
    const pkg = name.slice(0, name.lastIndexOf('.'));
    const c = byPkg.get(pkg) ?? { always: 0, omit: 0 };
    for (const f of spec.declared) {
      if (f.inline) continue;
      if (f.omitEmpty) c.omit++;
      else c.always++;
    }
    byPkg.set(pkg, c);
  }
  for (const [pkg, c] of byPkg) {
    // util and runtime hold special forms; authentication.v1alpha1's only kind (SelfSubjectReview) is all omitempty.
    if (pkg === 'util' || pkg === 'runtime' || pkg === 'authentication.v1alpha1') continue;
    assert.ok(c.always > 0, `${pkg} has fields without omitempty (a package missed by the tag extraction?)`);
  }
});
