/**
 * JSON Patch (RFC 6902) with JSON Pointer (RFC 6901): add, remove, replace, move, copy, test.
 * Atomic: operations run on a deep clone, so a failing operation leaves the input untouched and no partial
 * result escapes. Error messages follow evanphx/json-patch (what kube-apiserver uses) where practical.
 */
import { deepEqual } from './merge-patch.ts';

export interface JsonPatchOp {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

/** The patch document itself is malformed (kube: 400). */
export class JsonPatchDecodeError extends Error {
  override name = 'JsonPatchDecodeError';
}

/** An operation could not be applied (kube: 422). */
export class JsonPatchApplyError extends Error {
  override name = 'JsonPatchApplyError';
}

/** kube-apiserver's limit on operations per JSON patch. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** Validates the shape of a decoded patch document: an array of objects. */
export function decodeJsonPatch(doc: unknown): JsonPatchOp[] {
  if (!Array.isArray(doc)) {
    const t = doc === null ? 'null' : typeof doc === 'object' ? 'object' : typeof doc;
    throw new JsonPatchDecodeError(`json: cannot unmarshal ${t} into Go value of type jsonpatch.Patch`);
  }
  return doc.map((op) => {
    if (typeof op !== 'object' || op === null || Array.isArray(op)) {
      const t = op === null ? 'null' : Array.isArray(op) ? 'array' : typeof op;
      throw new JsonPatchDecodeError(`json: cannot unmarshal ${t} into Go value of type jsonpatch.Operation`);
    }
    return op as JsonPatchOp;
  });
}

/** RFC 6901: "" is the whole document; otherwise "/a/b~1c" → ["a", "b/c"]. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchApplyError(`JSON pointer must be empty or start with a "/": ${JSON.stringify(pointer)}`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function isContainer(v: unknown): v is Container {
  return typeof v === 'object' && v !== null;
}

function arrayIndex(token: string, len: number, allowEnd: boolean, op: string, path: string): number {
  if (token === '-' && allowEnd) return len;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchApplyError(`${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
  const i = Number(token);
  if (i > len || (!allowEnd && i >= len)) throw new JsonPatchApplyError(`${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
  return i;
}

/** Finds the container holding the pointer's last token. */
function parentOf(doc: unknown, tokens: string[], op: string, path: string): { parent: Container; key: string } {
  let cur: unknown = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i] as string;
    if (Array.isArray(cur)) {
      cur = cur[arrayIndex(t, cur.length, false, op, path)];
    } else if (isContainer(cur) && Object.prototype.hasOwnProperty.call(cur, t)) {
      cur = (cur as Record<string, unknown>)[t];
    } else {
      throw new JsonPatchApplyError(`${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
    }
  }
  if (!isContainer(cur)) throw new JsonPatchApplyError(`${op} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
  return { parent: cur, key: tokens[tokens.length - 1] as string };
}

function getAt(doc: unknown, path: string, op: string): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return doc;
  const { parent, key } = parentOf(doc, tokens, op, path);
  if (Array.isArray(parent)) return parent[arrayIndex(key, parent.length, false, op, path)];
  if (!Object.prototype.hasOwnProperty.call(parent, key)) {
    throw new JsonPatchApplyError(`${op} operation does not apply: doc is missing key: ${path}: missing value`);
  }
  return parent[key];
}

function clone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}

function requireValue(op: JsonPatchOp): unknown {
  if (!('value' in op)) throw new JsonPatchApplyError(`${op.op} operation missing value`);
  return op.value;
}

function requirePath(op: JsonPatchOp, name: 'path' | 'from'): string {
  const p = op[name];
  if (typeof p !== 'string') throw new JsonPatchApplyError(`${op.op} operation missing ${name}`);
  return p;
}

/** Adds (or for objects replaces) `value` at `path`; returns the new document root. */
function add(doc: unknown, path: string, value: unknown, opName = 'add'): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, opName, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, true, opName, path), 0, value);
  else parent[key] = value;
  return doc;
}

function remove(doc: unknown, path: string, opName = 'remove'): { doc: unknown; removed: unknown } {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return { doc: null, removed: doc };
  const { parent, key } = parentOf(doc, tokens, opName, path);
  if (Array.isArray(parent)) {
    const i = arrayIndex(key, parent.length, false, opName, path);
    const [removed] = parent.splice(i, 1);
    return { doc, removed };
  }
  if (!Object.prototype.hasOwnProperty.call(parent, key)) {
    throw new JsonPatchApplyError(`${opName} operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`);
  }
  const removed = parent[key];
  delete parent[key];
  return { doc, removed };
}

/**
 * Applies the operations to a clone of `doc` and returns the result; throws JsonPatchApplyError (input
 * untouched) when any operation fails.
 */
export function applyJsonPatch(doc: unknown, ops: readonly JsonPatchOp[]): unknown {
  let cur: unknown = clone(doc);
  for (const op of ops) {
    switch (op.op) {
      case 'add':
        cur = add(cur, requirePath(op, 'path'), clone(requireValue(op)));
        break;
      case 'remove':
        cur = remove(cur, requirePath(op, 'path')).doc;
        break;
      case 'replace': {
        const path = requirePath(op, 'path');
        const value = clone(requireValue(op));
        const tokens = parsePointer(path);
        if (tokens.length === 0) {
          cur = value;
          break;
        }
        const { parent, key } = parentOf(cur, tokens, 'replace', path);
        if (Array.isArray(parent)) {
          parent[arrayIndex(key, parent.length, false, 'replace', path)] = value;
        } else {
          if (!Object.prototype.hasOwnProperty.call(parent, key)) {
            throw new JsonPatchApplyError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
          }
          parent[key] = value;
        }
        break;
      }
      case 'move': {
        const from = requirePath(op, 'from');
        const path = requirePath(op, 'path');
        if (path !== from && path.startsWith(`${from}/`)) {
          throw new JsonPatchApplyError(`move operation does not apply: cannot move ${JSON.stringify(from)} into its own child ${JSON.stringify(path)}`);
        }
        const r = remove(cur, from, 'move');
        cur = add(r.doc, path, r.removed, 'move');
        break;
      }
      case 'copy': {
        const value = clone(getAt(cur, requirePath(op, 'from'), 'copy'));
        cur = add(cur, requirePath(op, 'path'), value, 'copy');
        break;
      }
      case 'test': {
        const path = requirePath(op, 'path');
        let actual: unknown;
        try {
          actual = getAt(cur, path, 'test');
        } catch {
          actual = undefined;
        }
        const expected = 'value' in op ? op.value : undefined;
        const same = actual === undefined ? expected === undefined || expected === null : deepEqual(actual, expected);
        if (!same) throw new JsonPatchApplyError(`testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new JsonPatchApplyError(`Unexpected kind: ${String(op.op)}`);
    }
  }
  return cur;
}
