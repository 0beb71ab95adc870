/**
 * kube's IP and CIDR libraries (apiserver/pkg/cel/library/ip.go, cidr.go), parsing strictly as Go's netip:
 * no leading zeros in IPv4 octets, no zones, and (kube's rule) no IPv4-mapped IPv6 addresses.
 */
import { chargeTraversal } from '../runtime-cost.ts';
import { celError, fn, opaqueType, type CelJsEnv } from './register.ts';

export class CelIP {
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(o: unknown): boolean {
    return o instanceof CelIP && Buffer.from(this.bytes).equals(Buffer.from(o.bytes));
  }
  toString(): string {
    if (this.bytes.length === 4) return [...this.bytes].join('.');
    const groups: number[] = [];
    for (let i = 0; i < 16; i += 2) groups.push((this.bytes[i]! << 8) | this.bytes[i + 1]!);
    // RFC 5952: compress the longest run (≥ 2) of zero groups, the first one on ties.
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8;) {
      if (groups[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLen) {
        best = i;
        bestLen = j - i;
      }
      i = j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (best < 0) return hex.join(':');
    return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
  }
}

export class CelCIDR {
  constructor(readonly ip: CelIP, readonly bits: number) {}
  equals(o: unknown): boolean {
    return o instanceof CelCIDR && o.bits === this.bits && this.ip.equals(o.ip);
  }
  masked(): CelCIDR {
    return new CelCIDR(new CelIP(mask(this.ip.bytes, this.bits)), this.bits);
  }
  containsIP(ip: CelIP): boolean {
    return ip.family === this.ip.family && Buffer.from(mask(ip.bytes, this.bits)).equals(Buffer.from(mask(this.ip.bytes, this.bits)));
  }
  containsCIDR(c: CelCIDR): boolean {
    return c.bits >= this.bits && this.containsIP(c.ip);
  }
  toString(): string {
    return `${this.ip.toString()}/${this.bits}`;
  }
}

function mask(bytes: Uint8Array, bits: number): Uint8Array {
  const out = new Uint8Array(bytes);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    out[i] = out[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

function parseV4(s: string): Uint8Array | string {
  const parts = s.split('.');
  if (parts.length !== 4) return 'IPv4 address too short';
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^\d{1,3}$/.test(p)) return 'unexpected character';
    if (p.length > 1 && p.startsWith('0')) return 'IPv4 field has octet with leading zero';
    const n = Number(p);
    if (n > 255) return 'IPv4 field has value >255';
    out[i] = n;
  }
  return out;
}

function parseV6(s: string): Uint8Array | string {
  if (s.includes('%')) return 'zone';
  const dbl = s.indexOf('::');
  if (dbl >= 0 && s.indexOf('::', dbl + 1) >= 0) return 'multiple :: in address';
  const head = dbl >= 0 ? s.slice(0, dbl) : s;
  const tail = dbl >= 0 ? s.slice(dbl + 2) : '';
  const groups = (part: string): number[] | string => {
    if (part === '') return [];
    const out: number[] = [];
    const fields = part.split(':');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (i === fields.length - 1 && f.includes('.')) {
        const v4 = parseV4(f);
        if (typeof v4 === 'string') return v4;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(f)) return 'unexpected character';
        out.push(parseInt(f, 16));
      }
    }
    return out;
  };
  const h = groups(head);
  const t = groups(tail);
  if (typeof h === 'string') return h;
  if (typeof t === 'string') return t;
  const total = h.length + t.length;
  if (dbl < 0 ? total !== 8 : total > 7) return dbl < 0 ? 'address string too short' : 'address string too long';
  const all = [...h, ...new Array<number>(8 - total).fill(0), ...t];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

/** netip.ParseAddr plus kube's refusals; the IP or an error message as kube words it. */
export function parseIP(s: string): CelIP | string {
  const bytes = s.includes(':') ? parseV6(s) : parseV4(s);
  if (bytes === 'zone') return `IP address with zone value is not allowed`;
  if (typeof bytes === 'string') return `ParseAddr(${JSON.stringify(s)}): ${bytes}`;
  if (bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return 'IPv4-mapped IPv6 address is not allowed';
  }
  return new CelIP(bytes);
}

/** netip.ParsePrefix plus kube's refusals. */
export function parseCIDR(s: string): CelCIDR | string {
  const slash = s.lastIndexOf('/');
  if (slash < 0) return `netip.ParsePrefix(${JSON.stringify(s)}): no '/'`;
  const ip = parseIP(s.slice(0, slash));
  if (typeof ip === 'string') return ip.replace(/^ParseAddr\(.*?\): /, `netip.ParsePrefix(${JSON.stringify(s)}): ParseAddr(${JSON.stringify(s.slice(0, slash))}): `);
  const bitsStr = s.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(bitsStr) || Number(bitsStr) > (ip.family === 4 ? 32 : 128)) {
    return `netip.ParsePrefix(${JSON.stringify(s)}): bad bits after slash: ${JSON.stringify(bitsStr)}`;
  }
  return new CelCIDR(ip, Number(bitsStr));
}

function ipOrThrow(s: string): CelIP {
  chargeTraversal(s.length);
  const r = parseIP(s);
  if (typeof r === 'string') throw celError(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ${r}`);
  return r;
}

function cidrOrThrow(s: string): CelCIDR {
  chargeTraversal(s.length);
  const r = parseCIDR(s);
  if (typeof r === 'string') throw celError(`network address ${JSON.stringify(s)} parse error during conversion from string: ${r}`);
  return r;
}

const isV4Broadcast = (ip: CelIP): boolean => ip.family === 4 && ip.bytes.every((b) => b === 255);
const isUnspecified = (ip: CelIP): boolean => ip.bytes.every((b) => b === 0);
const isLoopback = (ip: CelIP): boolean => (ip.family === 4 ? ip.bytes[0] === 127 : ip.bytes.slice(0, 15).every((b) => b === 0) && ip.bytes[15] === 1);
const isMulticast = (ip: CelIP): boolean => (ip.family === 4 ? (ip.bytes[0]! & 0xf0) === 0xe0 : ip.bytes[0] === 0xff);
const isLinkLocalUnicast = (ip: CelIP): boolean =>
  ip.family === 4 ? ip.bytes[0] === 169 && ip.bytes[1] === 254 : ip.bytes[0] === 0xfe && (ip.bytes[1]! & 0xc0) === 0x80;
const isLinkLocalMulticast = (ip: CelIP): boolean =>
  ip.family === 4 ? ip.bytes[0] === 224 && ip.bytes[1] === 0 && ip.bytes[2] === 0 : ip.bytes[0] === 0xff && (ip.bytes[1]! & 0x0f) === 0x02;

class IPNamespace {}

export function registerNet(env: CelJsEnv): void {
  opaqueType(env, 'net.IP', CelIP, true);
  opaqueType(env, 'net.CIDR', CelCIDR, true);
  fn(env, 'ip(string): net.IP', ipOrThrow);
  fn(env, 'isIP(string): bool', (s: string) => (chargeTraversal(s.length), typeof parseIP(s) !== 'string'));
  env.registerType('IPNamespace', IPNamespace);
  env.registerConstant('ip', 'IPNamespace', new IPNamespace());
  fn(env, 'IPNamespace.isCanonical(string): bool', (_n: unknown, s: string) => ipOrThrow(s).toString() === s);
  fn(env, 'string(net.IP): string', (ip: CelIP) => ip.toString());
  fn(env, 'net.IP.family(): int', (ip: CelIP) => BigInt(ip.family));
  fn(env, 'net.IP.isUnspecified(): bool', isUnspecified);
  fn(env, 'net.IP.isLoopback(): bool', isLoopback);
  fn(env, 'net.IP.isLinkLocalMulticast(): bool', isLinkLocalMulticast);
  fn(env, 'net.IP.isLinkLocalUnicast(): bool', isLinkLocalUnicast);
  fn(env, 'net.IP.isGlobalUnicast(): bool', (ip: CelIP) =>
    !isV4Broadcast(ip) && !isUnspecified(ip) && !isLoopback(ip) && !isMulticast(ip) && !isLinkLocalUnicast(ip));

  fn(env, 'cidr(string): net.CIDR', cidrOrThrow);
  fn(env, 'isCIDR(string): bool', (s: string) => (chargeTraversal(s.length), typeof parseCIDR(s) !== 'string'));
  fn(env, 'string(net.CIDR): string', (c: CelCIDR) => c.toString());
  fn(env, 'net.CIDR.containsIP(net.IP): bool', (c: CelCIDR, ip: CelIP) => c.containsIP(ip));
  fn(env, 'net.CIDR.containsIP(string): bool', (c: CelCIDR, ip: string) => c.containsIP(ipOrThrow(ip)));
  fn(env, 'net.CIDR.containsCIDR(net.CIDR): bool', (c: CelCIDR, o: CelCIDR) => c.containsCIDR(o));
  fn(env, 'net.CIDR.containsCIDR(string): bool', (c: CelCIDR, o: string) => c.containsCIDR(cidrOrThrow(o)));
  fn(env, 'net.CIDR.ip(): net.IP', (c: CelCIDR) => c.ip);
  fn(env, 'net.CIDR.masked(): net.CIDR', (c: CelCIDR) => c.masked());
  fn(env, 'net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.bits));
}
