/**
 * Validation of ConfigMaps, Secrets and Services as kube's pkg/apis/core/validation does it, for the rules
 * clients commonly hit: config keys, immutability, the keys each Secret type requires, service ports.
 * Field paths and wording are kube's (clients show them verbatim).
 */
import type { KObject } from '../../../api/types.ts';
import type { FieldError } from '../../../endpoints/status.ts';
import { field } from '../../../endpoints/status.ts';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => v !== null && typeof v === 'object' && !Array.isArray(v);
const keysOf = (v: unknown): string[] => (isObj(v) ? Object.keys(v).sort() : []);

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const IMMUTABLE_MSG = 'field is immutable when `immutable` is set';

/** validation.IsConfigMapKey. */
export function configKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) errs.push(CONFIG_KEY_MSG);
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

function keyErrors(bag: unknown, path: string): FieldError[] {
  return keysOf(bag).flatMap((k) => configKeyErrors(k).map((m) => field.invalid(`${path}[${k}]`, k, m)));
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortDeep(a)) === JSON.stringify(sortDeep(b));
}
function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (isObj(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep(v[k])]));
  return v;
}

export function validateConfigMap(cm: KObject): FieldError[] {
  const errs = keyErrors(cm['data'], 'data');
  for (const k of keysOf(cm['data'])) {
    if (isObj(cm['binaryData']) && k in cm['binaryData']) errs.push(field.invalid(`data[${k}]`, k, 'duplicate of key present in binaryData'));
  }
  return [...errs, ...keyErrors(cm['binaryData'], 'binaryData')];
}

export function validateConfigMapUpdate(cm: KObject, old: KObject): FieldError[] {
  const errs: FieldError[] = [];
  if (old['immutable'] === true) {
    if (cm['immutable'] !== true) errs.push(field.forbidden('immutable', IMMUTABLE_MSG));
    if (!sameJson(cm['data'], old['data'])) errs.push(field.forbidden('data', IMMUTABLE_MSG));
    if (!sameJson(cm['binaryData'], old['binaryData'])) errs.push(field.forbidden('binaryData', IMMUTABLE_MSG));
  }
  return [...errs, ...validateConfigMap(cm)];
}

export function validateSecret(s: KObject): FieldError[] {
  const errs = keyErrors(s['data'], 'data');
  const data = isObj(s['data']) ? s['data'] : {};
  const has = (k: string) => k in data;
  switch (s['type']) {
    case 'kubernetes.io/service-account-token':
      if (!s.metadata.annotations?.['kubernetes.io/service-account.name']) errs.push(field.required('metadata.annotations[kubernetes.io/service-account.name]'));
      break;
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) errs.push(field.required('data[.dockercfg]'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) errs.push(field.required('data[.dockerconfigjson]'));
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) errs.push(field.required('data[username]'), field.required('data[password]'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (typeof data['ssh-privatekey'] !== 'string' || data['ssh-privatekey'] === '') errs.push(field.required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(field.required('data[tls.crt]'));
      if (!has('tls.key')) errs.push(field.required('data[tls.key]'));
      break;
    default:
  }
  return errs;
}

export function validateSecretUpdate(s: KObject, old: KObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((s['type'] ?? '') !== (old['type'] ?? '')) errs.push(field.invalid('type', s['type'] ?? '', 'field is immutable'));
  if (old['immutable'] === true) {
    if (s['immutable'] !== true) errs.push(field.forbidden('immutable', IMMUTABLE_MSG));
    if (!sameJson(s['data'], old['data'])) errs.push(field.forbidden('data', IMMUTABLE_MSG));
  }
  return [...errs, ...validateSecret(s)];
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

export function validateService(svc: KObject): FieldError[] {
  const spec = isObj(svc['spec']) ? svc['spec'] : {};
  const errs: FieldError[] = [];
  const type = spec['type'];
  if (typeof type === 'string' && !SERVICE_TYPES.includes(type)) errs.push(field.notSupported('spec.type', type, SERVICE_TYPES));
  const ports = Array.isArray(spec['ports']) ? spec['ports'] : [];
  const headless = spec['clusterIP'] === 'None';
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(field.required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = `spec.ports[${i}]`;
    if (!isObj(p)) return;
    const name = typeof p['name'] === 'string' ? p['name'] : '';
    if (ports.length > 1 && name === '') errs.push(field.required(`${path}.name`));
    else if (name !== '' && names.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    if (name) names.add(name);
    const port = p['port'];
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      errs.push(field.invalid(`${path}.port`, typeof port === 'number' ? port : 0, 'must be between 1 and 65535, inclusive'));
    }
    const proto = p['protocol'];
    if (typeof proto === 'string' && !PROTOCOLS.includes(proto)) errs.push(field.notSupported(`${path}.protocol`, proto, PROTOCOLS));
  });
  return errs;
}
