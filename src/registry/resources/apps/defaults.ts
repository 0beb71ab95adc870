/** Defaulting for apps/v1 kinds (k8s.io/kubernetes/pkg/apis/apps/v1/defaults.go). */
import { podTemplateDefaults } from '../core/defaults.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const spec = (o: J): J | undefined => (isObj(o['spec']) ? o['spec'] : undefined);
function setIfMissing(o: J, key: string, value: unknown): void {
  if (o[key] === undefined) o[key] = value;
}

export function deploymentDefaults(d: J): void {
  const s = spec(d);
  if (!s) return;
  setIfMissing(s, 'replicas', 1);
  const strategy = isObj(s['strategy']) ? s['strategy'] : (s['strategy'] = {} as J);
  setIfMissing(strategy as J, 'type', 'RollingUpdate');
  if ((strategy as J)['type'] === 'RollingUpdate') {
    const ru = isObj((strategy as J)['rollingUpdate']) ? (strategy as J)['rollingUpdate'] as J : ((strategy as J)['rollingUpdate'] = {} as J) as J;
    setIfMissing(ru, 'maxUnavailable', '25%');
    setIfMissing(ru, 'maxSurge', '25%');
  }
  setIfMissing(s, 'revisionHistoryLimit', 10);
  setIfMissing(s, 'progressDeadlineSeconds', 600);
  podTemplateDefaults(s['template']);
}

export function replicaSetDefaults(rs: J): void {
  const s = spec(rs);
  if (!s) return;
  setIfMissing(s, 'replicas', 1);
  podTemplateDefaults(s['template']);
}

export function statefulSetDefaults(ss: J): void {
  const s = spec(ss);
  if (!s) return;
  setIfMissing(s, 'replicas', 1);
  setIfMissing(s, 'podManagementPolicy', 'OrderedReady');
  const us = isObj(s['updateStrategy']) ? s['updateStrategy'] : (s['updateStrategy'] = {} as J);
  setIfMissing(us as J, 'type', 'RollingUpdate');
  if ((us as J)['type'] === 'RollingUpdate') {
    const ru = isObj((us as J)['rollingUpdate']) ? (us as J)['rollingUpdate'] as J : ((us as J)['rollingUpdate'] = {} as J) as J;
    setIfMissing(ru, 'partition', 0);
  }
  setIfMissing(s, 'revisionHistoryLimit', 10);
  setIfMissing(s, 'persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Retain', whenScaled: 'Retain' });
  for (const t of Array.isArray(s['volumeClaimTemplates']) ? s['volumeClaimTemplates'] : []) {
    if (!isObj(t)) continue;
    const ts = isObj(t['spec']) ? t['spec'] : undefined;
    if (ts) setIfMissing(ts, 'volumeMode', 'Filesystem');
    setIfMissing(t, 'status', { phase: 'Pending' });
  }
  podTemplateDefaults(s['template']);
}

export function daemonSetDefaults(ds: J): void {
  const s = spec(ds);
  if (!s) return;
  const us = isObj(s['updateStrategy']) ? s['updateStrategy'] : (s['updateStrategy'] = {} as J);
  setIfMissing(us as J, 'type', 'RollingUpdate');
  if ((us as J)['type'] === 'RollingUpdate') {
    const ru = isObj((us as J)['rollingUpdate']) ? (us as J)['rollingUpdate'] as J : ((us as J)['rollingUpdate'] = {} as J) as J;
    setIfMissing(ru, 'maxUnavailable', 1);
    setIfMissing(ru, 'maxSurge', 0);
  }
  setIfMissing(s, 'revisionHistoryLimit', 10);
  podTemplateDefaults(s['template']);
}
