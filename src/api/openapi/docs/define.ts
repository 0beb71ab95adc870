/**
 * Descriptions of the built-in types and their fields, in our own words, for the OpenAPI documents (what
 * `kubectl explain` prints). One file per protobuf package (the names of src/api/protobuf/messages), named after
 * the package (`docs/apps.v1.ts`), each calling `defineDocs` once:
 *
 * ```ts
 * defineDocs('apps.v1', {
 *   Deployment: {
 *     $: 'A managed set of identical pods, rolled out declaratively through ReplicaSets.',
 *     spec: 'The desired pods and how to replace them.',
 *   },
 * });
 * ```
 * `$` describes the type itself; every other key is a field's JSON name. A description says what the field is,
 * its unit, default and constraints, in one or two sentences.
 *
 * A package too large for one file may be split (`docs/core.v1.ts`, `docs/core.v1-pod.ts`, …): each part calls
 * `defineDocs` with the same package and its own types; the calls merge, and a type described twice is an error.
 *
 * Fields an embedded struct lifts into its parent (`json:",inline"`, `~` in the messages files) are described on
 * the embedded type; the parent may describe a lifted field again under its JSON name to say more (e.g. which
 * object a `LocalObjectReference.name` names). A kind's `apiVersion` and `kind` come from `meta.TypeMeta` unless
 * the kind describes them itself.
 */

export type TypeDocs = Readonly<Record<string, string>>;

const packages = new Map<string, Record<string, TypeDocs>>();

export function defineDocs(pkg: string, types: Readonly<Record<string, TypeDocs>>): void {
  const into = packages.get(pkg) ?? {};
  for (const [type, docs] of Object.entries(types)) {
    if (into[type]) throw new Error(`docs for ${pkg}.${type} defined twice`);
    into[type] = docs;
  }
  packages.set(pkg, into);
}

function split(fullName: string): [string, string] {
  const i = fullName.lastIndexOf('.');
  return [fullName.slice(0, i), fullName.slice(i + 1)];
}

/** The description of a message (`apps.v1.Deployment`), if written. */
export function typeDoc(fullName: string): string | undefined {
  const [pkg, type] = split(fullName);
  return packages.get(pkg)?.[type]?.['$'];
}

/** The description of one field of a message, by its JSON name, if written. */
export function fieldDoc(fullName: string, json: string): string | undefined {
  if (json === '$') return undefined;
  const [pkg, type] = split(fullName);
  return packages.get(pkg)?.[type]?.[json];
}

/** Every package with docs (tests check coverage against the type descriptions). */
export function documentedPackages(): string[] {
  return [...packages.keys()];
}

/** The descriptions written for one package, by type name (tests check that every key names a real field). */
export function packageDocs(pkg: string): Readonly<Record<string, TypeDocs>> | undefined {
  return packages.get(pkg);
}
