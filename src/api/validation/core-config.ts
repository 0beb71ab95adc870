/**
 * ConfigMaps, Secrets, Namespaces, ServiceAccounts and ReplicationControllers (pkg/apis/core/validation:
 * ValidateConfigMap(Update), ValidateSecret(Update), ValidateNamespace, validateFinalizerName,
 * ValidateReplicationControllerSpec).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { isConfigMapKey } from '../../machinery/validation/names.ts';
import { validateFinalizerName, validateKubeFinalizerName } from './object-meta.ts';
import { validatePodTemplateSpec } from './core-pod.ts';
import { goInvalid, goMap } from './go-render.ts';
import { FIELD_IMMUTABLE, type J, arr, isObj, isSet, nonNegative, obj, semanticEqual, str, strMap } from './util.ts';

/** core.MaxSecretSize, also the ConfigMap limit. */
export const MAX_SECRET_SIZE = 1024 * 1024;
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

function base64Len(v: unknown): number {
  return Buffer.from(str(v), 'base64').length;
}

export function validateConfigMap(cm: J): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  const binary = obj(cm['binaryData']);
  for (const [key, value] of Object.entries(obj(cm['data']))) {
    for (const m of isConfigMapKey(key)) errs.push(field.invalid(`data[${key}]`, key, m));
    if (key in binary) errs.push(field.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    total += Buffer.byteLength(str(value));
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const m of isConfigMapKey(key)) errs.push(field.invalid(`binaryData[${key}]`, key, m));
    total += base64Len(value);
  }
  // kube's field.NewPath("") prints as "[]".
  if (total > MAX_SECRET_SIZE) errs.push(field.tooLong('[]', '', MAX_SECRET_SIZE));
  return errs;
}

export function validateConfigMapUpdate(cm: J, old: J): FieldError[] {
  const errs: FieldError[] = [];
  if (old['immutable'] === true) {
    if (cm['immutable'] !== true) errs.push(field.forbidden('immutable', IMMUTABLE_SET));
    if (!semanticEqual(cm['data'], old['data'])) errs.push(field.forbidden('data', IMMUTABLE_SET));
    if (!semanticEqual(cm['binaryData'], old['binaryData'])) errs.push(field.forbidden('binaryData', IMMUTABLE_SET));
  }
  return [...errs, ...validateConfigMap(cm)];
}

/** A Go json.Unmarshal into map[string]interface{}: nil when fine, else Go's error text (approximated). */
function goJsonObjectError(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  if (text.trim().length === 0) return 'unexpected end of JSON input';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const first = text.trim()[0]!;
    return /[[{"\-0-9tfn]/.test(first) ? 'unexpected end of JSON input' : `invalid character '${first}' looking for beginning of value`;
  }
  if (isObj(parsed) || parsed === null) return undefined;
  const kind = Array.isArray(parsed) ? 'array' : typeof parsed === 'string' ? 'string' : typeof parsed === 'number' ? 'number' : 'bool';
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

/** The decoded data map kube validates: `data` with `stringData` merged over it (the v1 conversion). */
function secretData(secret: J): Map<string, Buffer> {
  const data = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(obj(secret['data']))) data.set(k, Buffer.from(str(v), 'base64'));
  for (const [k, v] of Object.entries(strMap(secret['stringData']))) data.set(k, Buffer.from(v, 'utf8'));
  return data;
}

export function validateSecret(secret: J): FieldError[] {
  const errs: FieldError[] = [];
  const data = secretData(secret);
  let total = 0;
  for (const [key, value] of data) {
    for (const m of isConfigMapKey(key)) errs.push(field.invalid(`data[${key}]`, key, m));
    total += value.length;
  }
  if (total > MAX_SECRET_SIZE) errs.push(field.tooLong('data', '', MAX_SECRET_SIZE));
  const type = str(secret['type']);
  const jsonKey = (key: string) => {
    const v = data.get(key);
    if (!v) return errs.push(field.required(`data[${key}]`));
    const e = goJsonObjectError(v);
    if (e) errs.push(field.invalid(`data[${key}]`, '<secret contents redacted>', e));
    return 0;
  };
  switch (type) {
    case 'kubernetes.io/service-account-token':
      if (!str(obj(obj(secret['metadata'])['annotations'])['kubernetes.io/service-account.name'])) {
        errs.push(field.required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    case 'kubernetes.io/dockercfg':
      jsonKey('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      jsonKey('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!data.has('username') && !data.has('password')) {
        errs.push(field.required('data[username]'), field.required('data[password]'));
      }
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data.get('ssh-privatekey')?.length) errs.push(field.required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!data.has('tls.crt')) errs.push(field.required('data[tls.crt]'));
      if (!data.has('tls.key')) errs.push(field.required('data[tls.key]'));
      break;
    default:
  }
  return errs;
}

export function validateSecretUpdate(secret: J, old: J): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(secret['type']) || 'Opaque';
  const oldType = str(old['type']) || 'Opaque';
  if (type !== oldType) errs.push(field.invalid('type', type, FIELD_IMMUTABLE));
  if (old['immutable'] === true) {
    if (secret['immutable'] !== true) errs.push(field.forbidden('immutable', IMMUTABLE_SET));
    const a = secretData(secret);
    const b = secretData(old);
    const same = a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v) === true);
    if (!same) errs.push(field.forbidden('data', IMMUTABLE_SET));
  }
  return [...errs, ...validateSecret(secret)];
}

/** ValidateNamespace: spec.finalizers are qualified names or kube's standard ones (reported without index). */
export function validateNamespace(ns: J): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of arr(obj(ns['spec'])['finalizers']).map(str)) {
    errs.push(...validateFinalizerName(f, 'spec.finalizers'), ...validateKubeFinalizerName(f, 'spec.finalizers'));
  }
  return errs;
}

/** ValidateNamespaceFinalizeUpdate: the same finalizer rules, reported per index. */
export function validateNamespaceFinalize(ns: J): FieldError[] {
  return arr(obj(ns['spec'])['finalizers']).map(str).flatMap((f, i) => [
    ...validateFinalizerName(f, `spec.finalizers[${i}]`), ...validateKubeFinalizerName(f, `spec.finalizers[${i}]`),
  ]);
}

/** ValidateReplicationControllerSpec */
export function validateReplicationController(rc: J): FieldError[] {
  const spec = obj(rc['spec']);
  const errs: FieldError[] = [...nonNegative(spec['minReadySeconds'], 'spec.minReadySeconds')];
  const selector = strMap(spec['selector']);
  if (Object.keys(selector).length === 0) errs.push(field.required('spec.selector'));
  errs.push(...nonNegative(spec['replicas'], 'spec.replicas'));
  if (!isSet(spec['template'])) {
    errs.push(field.required('spec.template'));
    return errs;
  }
  const template = obj(spec['template']);
  const labels = strMap(obj(template['metadata'])['labels']);
  if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
    errs.push(goInvalid('spec.template.metadata.labels', goMap(obj(template['metadata'])['labels']), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const rp = str(obj(template['spec'])['restartPolicy']) || 'Always';
  if (rp !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', rp, ['Always']));
  if (isSet(obj(template['spec'])['activeDeadlineSeconds'])) {
    errs.push(field.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}
