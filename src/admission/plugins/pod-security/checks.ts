/**
 * The Pod Security Standards as checks (k8s.io/pod-security-admission/policy at v1.33): each check belongs to
 * the baseline or the restricted level and has one revision per policy version where its rule changed. A check
 * reads the pod's metadata and spec (or a template's) as JSON and, when the pod breaks it, says why: a short
 * reason ("host namespaces") and a detail naming the containers, volumes or values at fault. Reasons and details
 * are the library's words; clients see them in refusals, warnings and audit annotations.
 */
import { goQuote } from '../../../machinery/go-quote.ts';
import type { Level } from './api.ts';

/** The slices of a pod the checks read; everything may be absent or null, as in JSON. */
export interface SecurityOptions {
  privileged?: boolean | null;
  allowPrivilegeEscalation?: boolean | null;
  runAsNonRoot?: boolean | null;
  runAsUser?: number | null;
  procMount?: string | null;
  capabilities?: { add?: string[] | null; drop?: string[] | null } | null;
  seLinuxOptions?: { user?: string | null; role?: string | null; type?: string | null } | null;
  seccompProfile?: { type?: string | null } | null;
  appArmorProfile?: { type?: string | null } | null;
  windowsOptions?: { hostProcess?: boolean | null } | null;
  sysctls?: Array<{ name?: string }> | null;
}

export interface ContainerLike {
  name?: string;
  image?: string;
  ports?: Array<{ hostPort?: number | null }> | null;
  securityContext?: SecurityOptions | null;
}

export interface PodSpecLike {
  containers?: ContainerLike[] | null;
  initContainers?: ContainerLike[] | null;
  ephemeralContainers?: ContainerLike[] | null;
  volumes?: Array<Record<string, unknown> & { name?: string }> | null;
  securityContext?: SecurityOptions | null;
  hostNetwork?: boolean | null;
  hostPID?: boolean | null;
  hostIPC?: boolean | null;
  hostUsers?: boolean | null;
  os?: { name?: string } | null;
  runtimeClassName?: string | null;
}

export interface PodMetaLike {
  name?: string;
  annotations?: Record<string, string> | null;
}

/** Why a pod breaks a check; `undefined` when it passes. */
export interface Violation {
  readonly reason: string;
  /** May be ''. */
  readonly detail: string;
}

export interface CheckContext {
  /**
   * UserNamespacesPodSecurityStandards: pods with `hostUsers: false` pass runAsNonRoot, runAsUser and procMount
   * (for clusters whose nodes all run user namespaces).
   */
  readonly relaxForUserNamespaces: boolean;
}

export type CheckFn = (meta: PodMetaLike, spec: PodSpecLike, c: CheckContext) => Violation | undefined;

export interface VersionedCheck {
  /** First policy minor version (major is 1) this revision applies to. */
  readonly minimumVersion: number;
  readonly check: CheckFn;
  /** Baseline checks a restricted check replaces from this version on. */
  readonly overrides?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: Exclude<Level, 'privileged'>;
  /** Strictly increasing minimum versions. */
  readonly versions: readonly VersionedCheck[];
}

// ——— helpers —————————————————————————————————————————————————————————————————————————————————————————————

const joinQuote = (items: readonly string[]): string => (items.length ? `"${items.join('", "')}"` : '');
const plural = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const containerWord = (names: readonly string[]): string => `${plural('container', 'containers', names.length)} ${joinQuote(names)}`;
/** Go's sets.String.List(): unique, sorted by bytes. */
const sortedUnique = (items: Iterable<string>): string[] => [...new Set(items)].sort(byteOrder);
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Init containers, containers, then ephemeral containers, as the library visits them. */
function visitContainers(spec: PodSpecLike, visit: (c: ContainerLike) => void): void {
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers]) {
    if (Array.isArray(list)) for (const c of list) visit(c ?? {});
  }
}

const nameOf = (c: ContainerLike): string => c.name ?? '';
const isWindows = (spec: PodSpecLike): boolean => spec.os?.name === 'windows';
const relaxed = (spec: PodSpecLike, c: CheckContext): boolean => c.relaxForUserNamespaces && spec.hostUsers === false;
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** "pod and containers "a", "b"": who set a forbidden value. */
function setters(pod: boolean, containers: readonly string[]): string[] {
  const out: string[] = pod ? ['pod'] : [];
  if (containers.length) out.push(containerWord(containers));
  return out;
}

// ——— baseline ————————————————————————————————————————————————————————————————————————————————————————————

const windowsHostProcess: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.windowsOptions?.hostProcess === true) bad.push(nameOf(c)); });
  const who = setters(spec.securityContext?.windowsOptions?.hostProcess === true, bad);
  if (!who.length) return undefined;
  return { reason: 'hostProcess', detail: `${who.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
};

const hostNamespaces: CheckFn = (_m, spec) => {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push('hostNetwork=true');
  if (spec.hostPID === true) set.push('hostPID=true');
  if (spec.hostIPC === true) set.push('hostIPC=true');
  return set.length ? { reason: 'host namespaces', detail: set.join(', ') } : undefined;
};

const privileged: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.privileged === true) bad.push(nameOf(c)); });
  return bad.length ? { reason: 'privileged', detail: `${containerWord(bad)} must not set securityContext.privileged=true` } : undefined;
};

const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID',
  'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

const capabilitiesBaseline: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  visitContainers(spec, (c) => {
    let ok = true;
    for (const cap of c.securityContext?.capabilities?.add ?? []) {
      if (!DEFAULT_CAPABILITIES.has(cap)) {
        ok = false;
        caps.push(cap);
      }
    }
    if (!ok) bad.push(nameOf(c));
  });
  if (!bad.length) return undefined;
  return { reason: 'non-default capabilities', detail: `${containerWord(bad)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add` };
};

const hostPathVolumes: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  for (const v of spec.volumes ?? []) if (present(v?.['hostPath'])) bad.push(v.name ?? '');
  return bad.length ? { reason: 'hostPath volumes', detail: `${plural('volume', 'volumes', bad.length)} ${joinQuote(bad)}` } : undefined;
};

const hostPorts: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    let ok = true;
    for (const p of c.ports ?? []) {
      const hp = p?.hostPort ?? 0;
      if (hp !== 0) {
        ok = false;
        ports.push(String(hp));
      }
    }
    if (!ok) bad.push(nameOf(c));
  });
  if (!bad.length) return undefined;
  const list = sortedUnique(ports);
  return {
    reason: 'hostPort',
    detail: `${containerWord(bad)} ${plural('uses', 'use', bad.length)} ${plural('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`,
  };
};

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const allowedAppArmorType = (t: string | null | undefined): boolean => t === 'RuntimeDefault' || t === 'Localhost';
const allowedAppArmorAnnotation = (v: string): boolean => v === '' || v === 'runtime/default' || v.startsWith('localhost/');

const appArmorProfile: CheckFn = (meta, spec) => {
  const badValues: string[] = [];
  let pod = false;
  const podProfile = spec.securityContext?.appArmorProfile;
  if (present(podProfile) && !allowedAppArmorType(podProfile!.type)) {
    pod = true;
    badValues.push(podProfile!.type ?? '');
  }
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.appArmorProfile;
    if (present(p) && !allowedAppArmorType(p!.type)) {
      bad.push(nameOf(c));
      badValues.push(p!.type ?? '');
    }
  });
  const who = setters(pod, bad);
  const annotations: string[] = [];
  for (const [k, v] of Object.entries(meta.annotations ?? {})) {
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(v)) annotations.push(`${k}=${goQuote(v)}`);
  }
  const values = sortedUnique(badValues);
  if (annotations.length) {
    values.push(...annotations.sort(byteOrder));
    who.push(plural('annotation', 'annotations', annotations.length));
  }
  if (!who.length) return undefined;
  return {
    reason: plural('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
    detail: `${who.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
  };
};

const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

const seLinuxOptions = (allowedTypes: ReadonlySet<string>): CheckFn => (_m, spec) => {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (o: NonNullable<SecurityOptions['seLinuxOptions']>): boolean => {
    let ok = true;
    const type = o.type ?? '';
    if (!allowedTypes.has(type)) {
      ok = false;
      badTypes.push(type);
    }
    if (o.user) {
      ok = false;
      setUser = true;
    }
    if (o.role) {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const podOpts = spec.securityContext?.seLinuxOptions;
  const pod = present(podOpts) && !valid(podOpts!);
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const o = c.securityContext?.seLinuxOptions;
    if (present(o) && !valid(o!)) bad.push(nameOf(c));
  });
  const who = setters(pod, bad);
  if (!who.length) return undefined;
  const data: string[] = [];
  const types = sortedUnique(badTypes);
  if (types.length) data.push(`${plural('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) data.push('user may not be set');
  if (setRole) data.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${who.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
};

const procMount: CheckFn = (_m, spec, c) => {
  if (relaxed(spec, c)) return undefined;
  const bad: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (ct) => {
    const pm = ct.securityContext?.procMount;
    if (present(pm) && pm !== 'Default') {
      bad.push(nameOf(ct));
      types.push(pm!);
    }
  });
  if (!bad.length) return undefined;
  return { reason: 'procMount', detail: `${containerWord(bad)} must not set securityContext.procMount to ${joinQuote(sortedUnique(types))}` };
};

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const validSeccompType = (t: string | null | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';
const validSeccompAnnotation = (v: string): boolean => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

/** v1.0–v1.18: the alpha annotations. */
const seccompBaseline_1_0: CheckFn = (meta, spec) => {
  const forbidden: string[] = [];
  const annotations = meta.annotations ?? {};
  const look = (key: string) => {
    if (!Object.hasOwn(annotations, key)) return;
    const v = annotations[key]!;
    if (!validSeccompAnnotation(v)) forbidden.push(`${key}=${goQuote(v)}`);
  };
  look(SECCOMP_POD_ANNOTATION);
  visitContainers(spec, (c) => look(SECCOMP_CONTAINER_ANNOTATION_PREFIX + nameOf(c)));
  const list = sortedUnique(forbidden);
  if (!list.length) return undefined;
  return { reason: 'seccompProfile', detail: `forbidden ${plural('annotation', 'annotations', list.length)} ${list.join(', ')}` };
};

/** v1.19+: securityContext.seccompProfile.type, when set, is RuntimeDefault or Localhost. */
const seccompBaseline_1_19: CheckFn = (_m, spec) => {
  const badValues: string[] = [];
  let pod = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (present(podProfile) && !validSeccompType(podProfile!.type)) {
    pod = true;
    badValues.push(podProfile!.type ?? '');
  }
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (present(p) && !validSeccompType(p!.type)) {
      bad.push(nameOf(c));
      badValues.push(p!.type ?? '');
    }
  });
  const who = setters(pod, bad);
  if (!who.length) return undefined;
  return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedUnique(badValues))}` };
};

const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

const sysctls = (allowedList: readonly string[]): CheckFn => {
  const allowed = new Set(allowedList);
  return (_m, spec) => {
    const forbidden: string[] = [];
    for (const s of spec.securityContext?.sysctls ?? []) if (!allowed.has(s?.name ?? '')) forbidden.push(s?.name ?? '');
    return forbidden.length ? { reason: 'forbidden sysctls', detail: forbidden.join(', ') } : undefined;
  };
};

// ——— restricted ——————————————————————————————————————————————————————————————————————————————————————————

const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
/** The restricted volume sources in the order the library names the first one a volume sets. */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder',
  'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO',
  'storageos',
];

const restrictedVolumes: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of spec.volumes ?? []) {
    const vol = v ?? {};
    if (ALLOWED_VOLUME_SOURCES.some((s) => present(vol[s]))) continue;
    bad.push(vol.name ?? '');
    types.push(RESTRICTED_VOLUME_SOURCES.find((s) => present(vol[s])) ?? 'unknown');
  }
  if (!bad.length) return undefined;
  const list = sortedUnique(types);
  return {
    reason: 'restricted volume types',
    detail: `${plural('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${plural('uses', 'use', bad.length)} ${plural('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}`,
  };
};

const allowPrivilegeEscalation_1_8: CheckFn = (_m, spec) => {
  const bad: string[] = [];
  visitContainers(spec, (c) => { if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(nameOf(c)); });
  return bad.length ? { reason: 'allowPrivilegeEscalation != false', detail: `${containerWord(bad)} must set securityContext.allowPrivilegeEscalation=false` } : undefined;
};

/** From v1.25 pods that say they run Windows are exempt from the Linux-only restricted checks. */
const notOnWindows = (check: CheckFn): CheckFn => (m, spec, c) => (isWindows(spec) ? undefined : check(m, spec, c));

const runAsNonRoot: CheckFn = (_m, spec, c) => {
  if (relaxed(spec, c)) return undefined;
  let pod = false;
  let podNonRoot = false;
  const podValue = spec.securityContext?.runAsNonRoot;
  if (present(podValue)) {
    if (podValue === false) pod = true;
    else podNonRoot = true;
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (ct) => {
    const v = ct.securityContext?.runAsNonRoot;
    if (present(v)) {
      if (v === false) explicit.push(nameOf(ct));
    } else if (!podNonRoot) {
      implicit.push(nameOf(ct));
    }
  });
  const who = setters(pod, explicit);
  if (who.length) return { reason: 'runAsNonRoot != true', detail: `${who.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (implicit.length) return { reason: 'runAsNonRoot != true', detail: `pod or ${containerWord(implicit)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser_1_23: CheckFn = (_m, spec, c) => {
  if (relaxed(spec, c)) return undefined;
  const bad: string[] = [];
  visitContainers(spec, (ct) => { if (ct.securityContext?.runAsUser === 0) bad.push(nameOf(ct)); });
  const who = setters(spec.securityContext?.runAsUser === 0, bad);
  return who.length ? { reason: 'runAsUser=0', detail: `${who.join(' and ')} must not set runAsUser=0` } : undefined;
};

const seccompRestricted_1_19: CheckFn = (_m, spec) => {
  const badValues: string[] = [];
  let pod = false;
  let podSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (present(podProfile)) {
    if (!validSeccompType(podProfile!.type)) {
      pod = true;
      badValues.push(podProfile!.type ?? '');
    } else {
      podSet = true;
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const p = c.securityContext?.seccompProfile;
    if (present(p)) {
      if (!validSeccompType(p!.type)) {
        explicit.push(nameOf(c));
        badValues.push(p!.type ?? '');
      }
    } else if (!podSet) {
      implicit.push(nameOf(c));
    }
  });
  const who = setters(pod, explicit);
  if (who.length) {
    return { reason: 'seccompProfile', detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedUnique(badValues))}` };
  }
  if (implicit.length) {
    return { reason: 'seccompProfile', detail: `pod or ${containerWord(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
  }
  return undefined;
};

const capabilitiesRestricted_1_22: CheckFn = (_m, spec) => {
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps: string[] = [];
  visitContainers(spec, (c) => {
    const capabilities = c.securityContext?.capabilities;
    if (!present(capabilities)) {
      missingDropAll.push(nameOf(c));
      return;
    }
    if (!(capabilities!.drop ?? []).includes('ALL')) missingDropAll.push(nameOf(c));
    let forbidden = false;
    for (const cap of capabilities!.add ?? []) {
      if (cap !== 'NET_BIND_SERVICE') {
        forbidden = true;
        caps.push(cap);
      }
    }
    if (forbidden) adding.push(nameOf(c));
  });
  const details: string[] = [];
  if (missingDropAll.length) details.push(`${containerWord(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length) details.push(`${containerWord(adding)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add`);
  return details.length ? { reason: 'unrestricted capabilities', detail: details.join('; ') } : undefined;
};

// ——— the table ———————————————————————————————————————————————————————————————————————————————————————————

/** Every check of v1.33 with its revisions (the library's DefaultChecks). */
export const CHECKS: readonly Check[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', versions: [
    { minimumVersion: 8, check: allowPrivilegeEscalation_1_8 },
    { minimumVersion: 25, check: notOnWindows(allowPrivilegeEscalation_1_8) },
  ] },
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumVersion: 0, check: appArmorProfile }] },
  { id: 'capabilities_baseline', level: 'baseline', versions: [{ minimumVersion: 0, check: capabilitiesBaseline }] },
  { id: 'capabilities_restricted', level: 'restricted', versions: [
    { minimumVersion: 22, check: capabilitiesRestricted_1_22, overrides: ['capabilities_baseline'] },
    { minimumVersion: 25, check: notOnWindows(capabilitiesRestricted_1_22), overrides: ['capabilities_baseline'] },
  ] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumVersion: 0, check: hostNamespaces }] },
  { id: 'hostPathVolumes', level: 'baseline', versions: [{ minimumVersion: 0, check: hostPathVolumes }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumVersion: 0, check: hostPorts }] },
  { id: 'privileged', level: 'baseline', versions: [{ minimumVersion: 0, check: privileged }] },
  { id: 'procMount', level: 'baseline', versions: [{ minimumVersion: 0, check: procMount }] },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumVersion: 0, check: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
  { id: 'runAsNonRoot', level: 'restricted', versions: [{ minimumVersion: 0, check: runAsNonRoot }] },
  { id: 'runAsUser', level: 'restricted', versions: [{ minimumVersion: 23, check: runAsUser_1_23 }] },
  { id: 'seLinuxOptions', level: 'baseline', versions: [
    { minimumVersion: 0, check: seLinuxOptions(SELINUX_TYPES_1_0) },
    { minimumVersion: 31, check: seLinuxOptions(SELINUX_TYPES_1_31) },
  ] },
  { id: 'seccompProfile_baseline', level: 'baseline', versions: [
    { minimumVersion: 0, check: seccompBaseline_1_0 },
    { minimumVersion: 19, check: seccompBaseline_1_19 },
  ] },
  { id: 'seccompProfile_restricted', level: 'restricted', versions: [
    { minimumVersion: 19, check: seccompRestricted_1_19, overrides: ['seccompProfile_baseline'] },
    { minimumVersion: 25, check: notOnWindows(seccompRestricted_1_19), overrides: ['seccompProfile_baseline'] },
  ] },
  { id: 'sysctls', level: 'baseline', versions: [
    { minimumVersion: 0, check: sysctls(SYSCTLS_1_0) },
    { minimumVersion: 27, check: sysctls(SYSCTLS_1_27) },
    { minimumVersion: 29, check: sysctls(SYSCTLS_1_29) },
    { minimumVersion: 32, check: sysctls(SYSCTLS_1_32) },
  ] },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumVersion: 0, check: windowsHostProcess }] },
];
