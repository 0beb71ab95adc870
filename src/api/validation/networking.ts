/**
 * networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy (pkg/apis/networking/validation/validation.go:
 * validateIngressSpec, validateIngressRules, validateHTTPIngressPath, validateIngressBackend,
 * validateIngressTLS, ValidateNetworkPolicySpec, ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer,
 * ValidateIPBlock, ValidateIngressClass).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import {
  CIDR_ERROR, ipFamilyOf, isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, isValidPortName,
  isValidPortNum, isWildcardDNS1123Subdomain, parseCIDR,
} from '../../machinery/validation/names.ts';
import { type J, arr, intOrString, isObj, isSet, obj, str, validateLabelSelector } from './util.ts';
import { goInvalid, goStrings } from './go-render.ts';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

function validateTypedLocalRef(ref: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(ref['apiGroup'])) for (const m of isDNS1123Subdomain(str(ref['apiGroup']))) errs.push(field.invalid(`${path}.apiGroup`, str(ref['apiGroup']), m));
  for (const k of ['kind', 'name']) {
    const v = str(ref[k]);
    if (!v) errs.push(field.required(`${path}.${k}`));
    else for (const m of isValidPathSegmentName(v)) errs.push(field.invalid(`${path}.${k}`, v, m));
  }
  return errs;
}

/** validateIngressBackend: exactly one of service/resource; a service port by name or number. */
function validateBackend(b: J, path: string): FieldError[] {
  const hasResource = isSet(b['resource']);
  const hasService = isSet(b['service']);
  if (hasResource && hasService) return [field.invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) return validateTypedLocalRef(obj(b['resource']), `${path}.resource`);
  if (!hasService) return [field.invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const svc = obj(b['service']);
  const name = str(svc['name']);
  if (!name) errs.push(field.required(`${path}.service.name`));
  else for (const m of isDNS1035Label(name)) errs.push(field.invalid(`${path}.service.name`, name, m));
  const port = obj(svc['port']);
  const pname = str(port['name']);
  const pnum = typeof port['number'] === 'number' ? port['number'] : 0;
  if (pname && pnum) errs.push(field.invalid(path, '', 'cannot set both port name & port number'));
  else if (pname) for (const m of isValidPortName(pname)) errs.push(field.invalid(`${path}.service.port.name`, pname, m));
  else if (pnum) for (const m of isValidPortNum(pnum)) errs.push(field.invalid(`${path}.service.port.number`, pnum, m));
  else errs.push(field.required(path, 'port name or number is required'));
  return errs;
}

function validatePath(p: J, path: string): FieldError[] {
  const pathType = p['pathType'];
  if (!isSet(pathType)) return [field.required(`${path}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = str(p['path']);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(field.invalid(`${path}.path`, value, 'must be an absolute path'));
    if (value) {
      for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) errs.push(field.invalid(`${path}.path`, value, `must not contain '${seq}'`));
      for (const suf of INVALID_SUFFIXES) if (value.endsWith(suf)) errs.push(field.invalid(`${path}.path`, value, `cannot end with '${suf}'`));
    }
  } else if (pathType === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errs.push(field.invalid(`${path}.path`, value, 'must be an absolute path'));
  } else {
    errs.push(field.notSupported(`${path}.pathType`, pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(obj(p['backend']), `${path}.backend`));
  return errs;
}

function validateHost(host: string, path: string): FieldError[] {
  if (host.includes('*')) return isWildcardDNS1123Subdomain(host).map((m) => field.invalid(path, host, m));
  return isDNS1123Subdomain(host).map((m) => field.invalid(path, host, m));
}

export function validateIngress(ing: J): FieldError[] {
  const spec = obj(ing['spec']);
  const errs: FieldError[] = [];
  const rules = arr(spec['rules']);
  if (rules.length === 0 && !isSet(spec['defaultBackend'])) {
    errs.push(goInvalid('spec', Array.isArray(spec['rules']) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)', 'either `defaultBackend` or `rules` must be specified'));
  }
  if (isSet(spec['defaultBackend'])) errs.push(...validateBackend(obj(spec['defaultBackend']), 'spec.defaultBackend'));
  rules.forEach((raw, i) => {
    const r = obj(raw);
    const p = `spec.rules[${i}]`;
    const host = str(r['host']);
    if (host) {
      if (ipFamilyOf(host)) errs.push(field.invalid(`${p}.host`, host, 'must be a DNS name, not an IP address'));
      errs.push(...validateHost(host, `${p}.host`));
    }
    if (isSet(r['http'])) {
      const paths = arr(obj(r['http'])['paths']);
      if (paths.length === 0) errs.push(field.required(`${p}.http.paths`));
      paths.forEach((x, j) => errs.push(...validatePath(obj(x), `${p}.http.paths[${j}]`)));
    }
  });
  arr(spec['tls']).forEach((raw, i) => {
    const t = obj(raw);
    arr(t['hosts']).forEach((h, j) => errs.push(...validateHost(str(h), `spec.tls[${i}].hosts[${j}]`)));
    const secret = str(t['secretName']);
    if (secret) for (const m of isDNS1123Subdomain(secret)) errs.push(field.invalid(`spec.tls[${i}].secretName`, secret, m));
  });
  const cls = str(spec['ingressClassName']);
  if (cls) for (const m of isDNS1123Subdomain(cls)) errs.push(field.invalid('spec.ingressClassName', cls, m));
  return errs;
}

/** ValidateIngressClass: a qualified controller name (max 250), parameters reference. */
export function validateIngressClass(ic: J): FieldError[] {
  const spec = obj(ic['spec']);
  const errs: FieldError[] = [];
  const controller = str(spec['controller']);
  if (!controller) errs.push(field.required('spec.controller'));
  else {
    if (controller.length > 250) errs.push(field.tooLong('spec.controller', '', 250));
    for (const m of isQualifiedName(controller)) errs.push(field.invalid('spec.controller', controller, m));
  }
  if (isObj(spec['parameters'])) {
    const p = spec['parameters'];
    errs.push(...validateTypedLocalRef(p, 'spec.parameters'));
    const scope = p['scope'];
    if (isSet(scope) && scope !== 'Cluster' && scope !== 'Namespace') errs.push(field.notSupported('spec.parameters.scope', scope, ['Cluster', 'Namespace']));
    if (scope === 'Namespace' && !str(p['namespace'])) errs.push(field.required('spec.parameters.namespace', '`parameters.scope` is set to "Namespace"'));
    if (scope !== 'Namespace' && isSet(p['namespace'])) errs.push(field.forbidden('spec.parameters.namespace', '`parameters.scope` is set to "Cluster"'));
  }
  return errs;
}

export function validateIngressClassUpdate(ic: J, old: J): FieldError[] {
  const errs = validateIngressClass(ic);
  const c = str(obj(ic['spec'])['controller']);
  if (c !== str(obj(old['spec'])['controller'])) errs.push(field.invalid('spec.controller', c, 'field is immutable'));
  return errs;
}

function validatePort(port: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const proto = port['protocol'];
  if (isSet(proto) && !['TCP', 'UDP', 'SCTP'].includes(str(proto))) errs.push(field.notSupported(`${path}.protocol`, proto, ['TCP', 'UDP', 'SCTP']));
  const endPort = port['endPort'];
  if (isSet(port['port'])) {
    const p = intOrString(port['port']);
    if (p.type === 'int') {
      for (const m of isValidPortNum(p.int)) errs.push(field.invalid(`${path}.port`, p.int, m));
      if (typeof endPort === 'number') {
        if (endPort < p.int) errs.push(field.invalid(`${path}.endPort`, p.int, 'must be greater than or equal to `port`'));
        for (const m of isValidPortNum(endPort)) errs.push(field.invalid(`${path}.endPort`, endPort, m));
      }
    } else {
      if (isSet(endPort)) errs.push(field.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
      const s = p.type === 'string' ? p.str : '';
      for (const m of isValidPortName(s)) errs.push(field.invalid(`${path}.port`, s, m));
    }
  } else if (isSet(endPort)) {
    errs.push(field.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** The first address of a CIDR as a BigInt, for containment. */
function cidrRange(c: { family: 4 | 6; ip: string; bits: number }): { start: bigint; size: number } {
  const width = c.family === 4 ? 32 : 128;
  let n = 0n;
  if (c.family === 4) for (const p of c.ip.split('.')) n = (n << 8n) | BigInt(Number(p));
  else {
    const [head = '', tail = ''] = c.ip.includes('::') ? c.ip.split('::') : [c.ip, ''];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
    for (const g of groups) n = (n << 16n) | BigInt(parseInt(g || '0', 16));
  }
  const hostBits = BigInt(width - c.bits);
  return { start: (n >> hostBits) << hostBits, size: c.bits };
}

function validateIPBlock(b: J, path: string): FieldError[] {
  const cidr = str(b['cidr']);
  if (!cidr) return [field.required(`${path}.cidr`)];
  const parsed = parseCIDR(cidr);
  if (!parsed) return [field.invalid(`${path}.cidr`, cidr, CIDR_ERROR)];
  const outer = cidrRange(parsed);
  const errs: FieldError[] = [];
  arr(b['except']).forEach((e, i) => {
    const p = `${path}.except[${i}]`;
    const ex = parseCIDR(str(e));
    if (!ex) return void errs.push(field.invalid(p, str(e), CIDR_ERROR));
    const inner = cidrRange(ex);
    const width = parsed.family === 4 ? 32 : 128;
    const contained = ex.family === parsed.family && (inner.start >> BigInt(width - parsed.bits)) === (outer.start >> BigInt(width - parsed.bits));
    if (!contained || parsed.bits >= ex.bits) errs.push(field.invalid(p, str(e), 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  for (const k of ['podSelector', 'namespaceSelector']) {
    if (!isSet(peer[k])) continue;
    n++;
    errs.push(...validateLabelSelector(peer[k], `${path}.${k}`));
  }
  if (isSet(peer['ipBlock'])) {
    n++;
    errs.push(...validateIPBlock(obj(peer['ipBlock']), `${path}.ipBlock`));
  }
  if (n === 0) errs.push(field.required(path, 'must specify a peer'));
  else if (n > 1 && isSet(peer['ipBlock'])) errs.push(field.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

export function validateNetworkPolicy(np: J): FieldError[] {
  const spec = obj(np['spec']);
  const errs = validateLabelSelector(spec['podSelector'] ?? {}, 'spec.podSelector');
  arr(spec['ingress']).forEach((raw, i) => {
    const r = obj(raw);
    arr(r['ports']).forEach((p, j) => errs.push(...validatePort(obj(p), `spec.ingress[${i}].ports[${j}]`)));
    arr(r['from']).forEach((p, j) => errs.push(...validatePeer(obj(p), `spec.ingress[${i}].from[${j}]`)));
  });
  arr(spec['egress']).forEach((raw, i) => {
    const r = obj(raw);
    arr(r['to']).forEach((p, j) => errs.push(...validatePeer(obj(p), `spec.egress[${i}].to[${j}]`)));
    arr(r['ports']).forEach((p, j) => errs.push(...validatePort(obj(p), `spec.egress[${i}].ports[${j}]`)));
  });
  const types = arr(spec['policyTypes']);
  if (types.length > 2) return [...errs, goInvalid('spec.policyTypes', goStrings(types, '[]networking.PolicyType'), 'may not specify more than two policyTypes')];
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(field.notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  return errs;
}
