/**
 * discovery.k8s.io EndpointSlice (pkg/apis/discovery/validation/validation.go: ValidateEndpointSlice,
 * ValidateEndpointSliceUpdate, validateEndpoints, validatePorts, validateHints, validateAddressType).
 * Addresses are checked by the slice's addressType; an unknown type leaves them unchecked (its own error).
 */
import { FieldError, field } from '../../machinery/errors.ts';
import { ipFamilyOf, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../machinery/validation/names.ts';
import { PORT_PROTOCOLS, validateEndpointIP } from './core-endpoints.ts';
import { type J, arr, immutable, isSet, obj, str, validateLabels } from './util.ts';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_PORTS = 20000;
const MAX_HINTS = 8;

const tooMany = (path: string, actual: number, max: number): FieldError => new FieldError('FieldValueTooMany', path, `must have at most ${max} items`, actual, false);

/**
 * validation.IsFullyQualifiedDomainName (`minSegments` 2) and IsFullyQualifiedName (3): a trailing dot is
 * dropped; the first failing rule is the only cause.
 */
export function validateFQDN(input: string, path: string, minSegments = 2): FieldError[] {
  if (!input) return [field.required(path)];
  const name = input.endsWith('.') ? input.slice(0, -1) : input;
  const sub = isDNS1123Subdomain(name);
  if (sub.length) return [field.invalid(path, name, sub.join(','))];
  const words = minSegments === 2 ? 'two' : 'three';
  if (name.split('.').length < minSegments) return [field.invalid(path, name, `should be a domain with at least ${words} segments separated by dots`)];
  if (minSegments === 2) {
    for (const label of name.split('.')) {
      const m = isDNS1123Label(label);
      if (m.length) return [field.invalid(path, input, m.join(','))];
    }
  }
  return [];
}

function validateAddress(addr: string, type: string, path: string): FieldError[] {
  if (type === 'IPv4' || type === 'IPv6') {
    const want = type === 'IPv4' ? 4 : 6;
    const errs = ipFamilyOf(addr) !== want ? [field.invalid(path, addr, `must be a valid ${type} address`)] : [];
    return [...errs, ...validateEndpointIP(addr, path)];
  }
  return type === 'FQDN' ? validateFQDN(addr, path) : [];
}

function validateHints(h: J, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const zones = arr(h['forZones']);
  const zp = `${path}.forZones`;
  if (zones.length > MAX_HINTS) return [tooMany(zp, zones.length, MAX_HINTS)];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const name = str(obj(z)['name']);
    if (seen.has(name)) errs.push(field.duplicate(`${zp}[${i}].name`, name));
    else seen.add(name);
    for (const m of isValidLabelValue(name)) errs.push(field.invalid(`${zp}[${i}].name`, name, m));
  });
  return errs;
}

function validateEndpointList(endpoints: unknown[], type: string): FieldError[] {
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((raw, i) => {
    const ep = obj(raw);
    const p = `endpoints[${i}]`;
    const addrs = arr(ep['addresses']).map(str);
    if (addrs.length === 0) errs.push(field.required(`${p}.addresses`, 'must contain at least 1 address'));
    else if (addrs.length > MAX_ADDRESSES) errs.push(tooMany(`${p}.addresses`, addrs.length, MAX_ADDRESSES));
    addrs.forEach((a, j) => errs.push(...validateAddress(a, type, `${p}.addresses[${j}]`)));
    if (isSet(ep['nodeName'])) for (const m of isDNS1123Subdomain(str(ep['nodeName']))) errs.push(field.invalid(`${p}.nodeName`, str(ep['nodeName']), m));
    const topo = obj(ep['deprecatedTopology']);
    if (Object.keys(topo).length > MAX_TOPOLOGY_LABELS) errs.push(tooMany(`${p}.deprecatedTopology`, Object.keys(topo).length, MAX_TOPOLOGY_LABELS));
    errs.push(...validateLabels(topo, `${p}.deprecatedTopology`));
    const hostname = str(ep['hostname']);
    if (hostname) for (const m of isDNS1123Label(hostname)) errs.push(field.invalid(`${p}.hostname`, hostname, m));
    if (isSet(ep['hints'])) errs.push(...validateHints(obj(ep['hints']), `${p}.hints`));
  });
  return errs;
}

function validatePorts(ports: unknown[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((raw, i) => {
    const p = obj(raw);
    const path = `ports[${i}]`;
    const name = str(p['name']);
    if (name) for (const m of isDNS1123Label(name)) errs.push(field.invalid(`${path}.name`, name, m));
    if (names.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    else names.add(name);
    // Unset name and protocol are defaulted ("" and TCP) before kube validates (SetDefaults_EndpointPort).
    const proto = p['protocol'] ?? 'TCP';
    if (!isSet(proto)) errs.push(field.required(`${path}.protocol`));
    else if (!PORT_PROTOCOLS.includes(str(proto))) errs.push(field.notSupported(`${path}.protocol`, proto, PORT_PROTOCOLS));
    if (isSet(p['appProtocol'])) for (const m of isQualifiedName(str(p['appProtocol']))) errs.push(field.invalid(`${path}.appProtocol`, str(p['appProtocol']), m));
  });
  return errs;
}

export function validateEndpointSlice(slice: J): FieldError[] {
  const type = str(slice['addressType']);
  const errs: FieldError[] = [];
  if (!type) errs.push(field.required('addressType'));
  else if (!ADDRESS_TYPES.includes(type)) errs.push(field.notSupported('addressType', type, ADDRESS_TYPES));
  return [...errs, ...validateEndpointList(arr(slice['endpoints']), type), ...validatePorts(arr(slice['ports']))];
}

export function validateEndpointSliceUpdate(slice: J, old: J): FieldError[] {
  return [...validateEndpointSlice(slice), ...immutable(slice['addressType'], old['addressType'], 'addressType')];
}
