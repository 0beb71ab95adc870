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

function probeDefaults(p: unknown): void {
  if (!isObj(p)) return;
  setIfMissing(p, 'timeoutSeconds', 1);
  setIfMissing(p, 'periodSeconds', 10);
  setIfMissing(p, 'successThreshold', 1);
  setIfMissing(p, 'failureThreshold', 3);
  if (isObj(p['httpGet'])) setIfMissing(p['httpGet'], 'scheme', 'HTTP');
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
  // Requests default to limits when only limits are given (SetDefaults_Pod does this for pods).
}

function volumeDefaults(v: J): void {
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    if (isObj(v[k])) setIfMissing(v[k], 'defaultMode', 420);
  }
  if (isObj(v['hostPath'])) setIfMissing(v['hostPath'], 'type', '');
  if (isObj(v['downwardAPI'])) {
    for (const item of list(v['downwardAPI']['items'])) if (isObj(item['fieldRef'])) setIfMissing(item['fieldRef'], 'apiVersion', 'v1');
  }
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
  if (spec['hostNetwork'] === true) {
    for (const c of [...list(spec['initContainers']), ...list(spec['containers'])]) {
      for (const p of list(c['ports'])) if (p['hostPort'] === undefined && typeof p['containerPort'] === 'number') p['hostPort'] = p['containerPort'];
    }
  }
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
  setIfMissing(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setIfMissing(spec, 'volumeMode', 'Filesystem');
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
