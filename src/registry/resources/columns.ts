/**
 * Building blocks for Table columns, following kube's printers (pkg/printers/internalversion): the Name and
 * Age columns every kind has, kube's human durations, and the small formatters its print functions share.
 * Cells are computed on the server (kube sends `Age` as a string such as "65s").
 */
import type { KObject } from '../../machinery/objects.ts';
import type { TableColumn } from '../../api/types.ts';
import { DOCS } from './docs.ts';

type Cell = (obj: KObject) => unknown;

export function col(name: string, type: TableColumn['type'], description: string, cell: Cell, opts: { priority?: number; format?: string } = {}): TableColumn {
  const c: TableColumn = { name, type, description, priority: opts.priority ?? 0, cell };
  c.format = opts.format ?? '';
  return c;
}

export const nameColumn = (priority = 0): TableColumn =>
  col('Name', 'string', DOCS.name, (o) => o.metadata.name ?? '', { format: 'name', priority });
export const ageColumn = (): TableColumn =>
  col('Age', 'string', DOCS.age, (o) => translateTimestampSince(o.metadata.creationTimestamp));
/** The columns kube uses when a kind has no printer (and RBAC roles use explicitly). */
export const defaultColumns = (): TableColumn[] => [
  nameColumn(),
  col('Created At', 'date', DOCS.createdAt, (o) => o.metadata.creationTimestamp ?? null),
];

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration, from milliseconds. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** kube's translateTimestampSince: `<unknown>` for a missing timestamp. */
export function translateTimestampSince(ts: unknown, now = Date.now()): string {
  if (typeof ts !== 'string' || !ts) return '<unknown>';
  const t = Date.parse(ts);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

export function get(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function rec(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** `a=b,c=d` with keys sorted, as labels.FormatLabels; `<none>` when empty. */
export function formatLabels(m: unknown): string {
  const r = rec(m);
  const keys = Object.keys(r).sort();
  if (!keys.length) return '<none>';
  return keys.map((k) => `${k}=${str(r[k])}`).join(',');
}

/** metav1.FormatLabelSelector: `<none>` for nil/empty, `<none>`... as kube's (matchLabels then expressions). */
export function formatLabelSelector(sel: unknown): string {
  if (sel === undefined || sel === null) return '<none>';
  const s = rec(sel);
  const parts: string[] = [];
  const ml = rec(s['matchLabels']);
  for (const k of Object.keys(ml).sort()) parts.push(`${k}=${str(ml[k])}`);
  for (const e of arr(s['matchExpressions'])) {
    const r = rec(e);
    const key = str(r['key']);
    const op = str(r['operator']);
    const values = arr(r['values']).map(str);
    switch (op) {
      case 'In': parts.push(`${key} in (${values.join(',')})`); break;
      case 'NotIn': parts.push(`${key} notin (${values.join(',')})`); break;
      case 'Exists': parts.push(key); break;
      case 'DoesNotExist': parts.push(`!${key}`); break;
      default: parts.push(`${key} ${op} (${values.join(',')})`);
    }
  }
  const out = parts.join(',');
  return out === '' ? '<none>' : out;
}

/** Containers' names and images, comma separated (kube's layoutContainerCells). */
export function containerNames(podSpec: unknown): string {
  return arr(rec(podSpec)['containers']).map((c) => str(rec(c)['name'])).join(',');
}
export function containerImages(podSpec: unknown): string {
  return arr(rec(podSpec)['containers']).map((c) => str(rec(c)['image'])).join(',');
}

/** Template containers / images / selector columns shared by workload kinds (wide). */
export function templateColumns(selectorDoc: string | undefined, specPath = 'spec.template.spec', selectorPath = 'spec.selector'): TableColumn[] {
  const cols = [
    col('Containers', 'string', DOCS.containers, (o) => containerNames(get(o, specPath)), { priority: 1 }),
    col('Images', 'string', DOCS.images, (o) => containerImages(get(o, specPath)), { priority: 1 }),
  ];
  if (selectorDoc !== undefined) cols.push(col('Selector', 'string', selectorDoc, (o) => formatLabelSelector(get(o, selectorPath)), { priority: 1 }));
  return cols;
}

/** Lists longer than `max` entries print the first `max` and `+ N more...`, as kube's printers do. */
export function joinLimited(items: string[], max: number): string {
  if (items.length <= max) return items.join(',');
  return `${items.slice(0, max).join(',')} + ${items.length - max} more...`;
}
