// Every Pod Security check of v1.33 at the levels and versions where it applies: a pod that passes, a pod that
// fails and the exact words of the failure (reason and detail), plus the version-specific revisions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Version, type Level } from './api.ts';
import type { PodSpecLike } from './checks.ts';
import { Evaluator, forbiddenDetail, forbiddenReason } from './evaluator.ts';

const evaluator = new Evaluator();
const relaxed = new Evaluator(undefined, { relaxForUserNamespaces: true });

/** A pod that meets restricted:latest; each case breaks one thing. */
function restrictedPod(): { meta: { annotations?: Record<string, string> }; spec: PodSpecLike & Record<string, any> } {
  return {
    meta: {},
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    },
  };
}

const c0 = (p: ReturnType<typeof restrictedPod>) => p.spec.containers![0]!.securityContext!;

interface Case {
  /** The check and what the pod does. */
  readonly name: string;
  readonly change: (p: ReturnType<typeof restrictedPod>) => void;
  /** `level:version` → the expected detail, or null for allowed. */
  readonly expect: Readonly<Record<string, string | null>>;
  readonly evaluator?: Evaluator;
}

const CASES: Case[] = [
  // ——— baseline ———
  {
    name: 'windowsHostProcess: hostProcess=true on the pod and a container',
    change: (p) => {
      p.spec.securityContext!.windowsOptions = { hostProcess: true };
      c0(p).windowsOptions = { hostProcess: true };
    },
    expect: {
      'baseline:latest': 'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
      'restricted:v1.0': 'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
      'privileged:latest': null,
    },
  },
  { name: 'windowsHostProcess: hostProcess=false passes', change: (p) => { c0(p).windowsOptions = { hostProcess: false }; }, expect: { 'baseline:latest': null, 'restricted:latest': null } },
  {
    name: 'hostNamespaces: hostNetwork and hostIPC',
    change: (p) => { p.spec.hostNetwork = true; p.spec.hostIPC = true; p.spec.hostPID = false; },
    expect: { 'baseline:v1.0': 'host namespaces (hostNetwork=true, hostIPC=true)', 'baseline:latest': 'host namespaces (hostNetwork=true, hostIPC=true)' },
  },
  { name: 'hostNamespaces: all false passes', change: (p) => { p.spec.hostNetwork = false; p.spec.hostPID = false; p.spec.hostIPC = false; }, expect: { 'baseline:latest': null } },
  {
    name: 'privileged: two containers',
    change: (p) => {
      c0(p).privileged = true;
      p.spec.initContainers = [{ name: 'i', securityContext: { privileged: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }];
    },
    expect: { 'baseline:latest': 'privileged (containers "i", "c" must not set securityContext.privileged=true)' },
  },
  { name: 'privileged: false passes', change: (p) => { c0(p).privileged = false; }, expect: { 'baseline:latest': null, 'restricted:latest': null } },
  {
    name: 'capabilities (baseline): beyond the default set',
    change: (p) => { c0(p).capabilities = { add: ['SYS_ADMIN', 'CHOWN', 'NET_RAW', 'SYS_ADMIN'] }; },
    expect: {
      'baseline:latest': 'non-default capabilities (container "c" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)',
      // Before v1.22 restricted used the baseline rule (and no drop was required).
      'restricted:v1.21': 'non-default capabilities (container "c" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)',
    },
  },
  { name: 'capabilities (baseline): the default set passes', change: (p) => { c0(p).capabilities = { add: ['CHOWN', 'KILL', 'NET_BIND_SERVICE'] }; }, expect: { 'baseline:latest': null, 'restricted:v1.21': null } },
  {
    name: 'hostPathVolumes',
    change: (p) => { p.spec.volumes = [{ name: 'a', hostPath: { path: '/' } }, { name: 'ok', emptyDir: {} }, { name: 'b', hostPath: { path: '/etc' } }]; },
    expect: {
      'baseline:latest': 'hostPath volumes (volumes "a", "b")',
      // restricted reports hostPath as a restricted volume type instead (its check replaces this one).
      'restricted:latest': 'restricted volume types (volumes "a", "b" use restricted volume type "hostPath")',
    },
  },
  {
    name: 'hostPorts: init containers first, ports as sorted strings',
    change: (p) => {
      c0(p);
      p.spec.containers![0]!.ports = [{ hostPort: 8080 }, { hostPort: 0 }];
      p.spec.initContainers = [{ name: 'i', ports: [{ hostPort: 90 }, { hostPort: 8080 }], securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }];
    },
    expect: { 'baseline:latest': 'hostPort (containers "i", "c" use hostPorts 8080, 90)' },
  },
  { name: 'hostPorts: one container, one port', change: (p) => { p.spec.containers![0]!.ports = [{ hostPort: 80 }]; }, expect: { 'baseline:latest': 'hostPort (container "c" uses hostPort 80)' } },
  { name: 'hostPorts: 0 passes', change: (p) => { p.spec.containers![0]!.ports = [{ hostPort: 0 }]; }, expect: { 'baseline:latest': null } },
  {
    name: 'appArmorProfile: pod, container and annotation',
    change: (p) => {
      p.spec.securityContext!.appArmorProfile = { type: 'Unconfined' };
      c0(p).appArmorProfile = { type: 'Unconfined' };
      p.meta.annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/d': 'localhost/x' };
    },
    expect: {
      'baseline:latest': 'forbidden AppArmor profiles (pod and container "c" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c="unconfined"")',
    },
  },
  { name: 'appArmorProfile: one container', change: (p) => { c0(p).appArmorProfile = { type: 'Unconfined' }; }, expect: { 'baseline:v1.0': 'forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined")' } },
  {
    name: 'appArmorProfile: RuntimeDefault, Localhost and allowed annotations pass',
    change: (p) => {
      p.spec.securityContext!.appArmorProfile = { type: 'RuntimeDefault' };
      c0(p).appArmorProfile = { type: 'Localhost' };
      p.meta.annotations = { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default', 'container.apparmor.security.beta.kubernetes.io/d': '' };
    },
    expect: { 'baseline:latest': null, 'restricted:latest': null },
  },
  {
    name: 'seLinuxOptions: type, user and role',
    change: (p) => {
      p.spec.securityContext!.seLinuxOptions = { type: 'spc_t', user: 'root' };
      c0(p).seLinuxOptions = { role: 'sysadm_r', type: 'foo_t' };
    },
    expect: { 'baseline:latest': 'seLinuxOptions (pod and container "c" set forbidden securityContext.seLinuxOptions: types "foo_t", "spc_t"; user may not be set; role may not be set)' },
  },
  {
    name: 'seLinuxOptions: container_engine_t is allowed from v1.31',
    change: (p) => { c0(p).seLinuxOptions = { type: 'container_engine_t' }; },
    expect: { 'baseline:v1.30': 'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "container_engine_t")', 'baseline:v1.31': null, 'restricted:latest': null },
  },
  { name: 'seLinuxOptions: the container types and level pass', change: (p) => { c0(p).seLinuxOptions = { type: 'container_t', level: 's0:c1' } as never; }, expect: { 'baseline:v1.0': null } },
  {
    name: 'procMount: Unmasked',
    change: (p) => { c0(p).procMount = 'Unmasked'; },
    expect: { 'baseline:latest': 'procMount (container "c" must not set securityContext.procMount to "Unmasked")', 'restricted:latest': 'procMount (container "c" must not set securityContext.procMount to "Unmasked")' },
  },
  { name: 'procMount: Default passes', change: (p) => { c0(p).procMount = 'Default'; }, expect: { 'baseline:latest': null } },
  {
    name: 'procMount, runAsNonRoot, runAsUser: relaxed for user-namespace pods under UserNamespacesPodSecurityStandards',
    change: (p) => {
      p.spec.hostUsers = false;
      c0(p).procMount = 'Unmasked';
      p.spec.securityContext = { runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } };
    },
    evaluator: relaxed,
    expect: { 'restricted:latest': null },
  },
  {
    name: 'the same pod without the gate',
    change: (p) => {
      p.spec.hostUsers = false;
      c0(p).procMount = 'Unmasked';
      p.spec.securityContext = { runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } };
    },
    expect: {
      'restricted:latest': 'procMount (container "c" must not set securityContext.procMount to "Unmasked"), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), runAsUser=0 (pod must not set runAsUser=0)',
    },
  },
  {
    name: 'seccompProfile (baseline, v1.19+): Unconfined',
    change: (p) => {
      p.spec.securityContext!.seccompProfile = { type: 'Unconfined' };
      c0(p).seccompProfile = { type: 'Unconfined' };
    },
    expect: {
      'baseline:v1.19': 'seccompProfile (pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
      // Up to v1.18 only the alpha annotations counted.
      'baseline:v1.18': null,
    },
  },
  {
    name: 'seccompProfile (baseline, up to v1.18): the alpha annotations',
    change: (p) => {
      p.meta.annotations = {
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/c': 'docker/default',
        'container.seccomp.security.alpha.kubernetes.io/x': 'unconfined',
      };
    },
    expect: { 'baseline:v1.18': 'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")', 'baseline:v1.19': null, 'restricted:v1.18': 'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")' },
  },
  {
    name: 'sysctls: an unsafe one',
    change: (p) => { p.spec.securityContext!.sysctls = [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.tcp_syncookies' }, { name: 'vm.swappiness' }]; },
    expect: { 'baseline:latest': 'forbidden sysctls (kernel.msgmax, vm.swappiness)' },
  },
  {
    name: 'sysctls: the allowed list grows at v1.27, v1.29 and v1.32',
    change: (p) => { p.spec.securityContext!.sysctls = [{ name: 'net.ipv4.ip_local_reserved_ports' }, { name: 'net.ipv4.tcp_keepalive_time' }, { name: 'net.ipv4.tcp_rmem' }]; },
    expect: {
      'baseline:v1.26': 'forbidden sysctls (net.ipv4.ip_local_reserved_ports, net.ipv4.tcp_keepalive_time, net.ipv4.tcp_rmem)',
      'baseline:v1.27': 'forbidden sysctls (net.ipv4.tcp_keepalive_time, net.ipv4.tcp_rmem)',
      'baseline:v1.29': 'forbidden sysctls (net.ipv4.tcp_rmem)',
      'baseline:v1.31': 'forbidden sysctls (net.ipv4.tcp_rmem)',
      'baseline:v1.32': null,
      'baseline:latest': null,
      'restricted:v1.32': null,
    },
  },
  // ——— restricted ———
  {
    name: 'restrictedVolumes: the first restricted source of each volume',
    change: (p) => {
      p.spec.volumes = [
        { name: 'n', nfs: { server: 's', path: '/' } }, { name: 'ok', configMap: { name: 'x' } }, { name: 'g', gitRepo: { repository: 'r' } },
        { name: 'e', ephemeral: { volumeClaimTemplate: {} } }, { name: 'n2', nfs: { server: 's', path: '/' } },
      ];
    },
    expect: {
      'restricted:latest': 'restricted volume types (volumes "n", "g", "n2" use restricted volume types "gitRepo", "nfs")',
      'baseline:latest': null,
    },
  },
  { name: 'restrictedVolumes: one volume, one type', change: (p) => { p.spec.volumes = [{ name: 'r', rbd: { image: 'i' } }]; }, expect: { 'restricted:v1.0': 'restricted volume types (volume "r" uses restricted volume type "rbd")' } },
  {
    name: 'restrictedVolumes: the allowed sources pass',
    change: (p) => {
      p.spec.volumes = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'].map((k) => ({ name: k.toLowerCase(), [k]: {} }));
    },
    expect: { 'restricted:latest': null },
  },
  {
    name: 'allowPrivilegeEscalation: unset or true (from v1.8)',
    change: (p) => {
      delete c0(p).allowPrivilegeEscalation;
      p.spec.containers!.push({ name: 'd', securityContext: { allowPrivilegeEscalation: true, capabilities: { drop: ['ALL'] } } });
    },
    expect: { 'restricted:v1.8': 'allowPrivilegeEscalation != false (containers "c", "d" must set securityContext.allowPrivilegeEscalation=false)', 'restricted:v1.7': null, 'baseline:latest': null },
  },
  {
    name: 'runAsNonRoot: set false on the pod and a container',
    change: (p) => {
      p.spec.securityContext!.runAsNonRoot = false;
      c0(p).runAsNonRoot = false;
    },
    expect: { 'restricted:latest': 'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)', 'restricted:v1.0': 'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)', 'baseline:latest': null },
  },
  {
    name: 'runAsNonRoot: unset on the pod, set on one of two containers',
    change: (p) => {
      delete p.spec.securityContext!.runAsNonRoot;
      c0(p).runAsNonRoot = true;
      p.spec.containers!.push({ name: 'd', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } });
    },
    expect: { 'restricted:latest': 'runAsNonRoot != true (pod or container "d" must set securityContext.runAsNonRoot=true)' },
  },
  {
    name: 'runAsUser: 0 is refused from v1.23',
    change: (p) => {
      p.spec.securityContext!.runAsUser = 0;
      c0(p).runAsUser = 0;
    },
    expect: { 'restricted:v1.23': 'runAsUser=0 (pod and container "c" must not set runAsUser=0)', 'restricted:v1.22': null, 'baseline:latest': null },
  },
  { name: 'runAsUser: non-zero passes', change: (p) => { p.spec.securityContext!.runAsUser = 1000; }, expect: { 'restricted:latest': null } },
  {
    name: 'seccompProfile (restricted): unset (required from v1.19)',
    change: (p) => {
      delete p.spec.securityContext!.seccompProfile;
      p.spec.containers!.push({ name: 'd', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'Localhost' } } });
    },
    expect: { 'restricted:v1.19': 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")', 'restricted:v1.18': null, 'baseline:latest': null },
  },
  {
    name: 'seccompProfile (restricted): Unconfined on a container',
    change: (p) => { c0(p).seccompProfile = { type: 'Unconfined' }; },
    expect: { 'restricted:latest': 'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")' },
  },
  {
    name: 'capabilities (restricted): drop ALL missing, a forbidden add',
    change: (p) => {
      c0(p).capabilities = { add: ['NET_RAW', 'NET_BIND_SERVICE'] };
      p.spec.containers!.push({ name: 'd', securityContext: { allowPrivilegeEscalation: false } });
    },
    expect: {
      'restricted:v1.22': 'unrestricted capabilities (containers "c", "d" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "NET_RAW" in securityContext.capabilities.add)',
      'restricted:v1.21': 'non-default capabilities (container "c" must not include "NET_RAW" in securityContext.capabilities.add)',
    },
  },
  { name: 'capabilities (restricted): drop ALL, add NET_BIND_SERVICE passes', change: (p) => { c0(p).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }; }, expect: { 'restricted:latest': null } },
  {
    name: 'Windows pods skip the Linux-only restricted checks from v1.25',
    change: (p) => {
      p.spec.os = { name: 'windows' };
      p.spec.securityContext = { runAsNonRoot: true };
      p.spec.containers = [{ name: 'c' }];
    },
    expect: {
      'restricted:v1.25': null,
      'restricted:latest': null,
      'restricted:v1.24': 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    },
  },
  {
    name: 'ephemeral containers are checked too',
    change: (p) => { p.spec.ephemeralContainers = [{ name: 'debug', securityContext: { privileged: true } }]; },
    expect: { 'baseline:latest': 'privileged (container "debug" must not set securityContext.privileged=true)' },
  },
];

function lv(s: string): { level: Level; version: Version } {
  const [level, version] = s.split(':') as [Level, string];
  return { level, version: Version.parse(version).version };
}

for (const c of CASES) {
  void test(c.name, () => {
    for (const [at, want] of Object.entries(c.expect)) {
      const pod = restrictedPod();
      c.change(pod);
      const res = (c.evaluator ?? evaluator).evaluate(lv(at), pod.meta, pod.spec);
      assert.equal(res.allowed ? null : forbiddenDetail(res), want, at);
    }
  });
}

void test('the restricted-compliant pod passes every level and version', () => {
  for (const level of ['privileged', 'baseline', 'restricted'] as const) {
    for (let minor = 0; minor <= 40; minor++) assert.ok(evaluator.evaluate({ level, version: Version.of(minor) }, {}, restrictedPod().spec).allowed, `${level}:v1.${minor}`);
  }
});

void test('a bare pod at restricted:latest: the four reasons kubectl run meets, in kube\'s order', () => {
  const res = evaluator.evaluate(lv('restricted:latest'), {}, { containers: [{ name: 'x', image: 'nginx' }] });
  assert.equal(forbiddenDetail(res),
    'allowPrivilegeEscalation != false (container "x" must set securityContext.allowPrivilegeEscalation=false), '
    + 'unrestricted capabilities (container "x" must set securityContext.capabilities.drop=["ALL"]), '
    + 'runAsNonRoot != true (pod or container "x" must set securityContext.runAsNonRoot=true), '
    + 'seccompProfile (pod or container "x" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")');
  assert.equal(forbiddenReason(res), 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile');
  assert.ok(evaluator.evaluate(lv('baseline:latest'), {}, { containers: [{ name: 'x', image: 'nginx' }] }).allowed);
});

void test('baseline reasons come before restricted ones, each group by check id', () => {
  const spec: PodSpecLike = { hostPID: true, securityContext: { sysctls: [{ name: 'kernel.x' }] }, containers: [{ name: 'x', securityContext: { privileged: true } }], volumes: [{ name: 'v', nfs: {} }] };
  assert.equal(forbiddenReason(evaluator.evaluate(lv('restricted:latest'), {}, spec)),
    'host namespaces, privileged, forbidden sysctls, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile');
});

void test('versions: latest and versions past the newest check evaluate the newest table; v1.0 the oldest', () => {
  assert.equal(evaluator.maxMinor, 32);
  const spec = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_wmem' }] }, containers: [{ name: 'x' }] };
  for (const v of ['latest', 'v1.32', 'v1.33', 'v1.99', 'v1.9223372036854775807']) assert.ok(evaluator.evaluate(lv(`baseline:${v}`), {}, spec).allowed, v);
  assert.equal(evaluator.checksFor(lv('baseline:latest')), evaluator.checksFor(lv('baseline:v1.50')));
  assert.equal(evaluator.checksFor(lv('restricted:v1.0')).length, 12, 'v1.0 restricted: 10 baseline checks (hostPath replaced) + restrictedVolumes + runAsNonRoot');
  assert.equal(evaluator.checksFor(lv('restricted:latest')).length, 14);
  assert.equal(evaluator.checksFor(lv('baseline:latest')).length, 11);
  assert.equal(evaluator.checksFor(lv('privileged:v1.0')).length, 0);
});

void test('null fields are absent fields (JSON from clients and stores)', () => {
  const spec = {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, seLinuxOptions: null, appArmorProfile: null },
    containers: [{ name: 'c', ports: null, securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: null }, privileged: null, procMount: null } }],
    volumes: [{ name: 'v', hostPath: null, emptyDir: {} }],
  };
  assert.ok(evaluator.evaluate(lv('restricted:latest'), { annotations: null }, spec as PodSpecLike).allowed);
});
