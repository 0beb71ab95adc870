/**
 * What a pod or persistent volume references, as kube's podutil.VisitPodSecretNames / VisitPodConfigmapNames
 * and pv's VisitPVSecretNames walk them (every container kind, env, envFrom, volumes, projected sources,
 * image pull secrets). Objects are plain JSON; missing pieces are skipped.
 */
type Obj = Record<string, any>;

const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const name = (v: unknown): string | undefined => (v && typeof v === 'object' && typeof (v as Obj).name === 'string' && (v as Obj).name ? (v as Obj).name : undefined);

function containers(spec: Obj): Obj[] {
  return [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)];
}

function add(set: Set<string>, v: string | undefined): void {
  if (v) set.add(v);
}

export function podSecretNames(pod: Obj): Set<string> {
  const spec: Obj = pod.spec ?? {};
  const out = new Set<string>();
  for (const s of arr(spec.imagePullSecrets)) add(out, name(s));
  for (const c of containers(spec)) {
    for (const e of arr(c.envFrom)) add(out, name(e.secretRef));
    for (const e of arr(c.env)) add(out, name(e.valueFrom?.secretKeyRef));
  }
  for (const v of arr(spec.volumes)) {
    if (v.azureFile) add(out, typeof v.azureFile.secretName === 'string' ? v.azureFile.secretName : undefined);
    if (v.secret) add(out, typeof v.secret.secretName === 'string' ? v.secret.secretName : undefined);
    for (const k of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) add(out, name(v[k]?.secretRef));
    add(out, name(v.csi?.nodePublishSecretRef));
    for (const src of arr(v.projected?.sources)) add(out, name(src.secret));
  }
  return out;
}

export function podConfigMapNames(pod: Obj): Set<string> {
  const spec: Obj = pod.spec ?? {};
  const out = new Set<string>();
  for (const c of containers(spec)) {
    for (const e of arr(c.envFrom)) add(out, name(e.configMapRef));
    for (const e of arr(c.env)) add(out, name(e.valueFrom?.configMapKeyRef));
  }
  for (const v of arr(spec.volumes)) {
    add(out, name(v.configMap));
    for (const src of arr(v.projected?.sources)) add(out, name(src.configMap));
  }
  return out;
}

/** Claims a pod's volumes use; generic ephemeral volumes own a claim named `<pod>-<volume>`. */
export function podPvcNames(pod: Obj): Set<string> {
  const out = new Set<string>();
  for (const v of arr(pod.spec?.volumes)) {
    if (typeof v.persistentVolumeClaim?.claimName === 'string') add(out, v.persistentVolumeClaim.claimName);
    if (v.ephemeral && typeof v.name === 'string') add(out, `${pod.metadata?.name ?? ''}-${v.name}`);
  }
  return out;
}

/** Resource claims the scheduler/controller resolved for the pod (status.resourceClaimStatuses). */
export function podResourceClaimNames(pod: Obj): Set<string> {
  const out = new Set<string>();
  for (const s of arr(pod.status?.resourceClaimStatuses)) add(out, typeof s.resourceClaimName === 'string' ? s.resourceClaimName : undefined);
  return out;
}

/** Secrets a persistent volume's sources reference, with their namespaces (kube's VisitPVSecretNames). */
export function pvSecretRefs(pv: Obj): { namespace: string; name: string }[] {
  const spec: Obj = pv.spec ?? {};
  const claimNs: string = spec.claimRef?.namespace ?? '';
  const out: { namespace: string; name: string }[] = [];
  const ref = (r: unknown, defaultNs: string): void => {
    const n = name(r);
    if (n) out.push({ namespace: typeof (r as Obj).namespace === 'string' && (r as Obj).namespace ? (r as Obj).namespace : defaultNs, name: n });
  };
  if (spec.azureFile?.secretName) out.push({ namespace: spec.azureFile.secretNamespace || claimNs, name: spec.azureFile.secretName });
  ref(spec.cephfs?.secretRef, claimNs);
  ref(spec.cinder?.secretRef, claimNs);
  ref(spec.flexVolume?.secretRef, claimNs);
  ref(spec.rbd?.secretRef, claimNs);
  ref(spec.scaleIO?.secretRef, claimNs);
  ref(spec.iscsi?.secretRef, claimNs);
  ref(spec.storageos?.secretRef, claimNs);
  // Only the secrets the kubelet itself uses (kube's kubeletVisible); controller secrets stay out.
  for (const k of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef']) ref(spec.csi?.[k], '');
  return out;
}
