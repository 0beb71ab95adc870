/**
 * The 409 for apply conflicts, worded as kube-apiserver (managedfields internal.NewConflictError):
 * - one conflict: `Apply failed with 1 conflict: conflict with "mgr" using v1: .data.a`
 * - several: `Apply failed with 2 conflicts: conflicts with "a" using v1:\n- .data.x\n- .data.y\nconflicts with "b":\n- .spec.z`
 *   (managers sorted by identifier; one cause per field, reason FieldManagerConflict).
 * A manager prints as its quoted name, `with subresource "status"` when it wrote through one, and
 * `using <apiVersion>` for Update entries (appliers are version independent).
 */
import { StatusError, type StatusCause } from '../../machinery/errors.ts';
import { goQuote } from '../fieldpath/value.ts';
import { pathString, type Path } from '../fieldpath/element.ts';

export interface Conflict {
  /** Manager identifier (JSON, see managerIdentifier). */
  readonly manager: string;
  readonly path: Path;
}

export function printManager(identifier: string): string {
  let m: { manager?: string; operation?: string; apiVersion?: string; subresource?: string };
  try {
    m = JSON.parse(identifier) as typeof m;
  } catch {
    return goQuote(identifier);
  }
  let s = goQuote(m.manager ?? '');
  if (m.subresource) s += ` with subresource ${goQuote(m.subresource)}`;
  if (m.operation === 'Update') s += ` using ${m.apiVersion ?? ''}`;
  return s;
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const list = byManager.get(c.manager) ?? [];
    list.push(c.path);
    byManager.set(c.manager, list);
  }
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m)!) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** 409 Conflict listing every conflicting field; `conflicts` keeps the structured form for callers. */
export class ConflictError extends StatusError {
  constructor(readonly conflicts: readonly Conflict[]) {
    const causes: StatusCause[] = conflicts.map((c) => ({
      reason: 'FieldManagerConflict', message: `conflict with ${printManager(c.manager)}`, field: pathString(c.path),
    }));
    super(409, 'Conflict', conflictMessage(conflicts), { causes });
  }
}
