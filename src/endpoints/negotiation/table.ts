/**
 * The `Table` representation (meta.k8s.io/v1 and v1beta1), as kube-apiserver's table convertors build it:
 * - columns from the resource's `tableColumns` (kube's printers), else the default convertor's `Name` and
 *   `Created At` (k8s.io/apiserver/pkg/registry/rest/table.go);
 * - one row per object with `cells` and `object` per `includeObject`: `Metadata` (default) → a
 *   PartialObjectMetadata, `Object` → the object, `None` → null;
 * - `metadata.resourceVersion` / `continue` / `remainingItemCount` from the list (or the object's RV);
 * - `columnDefinitions: null` when headers are suppressed (watch events after the first);
 * - rows of an empty list are `null` for the default convertor and `[]` for printer-based ones (Go's nil
 *   vs empty slice, visible in kube's JSON).
 */
import type { KObject, ListMeta } from '../../machinery/objects.ts';
import type { ResourceDef, TableColumn } from '../../api/types.ts';
import { partialObjectMetadata } from './partial.ts';
import { DOCS } from '../../registry/resources/docs.ts';
import { listMetaOf } from './partial.ts';


export interface TableColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[] | null;
  rows: TableRow[] | null;
}

export type IncludeObject = 'None' | 'Object' | 'Metadata';

export interface TableOptions {
  /** `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`. */
  readonly version: 'v1' | 'v1beta1';
  readonly includeObject: IncludeObject;
  /** Leave out column definitions (watch events after the first). */
  readonly noHeaders?: boolean;
}

const DEFAULT_COLUMNS: TableColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: DOCS.name, priority: 0 },
  { name: 'Created At', type: 'date', format: '', description: DOCS.createdAt, priority: 0 },
];

/** Go's zero time formatted as RFC 3339: what the default convertor prints for a missing timestamp. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

function rfc3339(ts: string | null | undefined): string {
  if (!ts) return ZERO_TIME;
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  // Go's time.RFC3339 has whole seconds.
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function columnDefinitions(def: Pick<ResourceDef, 'tableColumns'>): TableColumnDefinition[] {
  const cols = def.tableColumns;
  if (!cols || cols.length === 0) return DEFAULT_COLUMNS;
  return cols.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description, priority: c.priority }));
}

function cellsFor(cols: TableColumn[] | undefined, obj: KObject): unknown[] {
  if (!cols || cols.length === 0) return [obj.metadata.name ?? '', rfc3339(obj.metadata.creationTimestamp)];
  return cols.map((c) => {
    // A printer that cannot read an odd object (a bookmark, a half-filled status) must not fail the
    // whole list: kube's printers show `<unknown>` for values they cannot compute.
    let v: unknown;
    try {
      v = c.cell(obj);
    } catch {
      return '<unknown>';
    }
    return v === undefined ? null : v;
  });
}

function rowObject(obj: KObject, opts: TableOptions): unknown {
  switch (opts.includeObject) {
    case 'None': return null;
    case 'Object': return obj;
    default: return partialObjectMetadata(obj, opts.version);
  }
}

/** Table for a list of objects. */
export function listToTable(def: Pick<ResourceDef, 'tableColumns'>, items: readonly KObject[], meta: ListMeta, opts: TableOptions): Table {
  const custom = !!def.tableColumns && def.tableColumns.length > 0;
  const rows = items.map((o) => ({ cells: cellsFor(def.tableColumns, o), object: rowObject(o, opts) }));
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: listMetaOf(meta),
    columnDefinitions: opts.noHeaders ? null : columnDefinitions(def),
    rows: rows.length === 0 && !custom ? null : rows,
  };
}

/** Table for one object (GET, writes, watch events). */
export function objectToTable(def: Pick<ResourceDef, 'tableColumns'>, obj: KObject, opts: TableOptions): Table {
  const rv = obj.metadata.resourceVersion;
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: rv ? { resourceVersion: rv } : {},
    columnDefinitions: opts.noHeaders ? null : columnDefinitions(def),
    rows: [{ cells: cellsFor(def.tableColumns, obj), object: rowObject(obj, opts) }],
  };
}

