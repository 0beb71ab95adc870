/** IPv4 service CIDRs and node port ranges: parsing and address arithmetic (kube's `--service-*-range` flags). */

export interface Ipv4Cidr {
  readonly text: string;
  /** Network address as an unsigned 32-bit number. */
  readonly base: number;
  /** Number of addresses in the block (network and broadcast included). */
  readonly size: number;
}

export interface PortRange {
  readonly text: string;
  readonly base: number;
  readonly size: number;
}

export function parseIpv4(s: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

export function formatIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** `10.96.0.0/12` → block; throws with a flag-style message on anything else (IPv6 is not served yet). */
export function parseCidr(text: string): Ipv4Cidr {
  const [ip, bits] = text.split('/');
  const base = ip === undefined ? undefined : parseIpv4(ip);
  const n = Number(bits);
  if (base === undefined || bits === undefined || !/^\d+$/.test(bits) || n < 0 || n > 32) throw new Error(`invalid CIDR address: ${text}`);
  const size = 2 ** (32 - n);
  const mask = n === 0 ? 0 : ((0xffffffff << (32 - n)) >>> 0);
  return { text: `${formatIpv4((base & mask) >>> 0)}/${n}`, base: (base & mask) >>> 0, size };
}

/** `30000-32767` (or a single port) → range; throws on a malformed or empty range. */
export function parsePortRange(text: string): PortRange {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  const lo = m ? Number(m[1]) : NaN;
  const hi = m ? Number(m[2] ?? m[1]) : NaN;
  if (!m || hi < lo || hi > 65535) throw new Error(`invalid port range: ${text}`);
  return { text: `${lo}-${hi}`, base: lo, size: hi - lo + 1 };
}

/** Offset of `ip` inside the block, or undefined when outside. */
export function offsetIn(cidr: Ipv4Cidr, ip: number): number | undefined {
  const off = ip - cidr.base;
  return off >= 0 && off < cidr.size ? off : undefined;
}
