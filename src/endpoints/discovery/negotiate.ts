/**
 * Accept-header negotiation for discovery: aggregated documents are served only when the client asks for
 * `application/json;g=apidiscovery.k8s.io;v=v2|v2beta1;as=APIGroupDiscoveryList`; otherwise the legacy
 * JSON (or YAML) document. Entries are tried by descending q, then in header order.
 */

export type DiscoveryMedia =
  | { kind: 'aggregated'; version: 'v2' | 'v2beta1'; contentType: string }
  | { kind: 'legacy'; format: 'json' | 'yaml'; contentType: string }
  | { kind: 'none' };

interface AcceptEntry { type: string; subtype: string; params: Map<string, string>; q: number; index: number }

export function parseAccept(header: string | undefined): AcceptEntry[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: new Map(), q: 1, index: 0 }];
  const out: AcceptEntry[] = [];
  header.split(',').forEach((raw, index) => {
    const [mt, ...ps] = raw.split(';').map((s) => s.trim());
    if (!mt) return;
    const [type, subtype] = mt.toLowerCase().split('/');
    if (!type || !subtype) return;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of ps) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number.isFinite(Number(v)) ? Number(v) : 0;
      else params.set(k, v);
    }
    if (q > 0) out.push({ type, subtype, params, q, index });
  });
  return out.sort((a, b) => b.q - a.q || a.index - b.index);
}

/** Picks the representation for /api or /apis (aggregation allowed) or another discovery path. */
export function negotiateDiscovery(accept: string | undefined, allowAggregated: boolean): DiscoveryMedia {
  for (const e of parseAccept(accept)) {
    const g = e.params.get('g');
    const v = e.params.get('v');
    const as = e.params.get('as');
    if (g !== undefined || v !== undefined || as !== undefined) {
      if (!allowAggregated) continue;
      if (e.type === 'application' && e.subtype === 'json' && g === 'apidiscovery.k8s.io' && as === 'APIGroupDiscoveryList' && (v === 'v2' || v === 'v2beta1')) {
        return { kind: 'aggregated', version: v, contentType: `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList` };
      }
      continue;
    }
    if ((e.type === 'application' && e.subtype === 'json') || (e.type === 'application' && e.subtype === '*') || (e.type === '*' && e.subtype === '*')) {
      return { kind: 'legacy', format: 'json', contentType: 'application/json' };
    }
    if (e.type === 'application' && e.subtype === 'yaml') return { kind: 'legacy', format: 'yaml', contentType: 'application/yaml' };
  }
  return { kind: 'none' };
}

/** What a 406 lists (the representations this server can encode for discovery). */
export const DISCOVERY_MEDIA_TYPES = ['application/json', 'application/yaml'];
