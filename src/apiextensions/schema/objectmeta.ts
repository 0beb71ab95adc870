/**
 * Embedded resources (`x-kubernetes-embedded-resource`) inside a custom resource: apiVersion and kind are
 * required strings in kube's syntax, and their metadata is ObjectMeta validated as kube does for embedded
 * objects (kube's pkg/apiserver/schema/objectmeta/validation.go). The top-level object's metadata is the
 * generic store's business, not this file's.
 */
import { field, type FieldError } from '../../machinery/errors.ts';
import {
  isDNS1035Label, isQualifiedName, isValidLabelValue, isValidPathSegmentName, isValidPathSegmentPrefix,
} from '../../machinery/validation/names.ts';
import { childPath, indexPath, isObject, keyPath, type Structural } from './types.ts';
import { subtreeHas } from './structural.ts';

const hasEmbedded = (s: Structural) => subtreeHas(s, 'embedded', (n) => n.embeddedResource);

export function validateEmbeddedResources(x: unknown, s: Structural | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  walk(x, s, path, errs);
  return errs;
}

function walk(x: unknown, s: Structural | undefined, path: string, errs: FieldError[]): void {
  if (!s || !hasEmbedded(s)) return;
  if (isObject(x)) {
    if (s.embeddedResource) embedded(x, path, errs);
    for (const [k, v] of Object.entries(x)) {
      const p = s.properties?.get(k);
      if (p) walk(v, p, childPath(path, k), errs);
      else if (s.additionalProperties !== undefined && s.additionalProperties !== true) walk(v, s.additionalProperties, keyPath(path, k), errs);
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => walk(v, s.items, indexPath(path, i), errs));
  }
}

function parseGroupVersionError(gv: string): string | undefined {
  if (gv === '' || gv === '/') return undefined;
  const parts = gv.split('/');
  if (parts.length === 1 || (parts.length === 2 && parts[0] !== '' && parts[1] !== '')) return undefined;
  return `unexpected GroupVersion string: ${gv}`;
}

function embedded(x: Record<string, unknown>, path: string, errs: FieldError[]): void {
  if (!('apiVersion' in x)) errs.push(field.required(childPath(path, 'apiVersion'), ''));
  if (!('kind' in x)) errs.push(field.required(childPath(path, 'kind'), ''));
  for (const [k, v] of Object.entries(x)) {
    const p = childPath(path, k);
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(field.invalid(p, v, 'must be a string'));
      else if (v === '') errs.push(field.invalid(p, v, 'must not be empty'));
      else {
        const e = parseGroupVersionError(v);
        if (e) errs.push(field.invalid(p, v, e));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(field.invalid(p, v, 'must be a string'));
      else if (v === '') errs.push(field.invalid(p, v, 'must not be empty'));
      else {
        const e = isDNS1035Label(v.toLowerCase());
        if (e.length) errs.push(field.invalid(p, v, `may have mixed case, but should otherwise match: ${e.join(',')}`));
      }
    } else if (k === 'metadata') {
      if (!isObject(v)) {
        errs.push(field.invalid(p, v, 'must be an object'));
        continue;
      }
      meta(v, p, errs);
    }
  }
}

function meta(m: Record<string, unknown>, path: string, errs: FieldError[]): void {
  if (typeof m.name === 'string' && m.name !== '') {
    for (const e of isValidPathSegmentName(m.name)) errs.push(field.invalid(childPath(path, 'name'), m.name, e));
  }
  if (typeof m.generateName === 'string' && m.generateName !== '') {
    for (const e of isValidPathSegmentPrefix(m.generateName)) errs.push(field.invalid(childPath(path, 'generateName'), m.generateName, e));
  }
  if (isObject(m.labels)) {
    for (const [k, v] of Object.entries(m.labels)) {
      for (const e of isQualifiedName(k)) errs.push(field.invalid(childPath(path, 'labels'), k, e));
      if (typeof v === 'string') for (const e of isValidLabelValue(v)) errs.push(field.invalid(keyPath(childPath(path, 'labels'), k), v, e));
    }
  }
  if (isObject(m.annotations)) {
    for (const k of Object.keys(m.annotations)) {
      for (const e of isQualifiedName(k.toLowerCase())) errs.push(field.invalid(childPath(path, 'annotations'), k, e));
    }
  }
}
