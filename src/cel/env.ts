/**
 * cel-js Environments with kube's base environment for v1.33: one base per profile (libraries registered
 * once), cloned per distinct set of variable declarations (cached), with object types registered under
 * unique names and structural equality for them.
 */
import { Environment } from '@marcbachmann/cel-js';
import type { CelObjectType, CelProfile, CelType } from './contract.ts';
import { CelObject, celEquals, listEquals, NULL_OBJECT, objectClass } from './values.ts';
import { registerLibraries } from './lib/index.ts';

type CelJsEnv = InstanceType<typeof Environment>;

export interface BoundEnv {
  readonly env: CelJsEnv;
  /** Variable types with object types made canonical (the instances whose runtime classes are registered). */
  readonly variables: Readonly<Record<string, CelType>>;
  /** Names of every function the environment knows (to word "undeclared reference" errors as cel-go). */
  readonly functions: ReadonlySet<string>;
  /** Compiled programs by source, so repeated compiles of one rule are free. */
  readonly programs: Map<string, unknown>;
  /** Declared fields (CEL name → cel-js type string) of each registered object type, for has() checks. */
  readonly objectFields: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

const bases = new Map<CelProfile, CelJsEnv>();
const bound = new Map<string, BoundEnv>();
const MAX_BOUND = 500;

function baseEnv(profile: CelProfile): CelJsEnv {
  let env = bases.get(profile);
  if (!env) {
    // kube: OptionalTypes, CrossTypeNumericComparisons (cel-js compares across numeric types already) and
    // HomogeneousAggregateLiterals, which validators.ts enforces after checking (format() arguments are exempt).
    env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerLibraries(env, profile);
    bases.set(profile, env);
  }
  return env;
}

/** The environment for `profile` with `variables` declared (cached by their structure). */
export function boundEnv(profile: CelProfile, variables: Readonly<Record<string, CelType>>): BoundEnv {
  const key = `${profile}\u0000${JSON.stringify(variables)}`;
  const hit = bound.get(key);
  if (hit) return hit;
  const env = baseEnv(profile).clone();
  const types = new TypeRegistrar(env);
  const canonical: Record<string, CelType> = {};
  for (const [name, type] of Object.entries(variables)) {
    canonical[name] = types.canonical(type);
    env.registerVariable(name, types.declare(canonical[name]));
  }
  const functions = new Set(env.getDefinitions().functions.map((f) => f.name));
  const out: BoundEnv = { env, variables: canonical, functions, programs: new Map(), objectFields: types.fields };
  if (bound.size >= MAX_BOUND) bound.delete(bound.keys().next().value!);
  bound.set(key, out);
  return out;
}

/** Registers object types in one environment under unique, valid cel-js names. */
class TypeRegistrar {
  readonly #byStructure = new Map<string, CelObjectType>();
  readonly #names = new Map<CelObjectType, string>();
  readonly #used = new Set<string>();
  readonly fields = new Map<string, Record<string, string>>();
  readonly #listEq = new Set<string>();
  constructor(private readonly env: CelJsEnv) {}

  /** The same type with every object type replaced by the first structurally equal one seen. */
  canonical(type: CelType): CelType {
    if (typeof type === 'string' || 'opaque' in type) return type;
    if ('list' in type) {
      const inner = this.canonical(type.list);
      return inner === type.list ? type : { ...type, list: inner };
    }
    if ('map' in type) {
      const inner = this.canonical(type.map);
      return inner === type.map ? type : { map: inner };
    }
    if ('optional' in type) {
      const inner = this.canonical(type.optional);
      return inner === type.optional ? type : { optional: inner };
    }
    if ('opaque' in type) return type;
    const key = JSON.stringify(type);
    const seen = this.#byStructure.get(key);
    if (seen) return seen;
    const fields: Record<string, CelType> = {};
    for (const [k, f] of Object.entries(type.fields)) fields[k] = this.canonical(f);
    const canon: CelObjectType = { ...type, fields };
    this.#byStructure.set(key, canon);
    return canon;
  }

  /** The cel-js type string for a canonical type, registering object types on first use. */
  declare(type: CelType): string {
    if (typeof type === 'string') {
      switch (type) {
        case 'timestamp': return 'google.protobuf.Timestamp';
        case 'duration': return 'google.protobuf.Duration';
        case 'null_type': return 'null';
        default: return type;
      }
    }
    if ('list' in type) {
      const elem = this.declare(type.list);
      // Map lists of objects compare regardless of order (values.ts marks them); cel-js's own list == is ordered.
      if (typeof type.list === 'object' && 'object' in type.list && !this.#listEq.has(elem)) {
        this.#listEq.add(elem);
        this.env.registerOperator(`list<${elem}> == list<${elem}>`, ((a: unknown[], b: unknown[]) => listEquals(a, b)) as never);
      }
      return `list<${elem}>`;
    }
    if ('map' in type) return `map<string, ${this.declare(type.map)}>`;
    if ('optional' in type) return `optional<${this.declare(type.optional)}>`;
    if ('opaque' in type) return type.opaque;
    const known = this.#names.get(type);
    if (known) return known;
    const name = this.#uniqueName(type.object);
    this.#names.set(type, name);
    const fields: Record<string, string> = {};
    for (const [k, f] of Object.entries(type.fields)) fields[k] = this.declare(f);
    this.env.registerType(name, { ctor: objectClass(type), fields });
    this.fields.set(name, fields);
    this.env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEquals(a, b));
    // cel-go lets null compare with object types (null is assignable to them): `namespaceObject == null`.
    // A variable declared with an object type but null at run time carries NULL_OBJECT (cel-js checks types).
    this.env.registerOperator(`${name} == null`, ((a: unknown, b: unknown) => a === b || (b === null && a instanceof CelObject && a.raw === NULL_OBJECT)) as never);
    return name;
  }

  #uniqueName(wanted: string): string {
    let base = wanted.replace(/[^\w.]/g, '_');
    if (base.length < 2 || /^(dyn|list|map|optional)$/.test(base) || /^[^A-Za-z_]/.test(base)) base = `object_${base}`;
    let name = base;
    for (let i = 2; this.#used.has(name); i++) name = `${base}_${i}`;
    this.#used.add(name);
    return name;
  }
}
