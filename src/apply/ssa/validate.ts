/**
 * Validation of an apply body against the schema before merging (SMD's typed conversion of the patch object,
 * duplicates not allowed), with SMD's messages: `.spec.replicas: expected numeric (int or float), got string`,
 * `.spec.foo: field not declared in schema`, `.spec.containers: duplicate entries for key [name="x"]`,
 * `.spec.ports: element 0: associative list with keys has an element that omits all key fields …`.
 * Several errors read `errors:\n  <e1>\n  <e2>`. kube wraps them as `failed to create typed patch object
 * (<ns>/<name>; <gvk>): …` and answers 500, which {@link typedPatchError} reproduces.
 */
import { StatusError } from '../../machinery/errors.ts';
import { fieldOf, isDeclaredField, resolveNode, type SchemaNode } from '../schema-view.ts';
import { elementString, fieldElement, indexElement, type PathElement } from '../fieldpath/element.ts';
import { listItemElement } from '../fieldpath/from-value.ts';
import { goFormat } from '../fieldpath/value.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function goTypeName(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isObject(v)) return 'map[string]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Number.isInteger(v) ? 'int64' : 'float64';
}

function sharp(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(sharp).join(', ')}}`;
  if (isObject(v)) return `map[string]interface {}{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sharp(v[k])}`).join(', ')}}`;
  return goFormat(v);
}

type Kind = 'numeric' | 'string' | 'boolean' | 'any' | 'skip';

function scalarKind(node: SchemaNode): Kind {
  if (node.kind !== 'scalar') return 'skip';
  if (node.special) {
    if (node.special === 'time' || node.special === 'microtime' || node.special === 'duration') return 'string';
    if (node.special === 'quantity' || node.special === 'intorstring') return 'any';
    return 'skip';
  }
  switch (node.scalar) {
    case 'integer': case 'number': return 'numeric';
    case 'string': return 'string';
    case 'boolean': return 'boolean';
    default: return 'any';
  }
}

/** The SMD validation errors of an apply body, each `<path>: <message>`. */
export function validateApplied(value: unknown, root: SchemaNode): string[] {
  const errs: string[] = [];
  walk(value, root, [], errs);
  return errs;
}

function at(path: PathElement[], msg: string): string {
  return path.length ? `${path.map(elementString).join('')}: ${msg}` : msg;
}

function walk(value: unknown, node: SchemaNode, path: PathElement[], errs: string[]): void {
  if (value === null || value === undefined) return;
  const n = resolveNode(node, value);
  if (n.kind === 'scalar') {
    const k = scalarKind(n);
    const scalar = typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean';
    if (k === 'numeric' && typeof value !== 'number') errs.push(at(path, `expected numeric (int or float), got ${goTypeName(value)}`));
    else if (k === 'string' && typeof value !== 'string') errs.push(at(path, `expected string, got &value.valueUnstructured{Value:${sharp(value)}}`));
    else if (k === 'boolean' && typeof value !== 'boolean') errs.push(at(path, `expected boolean, got &{${goFormat(value)}}`));
    else if (k === 'any' && !scalar) errs.push(at(path, `expected any scalar, got &{${goFormat(value)}}`));
    return;
  }
  if (n.kind === 'list') {
    if (!Array.isArray(value)) return void errs.push(at(path, `expected list, got &{${goFormat(value)}}`));
    const seen = new Set<string>();
    for (let i = 0; i < value.length; i++) {
      let pe: PathElement;
      if (n.listType === 'atomic') pe = indexElement(i);
      else {
        try {
          pe = listItemElement(n, value[i]);
        } catch (err) {
          errs.push(at(path, `element ${i}: ${(err as Error).message}`));
          return;
        }
        if (seen.has(pe.id)) errs.push(at(path, `duplicate entries for key ${elementString(pe)}`));
        seen.add(pe.id);
      }
      path.push(pe);
      walk(value[i], n.element, path, errs);
      path.pop();
    }
    return;
  }
  if (!isObject(value)) return void errs.push(at(path, `expected map, got &{${goFormat(value)}}`));
  for (const [key, v] of Object.entries(value)) {
    const pe = fieldElement(key);
    if (n.kind === 'struct' && !isDeclaredField(n, key)) {
      path.push(pe);
      errs.push(at(path, 'field not declared in schema'));
      path.pop();
      return;
    }
    path.push(pe);
    walk(v, n.kind === 'struct' ? fieldOf(n, key).node : n.value, path, errs);
    path.pop();
  }
}

/** kube's 500 for an apply body that does not fit the schema. */
export function typedPatchError(applied: Record<string, unknown>, errs: string[]): StatusError {
  const meta = isObject(applied.metadata) ? applied.metadata : {};
  const av = typeof applied.apiVersion === 'string' ? applied.apiVersion : '';
  const gvk = `${av.includes('/') ? av : `/${av}`}, Kind=${typeof applied.kind === 'string' ? applied.kind : ''}`;
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  const name = typeof meta.name === 'string' ? meta.name : '';
  const detail = errs.length === 1 ? errs[0]! : ['errors:', ...errs.map((e) => `  ${e}`)].join('\n');
  return new StatusError(500, '', `failed to create typed patch object (${ns}/${name}; ${gvk}): ${detail}`);
}
