/**
 * Container validation (pkg/apis/core/validation/validation.go: validateContainerCommon, validateContainers,
 * validateInitContainers, validateContainerPorts, ValidateEnv, ValidateEnvFrom, ValidateVolumeMounts,
 * validateResourceRequirements, validateProbe, validateLifecycle, checkHostPortConflicts).
 *
 * Fields kube always defaults (imagePullPolicy, terminationMessagePolicy, protocol, probe thresholds, httpGet
 * scheme) are treated as defaulted when absent or empty: kube's defaulting cannot tell "" from unset either.
 */
import { FieldError, field } from '../../machinery/errors.ts';
import {
  inclusiveRangeError, isConfigMapKey, isDNS1123Label, isDNS1123Subdomain, isHTTPHeaderName, isQualifiedName,
  isRelaxedEnvVarName, isValidPortName, isValidPortNum,
} from '../../machinery/validation/names.ts';
import { validateResources } from './core-resources.ts';
import { validateSeccompProfile } from './core-security.ts';
import { currentPolicy } from './cluster-policy.ts';
import { type J, arr, validateLocalDescendingPath, intOrString, isObj, isSet, nonNegative, obj, str } from './util.ts';

export interface ContainerContext {
  /** Volume name → source object (only volumes that validated). */
  volumes: Map<string, J>;
  gracePeriod: number | undefined;
  podRestartPolicy: string;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_POLICIES = ['File', 'FallbackToLogsOnError'];
function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arr(ports).forEach((raw, i) => {
    const port = obj(raw);
    const p = `${path}[${i}]`;
    const name = str(port['name']);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) for (const m of msgs) errs.push(field.invalid(`${p}.name`, name, m));
      else if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
      else names.add(name);
    }
    const cp = port['containerPort'];
    if (!cp) errs.push(field.required(`${p}.containerPort`));
    else for (const m of isValidPortNum(Number(cp))) errs.push(field.invalid(`${p}.containerPort`, cp, m));
    const hp = port['hostPort'];
    if (hp) for (const m of isValidPortNum(Number(hp))) errs.push(field.invalid(`${p}.hostPort`, hp, m));
    const proto = str(port['protocol']);
    if (proto && !PROTOCOLS.includes(proto)) errs.push(field.notSupported(`${p}.protocol`, proto, PROTOCOLS));
  });
  return errs;
}

const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName',
  'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function validateKeySelector(sel: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sel['name']);
  for (const m of isDNS1123Subdomain(name)) errs.push(field.invalid(`${path}.name`, name, m));
  const key = str(sel['key']);
  if (!key) errs.push(field.required(`${path}.key`));
  else for (const m of isConfigMapKey(key)) errs.push(field.invalid(`${path}.key`, key, m));
  return errs;
}

/** validateObjectFieldSelector for env (volumes pass their own allowed paths). */
export function validateFieldRef(fr: J, allowed: string[], path: string): FieldError[] {
  if (!str(fr['apiVersion'] ?? 'v1')) return [field.required(`${path}.apiVersion`)];
  const fp = str(fr['fieldPath']);
  if (!fp) return [field.required(`${path}.fieldPath`)];
  const m = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/.exec(fp);
  if (m) {
    const key = m[1] === 'metadata.annotations' ? m[2]!.toLowerCase() : m[2]!;
    return isQualifiedName(key).map((msg) => field.invalid(path, key, msg));
  }
  if (!allowed.includes(fp)) return [field.notSupported(`${path}.fieldPath`, fp, allowed)];
  return [];
}

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(env).forEach((raw, i) => {
    const ev = obj(raw);
    const p = `${path}[${i}]`;
    const name = str(ev['name']);
    if (!name) errs.push(field.required(`${p}.name`));
    else for (const m of isRelaxedEnvVarName(name)) errs.push(field.invalid(`${p}.name`, name, m));
    if (!isSet(ev['valueFrom'])) return;
    const vf = obj(ev['valueFrom']);
    const vp = `${p}.valueFrom`;
    let n = 0;
    if (isObj(vf['fieldRef'])) {
      n++;
      errs.push(...validateFieldRef(vf['fieldRef'], ENV_FIELD_PATHS, `${vp}.fieldRef`));
    }
    if (isObj(vf['resourceFieldRef'])) {
      n++;
      const res = str(vf['resourceFieldRef']['resource']);
      if (!res) errs.push(field.required(`${vp}.resourceFieldRef.resource`));
      else if (!RESOURCE_FIELD_PATHS.includes(res) && !res.startsWith('limits.hugepages-') && !res.startsWith('requests.hugepages-')) {
        errs.push(field.notSupported(`${vp}.resourceFieldRef.resource`, res, RESOURCE_FIELD_PATHS));
      }
    }
    if (isObj(vf['configMapKeyRef'])) {
      n++;
      errs.push(...validateKeySelector(vf['configMapKeyRef'], `${vp}.configMapKeyRef`));
    }
    if (isObj(vf['secretKeyRef'])) {
      n++;
      errs.push(...validateKeySelector(vf['secretKeyRef'], `${vp}.secretKeyRef`));
    }
    if (n === 0) errs.push(field.invalid(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (str(ev['value'])) errs.push(field.invalid(vp, '', 'may not be specified when `value` is not empty'));
    else if (n > 1) errs.push(field.invalid(vp, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateEnvFrom(envFrom: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(envFrom).forEach((raw, i) => {
    const ev = obj(raw);
    const p = `${path}[${i}]`;
    const prefix = str(ev['prefix']);
    if (prefix) for (const m of isRelaxedEnvVarName(prefix)) errs.push(field.invalid(`${p}.prefix`, prefix, m));
    let n = 0;
    for (const k of ['configMapRef', 'secretRef']) {
      if (!isObj(ev[k])) continue;
      n++;
      const name = str(ev[k]['name']);
      if (!name) errs.push(field.required(`${p}.${k}.name`));
      else for (const m of isDNS1123Subdomain(name.endsWith('-') ? `${name.slice(0, -2)}a` : name)) errs.push(field.invalid(`${p}.${k}.name`, name, m));
    }
    if (n === 0) errs.push(field.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(field.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

export { validateLocalDescendingPath } from './util.ts';

function validateVolumeMounts(c: J, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const devices = new Map(arr(c['volumeDevices']).map((d) => [str(obj(d)['name']), str(obj(d)['devicePath'])] as const));
  const seen = new Set<string>();
  const privileged = obj(c['securityContext'])['privileged'] === true;
  arr(c['volumeMounts']).forEach((raw, i) => {
    const m = obj(raw);
    const p = `${path}[${i}]`;
    const name = str(m['name']);
    const mountPath = str(m['mountPath']);
    if (!name) errs.push(field.required(`${p}.name`));
    if (!ctx.volumes.has(name)) errs.push(field.notFound(`${p}.name`, name));
    if (!mountPath) errs.push(field.required(`${p}.mountPath`));
    if (seen.has(mountPath)) errs.push(field.invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    seen.add(mountPath);
    if (devices.has(name)) errs.push(field.invalid(`${p}.name`, name, 'must not already exist in volumeDevices'));
    if ([...devices.values()].includes(mountPath)) errs.push(field.invalid(`${p}.mountPath`, mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = str(m['subPath']);
    const subPathExpr = str(m['subPathExpr']);
    // kube reports these two against the list path (fldPath.Child), not the item.
    if (subPath) errs.push(...validateLocalDescendingPath(subPath, `${path}.subPath`));
    if (subPathExpr) {
      if (subPath) errs.push(field.invalid(`${p}.subPathExpr`, subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(subPathExpr, `${path}.subPathExpr`));
    }
    const prop = m['mountPropagation'];
    if (isSet(prop)) {
      const supported = ['Bidirectional', 'HostToContainer', 'None'];
      if (!supported.includes(str(prop))) errs.push(field.notSupported(`${path}.mountPropagation`, prop, supported));
      if (prop === 'Bidirectional' && !privileged) errs.push(field.forbidden(`${path}.mountPropagation`, 'Bidirectional mount propagation is available only to privileged containers'));
    }
  });
  return errs;
}

function validateHandler(h: J, path: string, allowSleep: boolean, allowGrpc: boolean, grace: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const one = (key: string, check: () => FieldError[]) => {
    if (!isObj(h[key]) || (key === 'sleep' && !allowSleep) || (key === 'grpc' && !allowGrpc)) return;
    if (n > 0) errs.push(field.forbidden(`${path}.${key}`, 'may not specify more than 1 handler type'));
    else {
      n++;
      errs.push(...check());
    }
  };
  one('exec', () => (arr(obj(h['exec'])['command']).length === 0 ? [field.required(`${path}.exec.command`)] : []));
  one('httpGet', () => {
    const g = obj(h['httpGet']);
    const out: FieldError[] = [];
    out.push(...validatePortNumOrName(g['port'], `${path}.httpGet.port`));
    const scheme = str(g['scheme']);
    if (scheme && scheme !== 'HTTP' && scheme !== 'HTTPS') out.push(field.notSupported(`${path}.httpGet.scheme`, scheme, ['HTTP', 'HTTPS']));
    for (const hd of arr(g['httpHeaders'])) for (const m of isHTTPHeaderName(str(obj(hd)['name']))) out.push(field.invalid(`${path}.httpGet.httpHeaders`, str(obj(hd)['name']), m));
    return out;
  });
  one('tcpSocket', () => validatePortNumOrName(obj(h['tcpSocket'])['port'], `${path}.tcpSocket.port`));
  one('grpc', () => validatePortNumOrName(obj(h['grpc'])['port'], `${path}.grpc.port`));
  one('sleep', () => {
    const s = obj(h['sleep'])['seconds'];
    const secs = typeof s === 'number' ? s : 0;
    if (grace !== undefined && (secs < 0 || secs > grace)) {
      return [field.invalid(`${path}.sleep`, secs, `must be non-negative and less than terminationGracePeriodSeconds (${grace})`)];
    }
    return [];
  });
  if (n === 0) errs.push(field.required(path, 'must specify a handler type'));
  return errs;
}

/** ValidatePortNumOrName */
export function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  const p = intOrString(port);
  if (p.type === 'int') return isValidPortNum(p.int).map((m) => field.invalid(path, p.int, m));
  if (p.type === 'string') return isValidPortName(p.str).map((m) => field.invalid(path, p.str, m));
  return [field.invalid(path, port ?? null, inclusiveRangeError(1, 65535))];
}

function validateProbe(probe: unknown, path: string, kind: 'liveness' | 'readiness' | 'startup', grace: number | undefined): FieldError[] {
  if (!isSet(probe)) return [];
  const p = obj(probe);
  const errs = validateHandler(p, path, false, true, grace);
  for (const k of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) errs.push(...nonNegative(p[k], `${path}.${k}`));
  const tgps = p['terminationGracePeriodSeconds'];
  if (typeof tgps === 'number' && tgps <= 0) errs.push(field.invalid(`${path}.terminationGracePeriodSeconds`, tgps, 'must be greater than 0'));
  if (kind !== 'readiness' && typeof p['successThreshold'] === 'number' && p['successThreshold'] !== 1) {
    errs.push(field.invalid(`${path}.successThreshold`, p['successThreshold'], 'must be 1'));
  }
  if (kind === 'readiness' && isSet(tgps)) errs.push(field.invalid(`${path}.terminationGracePeriodSeconds`, tgps, 'must not be set for readinessProbes'));
  return errs;
}

function validateLifecycle(lc: J, path: string, grace: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['postStart', 'preStop']) if (isSet(lc[k])) errs.push(...validateHandler(obj(lc[k]), `${path}.${k}`, true, false, grace));
  return errs;
}

/** validateContainerCommon: what every container kind must satisfy. */
function validateContainerCommon(c: J, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c['name']);
  if (!name) errs.push(field.required(`${path}.name`));
  else for (const m of isDNS1123Label(name)) errs.push(field.invalid(`${path}.name`, name, m));
  if (!str(c['image'])) errs.push(field.required(`${path}.image`));
  const tmp = str(c['terminationMessagePolicy']);
  if (tmp && !TERMINATION_POLICIES.includes(tmp)) errs.push(field.notSupported(`${path}.terminationMessagePolicy`, tmp, TERMINATION_POLICIES));
  errs.push(...validateContainerPorts(c['ports'], `${path}.ports`));
  errs.push(...validateEnv(c['env'], `${path}.env`));
  errs.push(...validateEnvFrom(c['envFrom'], `${path}.envFrom`));
  errs.push(...validateVolumeMounts(c, ctx, `${path}.volumeMounts`));
  const pull = str(c['imagePullPolicy']);
  if (pull && !PULL_POLICIES.includes(pull)) errs.push(field.notSupported(`${path}.imagePullPolicy`, pull, PULL_POLICIES));
  errs.push(...validateResources(c['resources'], `${path}.resources`));
  const sc = obj(c['securityContext']);
  // ValidateSecurityContext: privileged containers need kube-apiserver --allow-privileged (default false).
  if (sc['privileged'] === true && !currentPolicy().allowPrivileged) errs.push(field.forbidden(`${path}.securityContext.privileged`, 'disallowed by cluster policy'));
  for (const k of ['runAsUser', 'runAsGroup']) {
    const v = sc[k];
    if (typeof v === 'number' && (v < 0 || v > 2147483647)) errs.push(field.invalid(`${path}.securityContext.${k}`, v, inclusiveRangeError(0, 2147483647)));
  }
  errs.push(...validateSeccompProfile(sc['seccompProfile'], `${path}.securityContext.seccompProfile`));
  if (sc['allowPrivilegeEscalation'] === false && sc['privileged'] === true) {
    errs.push(field.invalid(`${path}.securityContext`, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
  }
  if (sc['allowPrivilegeEscalation'] === false && arr(obj(sc['capabilities'])['add']).includes('CAP_SYS_ADMIN')) {
    errs.push(field.invalid(`${path}.securityContext`, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
  }
  return errs;
}

/** checkHostPortConflicts: protocol/hostIP/hostPort triples unique across the given containers. */
function hostPortConflicts(containers: J[], path: string, indexBase = 0): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    arr(c['ports']).forEach((raw, pi) => {
      const port = obj(raw);
      const hp = port['hostPort'];
      if (!hp) return;
      const key = `${str(port['protocol']) || 'TCP'}/${str(port['hostIP'])}/${String(hp)}`;
      if (seen.has(key)) errs.push(field.duplicate(`${path}[${ci + indexBase}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

/** validateContainers: at least one, names unique, probes and lifecycle allowed, restartPolicy not. */
export function validateContainers(containers: unknown, ctx: ContainerContext, path: string): FieldError[] {
  const list = arr(containers).map(obj);
  if (list.length === 0) return [field.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, ctx, p));
    const name = str(c['name']);
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else names.add(name);
    if (isSet(c['lifecycle'])) errs.push(...validateLifecycle(obj(c['lifecycle']), `${p}.lifecycle`, ctx.gracePeriod));
    errs.push(...validateProbe(c['livenessProbe'], `${p}.livenessProbe`, 'liveness', ctx.gracePeriod));
    errs.push(...validateProbe(c['readinessProbe'], `${p}.readinessProbe`, 'readiness', ctx.gracePeriod));
    errs.push(...validateProbe(c['startupProbe'], `${p}.startupProbe`, 'startup', ctx.gracePeriod));
    if (isSet(c['restartPolicy'])) errs.push(field.forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
  });
  errs.push(...hostPortConflicts(list, path));
  return errs;
}

/** validateInitContainers: names unique across init and regular containers; sidecars (restartPolicy Always). */
export function validateInitContainers(inits: unknown, regular: unknown, ctx: ContainerContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(arr(regular).map((c) => str(obj(c)['name'])));
  arr(inits).map(obj).forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, ctx, p));
    let sidecar = false;
    if (isSet(c['restartPolicy'])) {
      if (c['restartPolicy'] !== 'Always') errs.push(field.notSupported(`${p}.restartPolicy`, c['restartPolicy'], ['Always']));
      sidecar = c['restartPolicy'] === 'Always';
    }
    const name = str(c['name']);
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else if (name) names.add(name);
    errs.push(...hostPortConflicts([c], path, i));
    if (sidecar) {
      if (isSet(c['lifecycle'])) errs.push(...validateLifecycle(obj(c['lifecycle']), `${p}.lifecycle`, ctx.gracePeriod));
      errs.push(...validateProbe(c['livenessProbe'], `${p}.livenessProbe`, 'liveness', ctx.gracePeriod));
      errs.push(...validateProbe(c['readinessProbe'], `${p}.readinessProbe`, 'readiness', ctx.gracePeriod));
      errs.push(...validateProbe(c['startupProbe'], `${p}.startupProbe`, 'startup', ctx.gracePeriod));
    } else {
      for (const k of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (isSet(c[k])) errs.push(field.forbidden(`${p}.${k}`, 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

/** validateContainerOnlyForPod: a pod's (not a template's) images may not carry surrounding whitespace. */
export function validateContainersOnlyForPod(containers: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  arr(containers).forEach((c, i) => {
    const image = str(obj(c)['image']);
    if (image.trim() !== image) errs.push(field.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}
