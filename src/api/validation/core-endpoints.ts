/**
 * Endpoints (pkg/apis/core/validation/validation.go: ValidateEndpoints, validateEndpointSubsets,
 * validateEndpointAddress, validateEndpointPort, ValidateEndpointIP). Shared with EndpointSlice: the IP rules
 * for endpoint addresses (no unspecified, loopback, link-local or link-local multicast addresses).
 */
import { isIP } from 'node:net';
import { FieldError, field } from '../../machinery/errors.ts';
import { IP_ERROR, ipFamilyOf, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../machinery/validation/names.ts';
import { type J, arr, isSet, obj, str } from './util.ts';

export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** The address as 4 or 16 bytes (IPv4 with leading zeros accepted, as ParseIPSloppy). */
function ipBytes(value: string): number[] | undefined {
  const family = ipFamilyOf(value);
  if (family === 4) return value.split('.').map(Number);
  if (family !== 6) return undefined;
  const [head = '', tail = ''] = value.includes('::') ? value.split('::') : [value, ''];
  const part = (s: string): number[] => {
    if (!s) return [];
    const groups = s.split(':');
    const last = groups[groups.length - 1]!;
    const out: number[] = [];
    for (const g of groups.slice(0, isIP(last) === 4 ? -1 : undefined)) { const n = parseInt(g, 16); out.push(n >> 8, n & 255); }
    if (isIP(last) === 4) out.push(...last.split('.').map(Number));
    return out;
  };
  const h = part(head);
  const t = part(tail);
  const bytes = [...h, ...Array(16 - h.length - t.length).fill(0), ...t];
  // An IPv4-mapped IPv6 address behaves as its IPv4 address (Go's net.IP).
  return bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255 ? bytes.slice(12) : bytes;
}

/** ValidateEndpointIP (formerly ValidateNonSpecialIP). */
export function validateEndpointIP(ip: string, path: string): FieldError[] {
  const b = ipBytes(ip);
  if (!b) return [field.invalid(path, ip, 'must be a valid IP address')];
  const v4 = b.length === 4;
  const errs: FieldError[] = [];
  if (b.every((x) => x === 0)) errs.push(field.invalid(path, ip, `may not be unspecified (${ip})`));
  const loopback = v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback) errs.push(field.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocal = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  if (linkLocal) errs.push(field.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const llMulticast = v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 2;
  if (llMulticast) errs.push(field.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** IsValidIPForLegacyField: required, and an IP (legacy leading zeros tolerated). */
export function validateLegacyIP(ip: string, path: string): FieldError[] {
  if (!ip) return [field.required(path)];
  return ipFamilyOf(ip) ? [] : [field.invalid(path, ip, IP_ERROR)];
}

function validateAddress(a: J, path: string): FieldError[] {
  const ip = str(a['ip']);
  const errs = validateLegacyIP(ip, `${path}.ip`);
  const hostname = str(a['hostname']);
  if (hostname) for (const m of isDNS1123Label(hostname)) errs.push(field.invalid(`${path}.hostname`, hostname, m));
  if (isSet(a['nodeName'])) for (const m of isDNS1123Subdomain(str(a['nodeName']))) errs.push(field.invalid(`${path}.nodeName`, str(a['nodeName']), m));
  errs.push(...validateEndpointIP(ip, `${path}.ip`));
  return errs;
}

function validatePort(p: J, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p['name']);
  if (requireName && !name) errs.push(field.required(`${path}.name`));
  else if (name) for (const m of isDNS1123Label(name)) errs.push(field.invalid(`${path}.name`, name, m));
  const port = typeof p['port'] === 'number' ? p['port'] : 0;
  for (const m of isValidPortNum(port)) errs.push(field.invalid(`${path}.port`, port, m));
  // An unset protocol is defaulted to TCP before kube validates (SetDefaults_EndpointPort).
  const proto = isSet(p['protocol']) ? str(p['protocol']) : 'TCP';
  if (!proto) errs.push(field.required(`${path}.protocol`));
  else if (!PORT_PROTOCOLS.includes(proto)) errs.push(field.notSupported(`${path}.protocol`, proto, PORT_PROTOCOLS));
  if (isSet(p['appProtocol'])) for (const m of isQualifiedName(str(p['appProtocol']))) errs.push(field.invalid(`${path}.appProtocol`, str(p['appProtocol']), m));
  return errs;
}

export function validateEndpoints(ep: J): FieldError[] {
  const errs: FieldError[] = [];
  arr(ep['subsets']).forEach((raw, i) => {
    const ss = obj(raw);
    const p = `subsets[${i}]`;
    const addrs = arr(ss['addresses']);
    const notReady = arr(ss['notReadyAddresses']);
    if (addrs.length === 0 && notReady.length === 0) errs.push(field.required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addrs.forEach((a, j) => errs.push(...validateAddress(obj(a), `${p}.addresses[${j}]`)));
    notReady.forEach((a, j) => errs.push(...validateAddress(obj(a), `${p}.notReadyAddresses[${j}]`)));
    const ports = arr(ss['ports']);
    ports.forEach((x, j) => errs.push(...validatePort(obj(x), ports.length > 1, `${p}.ports[${j}]`)));
  });
  return errs;
}
