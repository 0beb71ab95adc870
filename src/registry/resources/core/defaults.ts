/**
 * Defaulting for core/v1 kinds, after k8s.io/kubernetes/pkg/apis/core/v1/defaults.go: the values kube fills
 * in when a client leaves them out (visible in `kubectl get -o yaml` and relied on by controllers).
 * Only fields the caller omitted are set. Admission plugins' additions (service account, default
 * tolerations, priority) are not defaults and are not applied here.
 */
type J = Record<string, unknown>;

const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): J[] => (Array.isArray(v) ? v.filter(isObj) : []);

function setIfMissing(o: J, key: string, value: unknown): void {
  if (o[key] === undefined) o[key] = value;
}

/** `Always` for `:latest` or untagged images (without digest), else `IfNotPresent`. */
export function defaultPullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const tagSep = image.indexOf(':', lastSlash + 1);
  if (tagSep < 0) return 'Always';
  return image.slice(tagSep + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_HTTPGetAction: path `/` and scheme HTTP (probes and lifecycle hooks alike). */
function httpGetDefaults(h: unknown): void {
  if (!isObj(h)) return;
  if (!h['path']) h['path'] = '/';
  if (!h['scheme']) h['scheme'] = 'HTTP';
}

function probeDefaults(p: unknown): void {
  if (!isObj(p)) return;
  setIfMissing(p, 'timeoutSeconds', 1);
  setIfMissing(p, 'periodSeconds', 10);
  setIfMissing(p, 'successThreshold', 1);
  setIfMissing(p, 'failureThreshold', 3);
  httpGetDefaults(p['httpGet']);
  // GRPCAction.service is `+default=""`.
  if (isObj(p['grpc'])) setIfMissing(p['grpc'], 'service', '');
}

function containerDefaults(c: J): void {
  setIfMissing(c, 'terminationMessagePath', '/dev/termination-log');
  setIfMissing(c, 'terminationMessagePolicy', 'File');
  setIfMissing(c, 'imagePullPolicy', defaultPullPolicy(c['image']));
  setIfMissing(c, 'resources', {});
  for (const p of list(c['ports'])) setIfMissing(p, 'protocol', 'TCP');
  for (const e of list(c['env'])) {
    const fr = isObj(e['valueFrom']) ? e['valueFrom']['fieldRef'] : undefined;
    if (isObj(fr)) setIfMissing(fr, 'apiVersion', 'v1');
  }
  probeDefaults(c['livenessProbe']);
  probeDefaults(c['readinessProbe']);
  probeDefaults(c['startupProbe']);
  if (isObj(c['lifecycle'])) for (const h of ['postStart', 'preStop']) if (isObj(c['lifecycle'][h])) httpGetDefaults(c['lifecycle'][h]['httpGet']);
  // Requests default to limits when only limits are given (SetDefaults_Pod does this for pods).
}

/** Volume source defaults shared by pod volumes and persistent volumes (ISCSI, Azure disk, ScaleIO). */
function volumeSourceDefaults(v: J): void {
  if (isObj(v['iscsi']) && !v['iscsi']['iscsiInterface']) v['iscsi']['iscsiInterface'] = 'default';
  if (isObj(v['azureDisk'])) {
    const a = v['azureDisk'];
    setIfMissing(a, 'cachingMode', 'ReadWrite');
    setIfMissing(a, 'kind', 'Shared');
    setIfMissing(a, 'fsType', 'ext4');
    setIfMissing(a, 'readOnly', false);
  }
  if (isObj(v['scaleIO'])) {
    if (!v['scaleIO']['storageMode']) v['scaleIO']['storageMode'] = 'ThinProvisioned';
    if (!v['scaleIO']['fsType']) v['scaleIO']['fsType'] = 'xfs';
  }
}

function volumeDefaults(v: J): void {
  // SetDefaults_Volume: a volume naming no source is an emptyDir.
  if (Object.keys(v).every((k) => k === 'name' || v[k] === undefined || v[k] === null)) v['emptyDir'] = {};
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObj(v[k])) setIfMissing(v[k], 'defaultMode', 420);
  }
  if (isObj(v['hostPath'])) setIfMissing(v['hostPath'], 'type', '');
  if (isObj(v['downwardAPI'])) {
    for (const item of list(v['downwardAPI']['items'])) if (isObj(item['fieldRef'])) setIfMissing(item['fieldRef'], 'apiVersion', 'v1');
  }
  if (isObj(v['projected'])) {
    for (const src of list(v['projected']['sources'])) {
      // SetDefaults_ServiceAccountTokenProjection: an hour.
      if (isObj(src['serviceAccountToken'])) setIfMissing(src['serviceAccountToken'], 'expirationSeconds', 3600);
      if (isObj(src['downwardAPI'])) {
        for (const item of list(src['downwardAPI']['items'])) if (isObj(item['fieldRef'])) setIfMissing(item['fieldRef'], 'apiVersion', 'v1');
      }
    }
  }
  const ephemeralClaim = isObj(v['ephemeral']) && isObj(v['ephemeral']['volumeClaimTemplate']) ? v['ephemeral']['volumeClaimTemplate'] : undefined;
  if (ephemeralClaim && isObj(ephemeralClaim['spec'])) setIfMissing(ephemeralClaim['spec'], 'volumeMode', 'Filesystem');
  volumeSourceDefaults(v);
}

/** SetDefaults_PodSpec (+ containers and volumes): shared by pods and every pod template. */
export function podSpecDefaults(spec: unknown): void {
  if (!isObj(spec)) return;
  setIfMissing(spec, 'restartPolicy', 'Always');
  setIfMissing(spec, 'terminationGracePeriodSeconds', 30);
  setIfMissing(spec, 'dnsPolicy', 'ClusterFirst');
  setIfMissing(spec, 'securityContext', {});
  setIfMissing(spec, 'schedulerName', 'default-scheduler');
  for (const c of [...list(spec['initContainers']), ...list(spec['containers']), ...list(spec['ephemeralContainers'])]) containerDefaults(c);
  for (const v of list(spec['volumes'])) volumeDefaults(v);
}

/** A pod template: spec defaults and the `creationTimestamp: null` kube's encoder always writes. */
export function podTemplateDefaults(template: unknown): void {
  if (!isObj(template)) return;
  const meta = isObj(template['metadata']) ? template['metadata'] : (template['metadata'] = {} as J);
  setIfMissing(meta as J, 'creationTimestamp', null);
  podSpecDefaults(template['spec']);
}

/** SetDefaults_Pod: pod spec defaults plus enableServiceLinks and requests from limits. */
export function podDefaults(pod: J): void {
  const spec = pod['spec'];
  if (!isObj(spec)) return;
  podSpecDefaults(spec);
  setIfMissing(spec, 'enableServiceLinks', true);
  // With host networking every container port is a host port (pods only: templates are left alone since v1.28).
  if (spec['hostNetwork'] === true) {
    for (const c of [...list(spec['initContainers']), ...list(spec['containers'])]) {
      for (const p of list(c['ports'])) if (!p['hostPort'] && typeof p['containerPort'] === 'number') p['hostPort'] = p['containerPort'];
    }
  }
  for (const c of [...list(spec['initContainers']), ...list(spec['containers'])]) {
    const res = isObj(c['resources']) ? c['resources'] : undefined;
    if (!res || !isObj(res['limits'])) continue;
    const req = isObj(res['requests']) ? res['requests'] : (res['requests'] = {} as J);
    for (const [k, v] of Object.entries(res['limits'])) setIfMissing(req as J, k, v);
  }
}

export function serviceDefaults(svc: J): void {
  const spec = isObj(svc['spec']) ? svc['spec'] : undefined;
  if (!spec) return;
  // NormalizeClusterIPs: clusterIP and clusterIPs[0] are the same value; whichever was given fills the other.
  const ips = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'] : undefined;
  if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' && (!ips || ips.length === 0)) spec['clusterIPs'] = [spec['clusterIP']];
  else if (ips && ips.length > 0 && (spec['clusterIP'] === undefined || spec['clusterIP'] === '') && typeof ips[0] === 'string') spec['clusterIP'] = ips[0];
  setIfMissing(spec, 'type', 'ClusterIP');
  setIfMissing(spec, 'sessionAffinity', 'None');
  const type = spec['type'];
  for (const p of list(spec['ports'])) {
    setIfMissing(p, 'protocol', 'TCP');
    if ((p['targetPort'] === undefined || p['targetPort'] === 0 || p['targetPort'] === '') && typeof p['port'] === 'number') p['targetPort'] = p['port'];
  }
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') setIfMissing(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'NodePort' || type === 'LoadBalancer') setIfMissing(spec, 'externalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') setIfMissing(spec, 'allocateLoadBalancerNodePorts', true);
  if (spec['sessionAffinity'] === 'ClientIP') {
    const cfg = isObj(spec['sessionAffinityConfig']) ? spec['sessionAffinityConfig'] : (spec['sessionAffinityConfig'] = {} as J);
    const ip = isObj((cfg as J)['clientIP']) ? (cfg as J)['clientIP'] as J : ((cfg as J)['clientIP'] = {} as J) as J;
    setIfMissing(ip, 'timeoutSeconds', 10800);
  }
}

/** Secret type Opaque; stringData folds into data (base64), as kube's v1 → internal conversion does. */
export function secretDefaults(s: J): void {
  setIfMissing(s, 'type', 'Opaque');
  if (isObj(s['stringData'])) {
    const data = isObj(s['data']) ? s['data'] : (s['data'] = {} as J);
    for (const [k, v] of Object.entries(s['stringData'])) (data as J)[k] = Buffer.from(String(v), 'utf8').toString('base64');
    delete s['stringData'];
  }
}

export function persistentVolumeDefaults(pv: J): void {
  const spec = isObj(pv['spec']) ? pv['spec'] : undefined;
  if (!spec) return;
  if (!spec['persistentVolumeReclaimPolicy']) spec['persistentVolumeReclaimPolicy'] = 'Retain';
  setIfMissing(spec, 'volumeMode', 'Filesystem');
  volumeSourceDefaults(spec);
}

export function persistentVolumeClaimDefaults(pvc: J): void {
  const spec = isObj(pvc['spec']) ? pvc['spec'] : undefined;
  if (spec) setIfMissing(spec, 'volumeMode', 'Filesystem');
}

/** ReplicationController: replicas 1, selector and labels from the template's labels. */
export function replicationControllerDefaults(rc: J): void {
  const spec = isObj(rc['spec']) ? rc['spec'] : undefined;
  if (!spec) return;
  setIfMissing(spec, 'replicas', 1);
  const template = isObj(spec['template']) ? spec['template'] : undefined;
  const labels = template && isObj(template['metadata']) && isObj(template['metadata']['labels']) ? template['metadata']['labels'] : undefined;
  if (labels && (!isObj(spec['selector']) || Object.keys(spec['selector']).length === 0)) spec['selector'] = { ...labels };
  const meta = isObj(rc['metadata']) ? rc['metadata'] : undefined;
  if (labels && meta && (!isObj(meta['labels']) || Object.keys(meta['labels']).length === 0)) meta['labels'] = { ...labels };
  podTemplateDefaults(template);
}

export function podTemplateObjectDefaults(pt: J): void {
  podTemplateDefaults(pt['template']);
}

/** Endpoints: every subset port's protocol defaults to TCP (SetDefaults_EndpointPort). */
export function endpointsDefaults(ep: J): void {
  for (const subset of Array.isArray(ep['subsets']) ? ep['subsets'] : []) {
    if (!isObj(subset)) continue;
    for (const port of Array.isArray(subset['ports']) ? subset['ports'] : []) if (isObj(port)) setIfMissing(port, 'protocol', 'TCP');
  }
}

/** discovery/v1 EndpointSlice: ports get protocol TCP and an empty name (SetDefaults_EndpointPort). */
export function endpointSliceDefaults(slice: J): void {
  for (const port of Array.isArray(slice['ports']) ? slice['ports'] : []) {
    if (!isObj(port)) continue;
    setIfMissing(port, 'name', '');
    setIfMissing(port, 'protocol', 'TCP');
  }
}

/**
 * What kube's v1 ↔ internal PodSpec conversion leaves visible (it runs after defaulting and the field
 * manager, before validation, so strategies apply it in their prepare hooks): `serviceAccount` is the
 * deprecated alias of `serviceAccountName`; the name wins, the alias fills it when the name is empty, and
 * the alias always reads back as the name.
 */
export function podSpecConversion(spec: unknown): void {
  if (!isObj(spec)) return;
  if (!spec['serviceAccountName'] && typeof spec['serviceAccount'] === 'string' && spec['serviceAccount']) spec['serviceAccountName'] = spec['serviceAccount'];
  if (typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName']) spec['serviceAccount'] = spec['serviceAccountName'];
  else delete spec['serviceAccount'];
}

/** podSpecConversion for the pod template at `template` (a PodTemplateSpec). */
export function podTemplateConversion(template: unknown): void {
  if (isObj(template)) podSpecConversion(template['spec']);
}

/**
 * SetDefaults_NodeStatus: allocatable is the capacity when the node reports none. (Node.spec.podCIDR and
 * podCIDRs are a conversion, `nodeSpecConversion`.)
 */
export function nodeDefaults(node: J): void {
  const status = isObj(node['status']) ? node['status'] : undefined;
  if (status && status['allocatable'] === undefined && isObj(status['capacity'])) status['allocatable'] = { ...status['capacity'] };
}

/**
 * kube's v1 ↔ internal NodeSpec conversion: podCIDRs is the source of truth; a lone podCIDR becomes
 * podCIDRs, and podCIDR reads back as podCIDRs[0].
 */
export function nodeSpecConversion(node: J): void {
  const spec = isObj(node['spec']) ? node['spec'] : undefined;
  if (!spec) return;
  const cidrs = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
  if (cidrs.length === 0 && typeof spec['podCIDR'] === 'string' && spec['podCIDR']) spec['podCIDRs'] = [spec['podCIDR']];
  const now = Array.isArray(spec['podCIDRs']) ? spec['podCIDRs'] : [];
  if (now.length > 0 && typeof now[0] === 'string') spec['podCIDR'] = now[0];
}

/**
 * SetDefaults_LimitRangeItem, for Container items: default (limit) from max, defaultRequest from default,
 * then from min; keys already given are kept. Empty maps are left out (omitempty).
 */
export function limitRangeDefaults(lr: J): void {
  const spec = isObj(lr['spec']) ? lr['spec'] : undefined;
  if (!spec) return;
  for (const item of list(spec['limits'])) {
    if (item['type'] !== 'Container') continue;
    const def: J = isObj(item['default']) ? item['default'] : {};
    const req: J = isObj(item['defaultRequest']) ? item['defaultRequest'] : {};
    if (isObj(item['max'])) for (const [k, v] of Object.entries(item['max'])) setIfMissing(def, k, v);
    for (const [k, v] of Object.entries(def)) setIfMissing(req, k, v);
    if (isObj(item['min'])) for (const [k, v] of Object.entries(item['min'])) setIfMissing(req, k, v);
    if (Object.keys(def).length) item['default'] = def;
    if (Object.keys(req).length) item['defaultRequest'] = req;
  }
}
