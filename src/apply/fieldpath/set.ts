/**
 * Field sets as structured-merge-diff models them: a tree whose nodes hold `members` (paths that are in the
 * set, ending at this node) and `children` (sub-sets under a path element). A path belongs to the set when its
 * last element is a member of the node reached by the elements before it; a node can be both a member and have
 * children (serialized with the `.` key: `{"f:labels":{".":{},"f:app":{}}}`).
 *
 * Invariants: a child set is never empty (operations drop empty results); sets are treated as immutable values
 * by the operations (union, difference, … return new sets and share no mutable nodes with their inputs, except
 * where noted), while `insert` mutates in place (used while building).
 */
import { compareElements, parseElement, type Path, type PathElement } from './element.ts';

interface ChildNode {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export type FieldsV1 = { [key: string]: FieldsV1 };

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, ChildNode>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path (mutates). The empty path is ignored: no one owns "the entire object". */
  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.descend(path[i]!);
    const last = path[path.length - 1]!;
    node.members.set(last.id, last);
  }

  /** The child set under `pe`, created when missing (mutates; callers must fill it). */
  descend(pe: PathElement): FieldSet {
    let c = this.children.get(pe.id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.id, c);
    }
    return c.set;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      node = node.children.get(path[i]!.id)?.set;
      if (!node) return false;
    }
    return node.members.has(path[path.length - 1]!.id);
  }

  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.isEmpty()) return false;
    return true;
  }

  /** Number of member paths. */
  size(): number {
    let n = this.members.size;
    for (const c of this.children.values()) n += c.set.size();
    return n;
  }

  /** The sub-set below `pe` (without the prefix); empty when there is none. Shares structure with this set. */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? EMPTY;
  }

  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of o.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      out.children.set(id, { pe: c.pe, set: oc ? c.set.union(oc.set) : c.set.copy() });
    }
    for (const [id, c] of o.children) if (!this.children.has(id)) out.children.set(id, { pe: c.pe, set: c.set.copy() });
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc) continue;
      const r = c.set.intersection(oc.set);
      if (!r.isEmpty()) out.children.set(id, { pe: c.pe, set: r });
    }
    return out;
  }

  /**
   * Members of this set not in `o`. As in SMD, a member of `o` does not remove this set's paths below it
   * (`a.b` minus `a` is `a.b`); use {@link recursiveDifference} for that.
   */
  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const oc = o.children.get(id);
      if (!oc) {
        out.children.set(id, { pe: c.pe, set: c.set.copy() });
        continue;
      }
      const r = c.set.difference(oc.set);
      if (!r.isEmpty()) out.children.set(id, { pe: c.pe, set: r });
    }
    return out;
  }

  /** Like difference, but a member of `o` also removes everything below it (`a.b.c` minus `a.b` is empty). */
  recursiveDifference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!o.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      if (o.members.has(id)) continue;
      const oc = o.children.get(id);
      if (!oc) {
        out.children.set(id, { pe: c.pe, set: c.set.copy() });
        continue;
      }
      const r = c.set.recursiveDifference(oc.set);
      if (!r.isEmpty()) out.children.set(id, { pe: c.pe, set: r });
    }
    return out;
  }

  /** Members that are not also parents of other members. */
  leaves(): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!this.children.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const l = c.set.leaves();
      if (!l.isEmpty()) out.children.set(id, { pe: c.pe, set: l });
    }
    return out;
  }

  equals(o: FieldSet): boolean {
    if (this.members.size !== o.members.size) return false;
    for (const id of this.members.keys()) if (!o.members.has(id)) return false;
    const mine = [...this.children.values()].filter((c) => !c.set.isEmpty());
    const theirs = [...o.children.values()].filter((c) => !c.set.isEmpty());
    if (mine.length !== theirs.length) return false;
    for (const c of mine) {
      const oc = o.children.get(c.pe.id);
      if (!oc || !c.set.equals(oc.set)) return false;
    }
    return true;
  }

  copy(): FieldSet {
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, c] of this.children) out.children.set(id, { pe: c.pe, set: c.set.copy() });
    return out;
  }

  /** Every member path, in SMD's Iterate order: this node's members (sorted), then each child (sorted), depth first. */
  paths(): Path[] {
    const out: Path[] = [];
    const walk = (s: FieldSet, prefix: PathElement[]): void => {
      for (const pe of sortedMembers(s)) out.push([...prefix, pe]);
      for (const c of sortedChildren(s)) walk(c.set, [...prefix, c.pe]);
    };
    walk(this, []);
    return out;
  }

  /** The `fieldsV1` form, keys in SMD's order (`.` first, then elements sorted). */
  toFieldsV1(): FieldsV1 {
    return emit(this, false);
  }

  /**
   * Parses a `fieldsV1` object. Unknown element types are skipped (as SMD does); malformed keys or non-object
   * values throw an Error.
   */
  static fromFieldsV1(obj: unknown): FieldSet {
    if (obj === null || obj === undefined) return new FieldSet();
    const [set] = read(obj);
    return set ?? new FieldSet();
  }
}

const EMPTY = new FieldSet();

function sortedMembers(s: FieldSet): PathElement[] {
  return [...s.members.values()].sort(compareElements);
}

function sortedChildren(s: FieldSet): ChildNode[] {
  return [...s.children.values()].sort((a, b) => compareElements(a.pe, b.pe));
}

function emit(s: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: FieldsV1 = {};
  if (includeSelf && (s.members.size > 0 || s.children.size > 0)) out['.'] = {};
  const all = new Map<string, { pe: PathElement; member: boolean; child?: FieldSet }>();
  for (const [id, pe] of s.members) all.set(id, { pe, member: true });
  for (const [id, c] of s.children) {
    if (c.set.isEmpty()) continue;
    const e = all.get(id);
    if (e) e.child = c.set;
    else all.set(id, { pe: c.pe, member: false, child: c.set });
  }
  for (const e of [...all.values()].sort((a, b) => compareElements(a.pe, b.pe))) {
    out[e.pe.id] = e.child ? emit(e.child, e.member) : {};
  }
  return out;
}

function read(obj: unknown): [FieldSet | undefined, boolean] {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new Error(`expected an object in fieldsV1, got ${JSON.stringify(obj)}`);
  }
  let children: FieldSet | undefined;
  let isMember = false;
  for (const [key, val] of Object.entries(obj as Record<string, unknown>)) {
    if (key === '.') {
      isMember = true;
      continue;
    }
    const pe = parseElement(key);
    if (!pe) continue;
    const [grand, childIsMember] = read(val);
    if (childIsMember) {
      children ??= new FieldSet();
      children.members.set(pe.id, pe);
    }
    if (grand) {
      children ??= new FieldSet();
      const existing = children.children.get(pe.id);
      children.children.set(pe.id, { pe, set: existing ? existing.set.union(grand) : grand });
    }
  }
  if (!children) isMember = true;
  return [children, isMember];
}
