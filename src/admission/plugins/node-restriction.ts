/**
 * NodeRestriction (kube's plugin/pkg/admission/noderestriction, off by default; clusters enable it beside the
 * Node authorizer): what a kubelet, `system:node:<name>` in `system:nodes`, may write. Node authorization says
 * which objects a node may touch; this plugin looks inside them:
 * - pods: only mirror pods bound to itself, owned by its own Node (controller, no blockOwnerDeletion, the node's
 *   uid), naming no service account, secret, configmap, PVC or ClusterTrustBundle; deleting and evicting only
 *   its own pods; status updates only of its pods and without touching labels or resource claim statuses; no
 *   other pod sub-resource;
 * - its own Node only: no configSource, no taint changes, and no labels under node-restriction.kubernetes.io/ or
 *   other kubernetes.io/k8s.io labels except the kubelet's own;
 * - PVCs: only their status' capacity and conditions (and allocated resources with RecoverVolumeExpansionFailure);
 * - service account tokens only bound to a pod of its own, with its uid, and (ServiceAccountNodeAudienceRestriction)
 *   only for an audience the pod uses;
 * - leases in kube-node-lease and CSINodes named after itself; ResourceSlices of its node;
 * - kubelet CSRs only with CN=system:node:<name> (unless AllowInsecureKubeletCertificateSigningRequests).
 * Texts are kube's; the PVC status refusal omits kube's go-cmp diff.
 */
import { errors, StatusError } from '../../machinery/errors.ts';
import type { KObject } from '../../machinery/objects.ts';
import { systemContext } from '../../registry/system-context.ts';
import { admissionForbidden } from '../errors.ts';
import { registerPlugin } from '../plugin-catalog.ts';
import { operations, type AdmissionAttributes, type AdmissionPlugin, type PluginContext } from '../types.ts';
import { csrSubject } from './certificates.ts';
import { MIRROR_POD_ANNOTATION, isObj, isResource, list, lister, nodeIdentity, podConfigMapNames, podSecretNames, specOf, str, type J } from './support.ts';

const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region', 'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type', 'kubernetes.io/os',
  'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const NODE_RESTRICTION_NAMESPACE = 'node-restriction.kubernetes.io';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

const labelNamespace = (key: string) => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inDomain = (ns: string, domain: string) => ns === domain || ns.endsWith(`.${domain}`);

export function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  return KUBELET_LABEL_NAMESPACES.some((d) => inDomain(labelNamespace(key), d));
}

/** getForbiddenLabels over the keys that differ between two label maps, sorted. */
export function forbiddenNodeLabels(now: Record<string, string> | undefined, before: Record<string, string> | undefined): string[] {
  const a = now ?? {};
  const b = before ?? {};
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(a)) if (b[k] !== v) modified.add(k);
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) modified.add(k);
  const out = [...modified].filter((k) => {
    const ns = labelNamespace(k);
    if (inDomain(ns, NODE_RESTRICTION_NAMESPACE)) return true;
    return (inDomain(ns, 'kubernetes.io') || inDomain(ns, 'k8s.io')) && !isKubeletLabel(k);
  });
  return out.sort();
}

const canonical = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isObj(x) ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : 1))) : x));
const equal = (a: unknown, b: unknown) => canonical(a ?? null) === canonical(b ?? null);

export function nodeRestrictionPlugin(ctx: PluginContext): AdmissionPlugin {
  const gate = (g: string) => {
    try {
      return ctx.featureEnabled(g);
    } catch {
      return false;
    }
  };
  const expansionRecovery = gate('RecoverVolumeExpansionFailure');
  const insecureKubeletCsrs = gate('AllowInsecureKubeletCertificateSigningRequests');
  const audienceRestriction = gate('ServiceAccountNodeAudienceRestriction');
  const pods = lister(ctx, '', 'v1', 'pods');
  const nodes = lister(ctx, '', 'v1', 'nodes');

  const get = async (group: string, resource: string, namespace: string, name: string): Promise<KObject | undefined> => {
    const storage = ctx.registry.lookup(group, 'v1', resource);
    if (!storage || !name) return undefined;
    try {
      return (await storage.get(systemContext({ namespace }), name, {})).object;
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return undefined;
      throw e;
    }
  };

  async function existingPod(a: AdmissionAttributes, name: string): Promise<KObject> {
    let pod: KObject | undefined;
    try {
      pod = await pods.get(a.namespace, name);
    } catch (e) {
      throw admissionForbidden(a, (e as Error).message);
    }
    if (!pod) throw errors.notFound({ kind: 'pods', name });
    return pod;
  }

  async function admitPodCreate(node: string, a: AdmissionAttributes): Promise<void> {
    const pod = a.object;
    if (!isObj(pod)) throw admissionForbidden(a, 'unexpected type <nil>');
    if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
      throw admissionForbidden(a, `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
    }
    const spec = specOf(pod);
    if (str(spec['nodeName']) !== node) throw admissionForbidden(a, `node "${node}" can only create pods with spec.nodeName set to itself`);
    const owners = pod.metadata.ownerReferences ?? [];
    if (owners.length > 1) throw admissionForbidden(a, `node "${node}" can only create pods with a single owner reference set to itself`);
    if (owners.length === 0) throw admissionForbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
    const owner = owners[0]!;
    if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) {
      throw admissionForbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
    }
    if (owner.controller !== true) throw admissionForbidden(a, `node "${node}" can only create pods with a controller owner reference set to itself`);
    if (owner.blockOwnerDeletion === true) throw admissionForbidden(a, `node "${node}" must not set blockOwnerDeletion on an owner reference`);
    let self: KObject | undefined;
    try {
      self = await nodes.get('', node);
    } catch (e) {
      throw admissionForbidden(a, `error looking up node ${node} to verify uid: ${(e as Error).message}`);
    }
    if (!self) throw errors.notFound({ kind: 'nodes', name: node });
    if (owner.uid !== self.metadata.uid) throw admissionForbidden(a, `node ${node} UID mismatch: expected ${owner.uid} got ${self.metadata.uid ?? ''}`);
    if (str(spec['serviceAccountName'])) throw admissionForbidden(a, `node "${node}" can not create pods that reference a service account`);
    if (podSecretNames(spec).length) throw admissionForbidden(a, `node "${node}" can not create pods that reference secrets`);
    if (podConfigMapNames(spec).length) throw admissionForbidden(a, `node "${node}" can not create pods that reference configmaps`);
    for (const v of list(spec['volumes'])) {
      if (isObj(v['projected']) && list(v['projected']['sources']).some((s) => s['clusterTrustBundle'] !== undefined)) {
        throw admissionForbidden(a, `node "${node}" can not create pods that reference clustertrustbundles`);
      }
    }
    if (list(spec['volumes']).some((v) => v['persistentVolumeClaim'] !== undefined)) {
      throw admissionForbidden(a, `node "${node}" can not create pods that reference persistentvolumeclaims`);
    }
  }

  async function admitPod(node: string, a: AdmissionAttributes): Promise<void> {
    switch (a.subresource) {
      case '':
        if (a.operation === 'CREATE') return admitPodCreate(node, a);
        if (a.operation === 'DELETE') {
          const pod = await existingPod(a, a.name);
          if (str(specOf(pod)['nodeName']) !== node) throw admissionForbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
          return;
        }
        throw admissionForbidden(a, `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
      case 'status': {
        if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation "${a.operation}"`);
        if (!isObj(a.oldObject)) throw admissionForbidden(a, 'unexpected type <nil>');
        if (str(specOf(a.oldObject)['nodeName']) !== node) throw admissionForbidden(a, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
        if (!isObj(a.object)) throw admissionForbidden(a, 'unexpected type <nil>');
        if (!equal(a.oldObject.metadata.labels ?? {}, a.object.metadata.labels ?? {})) throw admissionForbidden(a, `node "${node}" cannot update labels through pod status`);
        const claims = (o: KObject) => list(isObj(o['status']) ? o['status']['resourceClaimStatuses'] : undefined).map((c) => [str(c['name']), c['resourceClaimName'] ?? null]);
        if (!equal(claims(a.oldObject), claims(a.object))) throw admissionForbidden(a, `node "${node}" cannot update resource claim statues`);
        return;
      }
      case 'eviction': {
        if (a.operation !== 'CREATE') throw admissionForbidden(a, `unexpected operation ${a.operation}`);
        const podName = a.name || a.object?.metadata.name || '';
        if (!podName) throw admissionForbidden(a, 'could not determine pod from request data');
        const pod = await existingPod(a, podName);
        if (str(specOf(pod)['nodeName']) !== node) throw admissionForbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
        return;
      }
      default:
        throw admissionForbidden(a, `unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
    }
  }

  function admitNode(node: string, a: AdmissionAttributes): void {
    const requested = a.name || (a.operation === 'CREATE' ? a.object?.metadata.name ?? '' : '');
    if (requested !== node) throw admissionForbidden(a, `node "${node}" is not allowed to modify node "${requested}"`);
    if (a.operation === 'CREATE') {
      if (!isObj(a.object)) throw admissionForbidden(a, 'unexpected type <nil>');
      if (specOf(a.object)['configSource'] !== undefined && specOf(a.object)['configSource'] !== null) {
        throw admissionForbidden(a, `node "${node}" is not allowed to create pods with a non-nil configSource`);
      }
      const bad = forbiddenNodeLabels(a.object.metadata.labels, undefined);
      if (bad.length) throw admissionForbidden(a, `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
    }
    if (a.operation === 'UPDATE') {
      if (!isObj(a.object) || !isObj(a.oldObject)) throw admissionForbidden(a, 'unexpected type <nil>');
      const spec = specOf(a.object);
      const old = specOf(a.oldObject);
      if (spec['configSource'] !== undefined && spec['configSource'] !== null && !equal(spec['configSource'], old['configSource'])) {
        throw admissionForbidden(a, `node "${node}" is not allowed to update configSource to a new non-nil configSource`);
      }
      const taints = (v: unknown) => (Array.isArray(v) && v.length ? v : null);
      if (!equal(taints(spec['taints']), taints(old['taints']))) throw admissionForbidden(a, `node "${node}" is not allowed to modify taints`);
      const bad = forbiddenNodeLabels(a.object.metadata.labels, a.oldObject.metadata.labels);
      if (bad.length) throw admissionForbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`);
    }
  }

  function admitPvcStatus(node: string, a: AdmissionAttributes): void {
    if (a.operation !== 'UPDATE') throw admissionForbidden(a, `unexpected operation "${a.operation}"`);
    if (!isObj(a.oldObject) || !isObj(a.object)) throw admissionForbidden(a, 'unexpected type <nil>');
    const strip = (o: KObject): J => {
      const c = structuredClone(o) as J;
      const meta = c['metadata'] as J;
      delete meta['resourceVersion'];
      delete meta['managedFields'];
      const status = isObj(c['status']) ? c['status'] : {};
      delete status['capacity'];
      delete status['conditions'];
      if (expansionRecovery) {
        delete status['allocatedResourceStatuses'];
        delete status['allocatedResources'];
      }
      c['status'] = status;
      return c;
    };
    if (!equal(strip(a.oldObject), strip(a.object))) {
      throw admissionForbidden(a, `node "${node}" is not allowed to update fields other than status.quantity and status.conditions`);
    }
  }

  async function podUsesAudience(pod: KObject, audience: string): Promise<boolean> {
    const spec = specOf(pod);
    const driverHas = async (driver: string) => {
      const d = await get('storage.k8s.io', 'csidrivers', '', driver).catch(() => undefined);
      return list(d ? specOf(d)['tokenRequests'] : undefined).some((t) => str(t['audience']) === audience);
    };
    const driverOfClaim = async (claim: string) => {
      const pvc = await get('', 'persistentvolumeclaims', pod.metadata.namespace ?? '', claim).catch(() => undefined);
      const pv = pvc ? await get('', 'persistentvolumes', '', str(specOf(pvc)['volumeName'])).catch(() => undefined) : undefined;
      const csi = pv ? specOf(pv)['csi'] : undefined;
      return isObj(csi) ? str(csi['driver']) : '';
    };
    for (const v of list(spec['volumes'])) {
      if (isObj(v['projected']) && list(v['projected']['sources']).some((s) => isObj(s['serviceAccountToken']) && str(s['serviceAccountToken']['audience']) === audience)) return true;
      let driver = '';
      if (isObj(v['ephemeral']) && v['ephemeral']['volumeClaimTemplate'] !== undefined) driver = await driverOfClaim(`${pod.metadata.name ?? ''}-${str(v['name'])}`);
      else if (isObj(v['persistentVolumeClaim'])) driver = await driverOfClaim(str(v['persistentVolumeClaim']['claimName']));
      else if (isObj(v['csi'])) driver = str(v['csi']['driver']);
      if (driver && await driverHas(driver)) return true;
    }
    return false;
  }

  async function admitServiceAccount(node: string, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    if (!isObj(a.object)) throw admissionForbidden(a, 'unexpected type <nil>');
    const spec = specOf(a.object);
    const ref = isObj(spec['boundObjectRef']) ? spec['boundObjectRef'] : undefined;
    if (!ref || ref['apiVersion'] !== 'v1' || ref['kind'] !== 'Pod' || !str(ref['name'])) throw admissionForbidden(a, 'node requested token not bound to a pod');
    if (!str(ref['uid'])) throw admissionForbidden(a, 'node requested token with a pod binding without a uid');
    const pod = await existingPod(a, str(ref['name']));
    if (str(ref['uid']) !== pod.metadata.uid) {
      throw admissionForbidden(a, `the UID in the bound object reference (${str(ref['uid'])}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
    if (str(specOf(pod)['nodeName']) !== node) throw admissionForbidden(a, 'node requested token bound to a pod scheduled on a different node');
    if (!audienceRestriction) return;
    const audiences = Array.isArray(spec['audiences']) ? spec['audiences'].map(str) : [];
    if (audiences.length > 1) throw admissionForbidden(a, 'node may only request 0 or 1 audiences');
    const audience = audiences[0] ?? '';
    if (!await podUsesAudience(pod, audience)) throw admissionForbidden(a, `audience ${JSON.stringify(audience)} not found in pod spec volume`);
  }

  function admitLease(node: string, a: AdmissionAttributes): void {
    if (a.namespace !== NODE_LEASE_NAMESPACE) throw admissionForbidden(a, `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
    const name = a.operation === 'CREATE' ? a.object?.metadata.name ?? '' : a.name;
    if (name !== node) throw admissionForbidden(a, 'can only access node lease with the same name as the requesting node');
  }

  function admitCsiNode(node: string, a: AdmissionAttributes): void {
    const name = a.operation === 'CREATE' ? a.object?.metadata.name ?? '' : a.name;
    if (name !== node) throw admissionForbidden(a, 'can only access CSINode with the same name as the requesting node');
  }

  function admitResourceSlice(node: string, a: AdmissionAttributes): void {
    if (a.operation === 'CREATE') {
      if (!isObj(a.object)) throw admissionForbidden(a, 'unexpected type <nil>');
      if (str(specOf(a.object)['nodeName']) !== node) throw admissionForbidden(a, 'can only create ResourceSlice with the same NodeName as the requesting node');
    } else if (a.operation === 'DELETE') {
      if (!isObj(a.oldObject)) throw admissionForbidden(a, 'unexpected type <nil>');
      if (str(specOf(a.oldObject)['nodeName']) !== node) throw admissionForbidden(a, 'can only delete ResourceSlice with the same NodeName as the requesting node');
    }
  }

  function admitCsr(node: string, a: AdmissionAttributes): void {
    if (a.operation !== 'CREATE' || a.subresource !== '') return;
    if (!isObj(a.object)) throw admissionForbidden(a, 'unexpected type <nil>');
    const spec = specOf(a.object);
    const signer = str(spec['signerName']);
    if (signer !== 'kubernetes.io/kubelet-serving' && signer !== 'kubernetes.io/kube-apiserver-client-kubelet') return;
    let cn: string;
    try {
      cn = csrSubject(spec['request']).commonName;
    } catch (e) {
      throw admissionForbidden(a, `unable to parse csr: ${(e as Error).message}`);
    }
    if (cn !== `system:node:${node}`) throw admissionForbidden(a, `can only create a node CSR with CN=system:node:${node}`);
  }

  return {
    name: 'NodeRestriction',
    operations: operations('CREATE', 'UPDATE', 'DELETE'),
    async admit(a) {
      const id = nodeIdentity(a.user);
      if (!id.isNode) return;
      if (!id.name) throw admissionForbidden(a, `could not determine node from user "${a.user.username}"`);
      const node = id.name;
      if (isResource(a, '', 'pods')) return admitPod(node, a);
      if (isResource(a, '', 'nodes')) return admitNode(node, a);
      if (isResource(a, '', 'persistentvolumeclaims')) {
        if (a.subresource === 'status') return admitPvcStatus(node, a);
        throw admissionForbidden(a, 'may only update PVC status');
      }
      if (isResource(a, '', 'serviceaccounts')) return admitServiceAccount(node, a);
      if (isResource(a, 'coordination.k8s.io', 'leases')) return admitLease(node, a);
      if (isResource(a, 'storage.k8s.io', 'csinodes')) return admitCsiNode(node, a);
      if (isResource(a, 'resource.k8s.io', 'resourceslices')) return admitResourceSlice(node, a);
      if (isResource(a, 'certificates.k8s.io', 'certificatesigningrequests') && !insecureKubeletCsrs) return admitCsr(node, a);
    },
    ready: async () => {
      await Promise.all([pods.ready(), nodes.ready()]);
    },
    stop: async () => {
      pods.stop();
      nodes.stop();
    },
  };
}

registerPlugin('NodeRestriction', nodeRestrictionPlugin);
