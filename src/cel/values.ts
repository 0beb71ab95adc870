/**
 * The value adapter between plain JSON-like values (what callers hold) and cel-js runtime values: integers
 * are BigInt where the declared type says int, object types become lazily converted `CelObject`s, maps
 * become JS `Map`s (no prototype keys), timestamps `Date`s and durations cel-js `Duration`s. The reverse
 * direction turns any CEL result back into JSON-like values.
 *
 * Invariant: conversion is lazy for object fields (only the fields a rule reads are converted), and the last
 * top-level conversion is reused, so ten rules in a row over the same `self` convert each field once.
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional } from '@marcbachmann/cel-js';
import type { CelType, CelObjectType } from './contract.ts';
import { formatGoDuration, parseGoDuration } from '../machinery/duration.ts';

/** What an object type becomes at run time: a Map whose entries are converted on first read. */
export abstract class CelObject extends Map<string, unknown> {
  abstract readonly celType: CelObjectType;
  readonly raw: Readonly<Record<string, unknown>>;
  constructor(raw: Readonly<Record<string, unknown>>) {
    super();
    this.raw = raw;
  }
  override get(key: string): unknown {
    if (super.has(key)) return super.get(key);
    const fieldType = Object.hasOwn(this.celType.fields, key) ? this.celType.fields[key] : undefined;
    const rawKey = this.celType.jsonNames?.[key] ?? key;
    if (fieldType === undefined || !Object.hasOwn(this.raw, rawKey)) return undefined;
    const v = this.raw[rawKey];
    // JSON null on an object field reads as absent, as kube's structural values do for pruned nulls.
    const converted = v === null || v === undefined ? undefined : toCel(v, fieldType);
    super.set(key, converted);
    return converted;
  }
  override has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  /** The CEL names of the declared fields present in the raw object. */
  presentKeys(): string[] {
    return Object.keys(this.celType.fields).filter((k) => this.get(k) !== undefined);
  }
  /** The JSON property name of a CEL field name. */
  jsonName(key: string): string {
    return this.celType.jsonNames?.[key] ?? key;
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    for (const k of this.presentKeys()) this.get(k);
    return super[Symbol.iterator]();
  }
}

/**
 * Pass this as the value of a variable declared with an object type to make it null (kube's `namespaceObject`
 * for cluster-scoped requests): it compares equal to null and has no fields.
 */
export const NULL_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({});

type ObjectCtor = new (raw: Readonly<Record<string, unknown>>) => CelObject;
const classes = new WeakMap<CelObjectType, ObjectCtor>();

/** The runtime class for an object type (one per type, so cel-js can tell object types apart). */
export function objectClass(type: CelObjectType): ObjectCtor {
  let ctor = classes.get(type);
  if (!ctor) {
    ctor = class extends CelObject {
      readonly celType = type;
    };
    classes.set(type, ctor);
  }
  return ctor;
}

/**
 * A small cache of the last top-level conversions: callers evaluate several rules over the same `self` (or, for
 * admission policies, the same object, request and namespace) in a row, so they share one lazily converted
 * value. A few entries, not a WeakMap keyed by every object (that made GC dominate).
 */
const CACHE_SIZE = 8;
const cacheRaw: Array<object | undefined> = new Array(CACHE_SIZE);
const cacheType: Array<CelType | undefined> = new Array(CACHE_SIZE);
const cacheValue: unknown[] = new Array(CACHE_SIZE);
let cacheNext = 0;

/** Convert a variable's JSON-like value to the cel-js value for `type`, reusing a recent conversion of it. */
export function variableToCel(v: unknown, type: CelType): unknown {
  if (typeof v === 'object' && v !== null && typeof type === 'object') {
    for (let i = 0; i < CACHE_SIZE; i++) if (cacheRaw[i] === v && cacheType[i] === type) return cacheValue[i];
    const converted = toCel(v, type);
    cacheRaw[cacheNext] = v;
    cacheType[cacheNext] = type;
    cacheValue[cacheNext] = converted;
    cacheNext = (cacheNext + 1) % CACHE_SIZE;
    return converted;
  }
  return toCel(v, type);
}

/** Convert a JSON-like value to the cel-js value for `type`. */
export function toCel(v: unknown, type: CelType): unknown {
  if (typeof type === 'object' && 'opaque' in type) return v;
  if (typeof type === 'object' && 'optional' in type) {
    if (v instanceof Optional) return v;
    return v === undefined ? Optional.none() : Optional.of(toCel(v, type.optional));
  }
  if (v === null || v === undefined) return null;
  if (typeof type === 'string') return scalarToCel(v, type);
  if ('opaque' in type) return v;
  if (typeof v === 'object' && !(v instanceof Date) && !(v instanceof Uint8Array)) return containerToCel(v, type);
  return dynToCel(v);
}

function containerToCel(v: object, type: Exclude<CelType, string | { readonly optional: CelType } | { readonly opaque: string }>): unknown {
  if ('list' in type) {
    if (!Array.isArray(v)) return dynToCel(v);
    const items = v.map((e) => toCel(e, type.list));
    // A set list of scalars is a JS Set: cel-js then compares it with any list regardless of order, as kube does.
    if (type.listType === 'set' && typeof type.list === 'string') return new Set(items);
    if (type.listType === 'set' || type.listType === 'map') unorderedLists.add(items);
    return items;
  }
  if (Array.isArray(v) || v instanceof Map) return dynToCel(v);
  if ('map' in type) {
    const m = new Map<string, unknown>();
    for (const [k, e] of Object.entries(v)) m.set(k, toCel(e, type.map));
    return m;
  }
  if (v instanceof CelObject) return v;
  if (!('object' in type)) return dynToCel(v);
  return new (objectClass(type))(v as Record<string, unknown>);
}

function scalarToCel(v: unknown, type: Exclude<CelType, object>): unknown {
  switch (type) {
    case 'int':
      if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
      return typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : dynToCel(v);
    case 'uint':
      if ((typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n)) return new UnsignedInt(v);
      return dynToCel(v);
    case 'double':
      return typeof v === 'bigint' ? Number(v) : v;
    case 'bytes':
      return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v;
    case 'timestamp': {
      if (typeof v !== 'string') return v;
      const d = new Date(v);
      return Number.isNaN(d.getTime()) ? v : d;
    }
    case 'duration': {
      if (typeof v !== 'string') return v;
      const parsed = parseGoDuration(v);
      return parsed === undefined ? v : new Duration(parsed.seconds, parsed.nanos);
    }
    case 'dyn':
      return dynToCel(v);
    default:
      return v;
  }
}

/** Untyped JSON → CEL as kube's unstructured values: integral numbers are int, objects are maps. */
export function dynToCel(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? BigInt(v) : v;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) return v.map(dynToCel);
      if (v instanceof Map || v instanceof CelObject || v instanceof Date || v instanceof Uint8Array) return v;
      // Values of library types (quantities, IPs, authorizer checks, …) are CEL values already.
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return v;
      const m = new Map<string, unknown>();
      for (const [k, e] of Object.entries(v)) m.set(k, dynToCel(e));
      return m;
    }
    default:
      return v;
  }
}

/** Any CEL value → a JSON-like value (ints as numbers, maps as plain objects, timestamps RFC 3339). */
export function fromCel(v: unknown): unknown {
  switch (typeof v) {
    case 'bigint':
      return Number(v);
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) return v.map(fromCel);
      if (v instanceof Set) return [...v].map(fromCel);
      if (v instanceof CelObject) {
        if (v.raw === NULL_OBJECT) return null;
        const out: Record<string, unknown> = {};
        for (const k of v.presentKeys()) out[v.jsonName(k)] = fromCel(v.get(k));
        return out;
      }
      if (v instanceof Map) {
        const out: Record<string, unknown> = {};
        for (const [k, e] of v) out[String(k)] = fromCel(e);
        return out;
      }
      if (v instanceof UnsignedInt) return Number(v.valueOf());
      if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
      if (v instanceof Duration) return formatGoDuration(v.seconds, v.nanos);
      if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
      if (v instanceof Optional) return v.hasValue() ? fromCel(v.value()) : undefined;
      if (v.constructor === Object) {
        const out: Record<string, unknown> = {};
        for (const [k, e] of Object.entries(v)) out[k] = fromCel(e);
        return out;
      }
      return String(v);
    }
    default:
      return v;
  }
}

/** Lists converted from `x-kubernetes-list-type: map` (or set of non-scalars): equality ignores their order. */
const unorderedLists = new WeakSet<unknown[]>();

/** Equality of two lists: element-wise, or as multisets when either is an unordered (map/set) list. */
export function listEquals(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  if (!unorderedLists.has(a as unknown[]) && !unorderedLists.has(b as unknown[])) return a.every((e, i) => celEquals(e, b[i]));
  const used = new Array<boolean>(b.length).fill(false);
  return a.every((e) => {
    const i = b.findIndex((x, j) => !used[j] && celEquals(e, x));
    if (i < 0) return false;
    used[i] = true;
    return true;
  });
}

/** Deep equality of two CEL values, ints and doubles comparing numerically (CEL's heterogeneous equality). */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return a == b; // numeric comparison across bigint/number
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof CelObject || b instanceof CelObject) {
    if (!(a instanceof CelObject && b instanceof CelObject) || a.celType.object !== b.celType.object) return false;
    const ka = a.presentKeys();
    if (ka.length !== b.presentKeys().length) return false;
    return ka.every((k) => celEquals(a.get(k), b.get(k)));
  }
  if (Array.isArray(a) && Array.isArray(b)) return listEquals(a, b);
  if ((a instanceof Set || Array.isArray(a)) && (b instanceof Set || Array.isArray(b))) {
    const x = [...a];
    const y = [...b];
    return x.length === y.length && x.every((e) => y.some((f) => celEquals(e, f)));
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, e] of a) if (!b.has(k) || !celEquals(e, b.get(k))) return false;
    return true;
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b));
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Duration && b instanceof Duration) return a.seconds === b.seconds && a.nanos === b.nanos;
  if (a instanceof UnsignedInt && b instanceof UnsignedInt) return a.valueOf() === b.valueOf();
  const ea = (a as { equals?: (o: unknown) => boolean }).equals;
  return typeof ea === 'function' ? ea.call(a, b) : false;
}
